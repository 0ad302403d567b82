package serve

// What the discovery tools derive from a snapshot: one record per skill,
// the library list and the search index, built on first use (see tools.go).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/search"
	"github.com/skills-mcp/skills-mcp/skilltext"
)

// catalogFor returns the catalog of snap: the one kept if it is of snap,
// else a new one, kept if snap is the server's current snapshot.
func (d *discovery) catalogFor(snap *Snapshot) *catalog {
	if snap.base != nil { // a view: its catalog lives as long as it does
		snap.catMu.Lock()
		defer snap.catMu.Unlock()
		if snap.cat == nil {
			snap.cat = &catalog{snap: snap}
		}
		return snap.cat
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cat != nil && d.cat.snap == snap {
		return d.cat
	}
	c := &catalog{snap: snap}
	if snap == d.srv.Snapshot() {
		d.cat = c
	}
	return c
}

// current returns the catalog of the snapshot served now, as the caller of
// ctx may see it.
func (d *discovery) current(ctx context.Context) *catalog {
	return d.catalogFor(d.srv.snapshotFor(ctx))
}

// manifestHead decodes a bundle's manifest up to its skills: libraries,
// withheld skills and warnings, without the cost of every skill record.
func manifestHead(b *manifest.Bundle) (*manifest.Manifest, error) {
	dec := json.NewDecoder(b.ManifestReader())
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("bundle %s: manifest is not a JSON object", b.ID())
	}
	m := &manifest.Manifest{}
	fields := map[string]any{"mediaType": &m.MediaType, "generator": &m.Generator, "created": &m.Created,
		"libraries": &m.Libraries, "withheld": &m.Withheld, "warnings": &m.Warnings}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("bundle %s: manifest: %w", b.ID(), err)
		}
		key, _ := t.(string)
		if key == "skills" {
			break
		}
		dst, ok := fields[key]
		if !ok {
			dst = new(json.RawMessage)
		}
		if err := dec.Decode(dst); err != nil {
			return nil, fmt.Errorf("bundle %s: manifest field %s: %w", b.ID(), key, err)
		}
	}
	return m, nil
}

// headers returns each bundle's manifest head, in the snapshot's order.
func (c *catalog) headers() ([]*manifest.Manifest, error) {
	c.headOnce.Do(func() {
		for _, b := range c.snap.Bundles() {
			m, err := manifestHead(b)
			if err != nil {
				c.headErr = err
				return
			}
			c.heads = append(c.heads, m)
		}
	})
	return c.heads, c.headErr
}

// libraries returns every served library with the bundle that serves it.
func (c *catalog) libraries() ([]LibraryInfo, error) {
	heads, err := c.headers()
	if err != nil {
		return nil, err
	}
	var out []LibraryInfo
	for i, m := range heads {
		for _, l := range m.Libraries {
			l, ok, err := c.library(c.snap.Bundles()[i], l)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			li := LibraryInfo{Namespace: l.Namespace, Kind: l.Kind, Title: l.Title, Source: l.Source, Version: l.Version,
				Metadata: l.Metadata, NoScripts: l.NoScripts, Skills: l.Skills, Hidden: l.Hidden, Bundle: c.snap.Bundles()[i].ID().String()}
			if l.Digest != nil {
				li.Digest = l.Digest.String()
			}
			out = append(out, li)
		}
	}
	slices.SortStableFunc(out, func(a, b LibraryInfo) int { return strings.Compare(a.Namespace, b.Namespace) })
	return out, nil
}

// library returns library l of bundle b as the caller of c sees it, and
// whether that caller sees it at all. A namespaced library is seen whole
// or not at all (access.go). The skills of an un-namespaced library each
// have a namespace of their own, their top folder: a restricted caller sees
// the library when it may read one of them, counted as those alone, so
// that the counts say nothing of the skills it may not read.
func (c *catalog) library(b *manifest.Bundle, l manifest.Library) (manifest.Library, bool, error) {
	if c.snap.access.All() || l.Namespace != "" {
		return l, c.snap.allowsLibrary(l.Namespace), nil
	}
	docs, err := c.skills()
	if err != nil {
		return l, false, err
	}
	l.Skills, l.Hidden = 0, 0
	for k := range docs {
		if docs[k].bundle == b && docs[k].library == "" {
			l.Skills++
			if docs[k].hidden {
				l.Hidden++
			}
		}
	}
	return l, l.Skills > 0, nil
}

// skills returns one record per skill, by snapshot number. The records
// are parsed in parallel, in contiguous chunks.
func (c *catalog) skills() ([]skillDoc, error) {
	c.docsOnce.Do(func() {
		n := c.snap.Len()
		docs := make([]skillDoc, n)
		workers := max(1, min(runtime.GOMAXPROCS(0), n/256))
		errs := make([]error, workers)
		chunk := (n + workers - 1) / workers
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for k := w * chunk; k < min(n, (w+1)*chunk); k++ {
					sk, err := c.snap.Skill(k)
					if err != nil {
						errs[w] = err
						return
					}
					docs[k] = newSkillDoc(sk)
					docs[k].listed = c.snap.Listed(k)
					docs[k].bundle, _ = c.snap.Bundle(k)
				}
			})
		}
		wg.Wait()
		if c.docsErr = errors.Join(errs...); c.docsErr != nil {
			return
		}
		c.docs = docs
		c.byName, c.byLibName, c.byPath = map[string][]int{}, map[string][]int{}, make(map[string]int, n)
		for k := range docs {
			doc := &docs[k]
			c.byName[doc.name] = append(c.byName[doc.name], k)
			c.byLibName[doc.library+"/"+doc.name] = append(c.byLibName[doc.library+"/"+doc.name], k)
			c.byPath[doc.path] = k
		}
	})
	return c.docs, c.docsErr
}

func newSkillDoc(sk *manifest.Skill) skillDoc {
	f := skilltext.Of(sk)
	doc := skillDoc{name: f.Name, path: sk.Path, library: sk.Library, uri: sk.Entry.URI, hidden: sk.Hidden,
		files: len(sk.Files), findings: len(sk.Findings), scriptsWithheld: sk.ScriptsWithheld, trust: sk.Provenance,
		md: sk.Entry.Resources[0].Digest, caps: sk.Capabilities, description: f.Description, category: f.Category, tags: f.Tags}
	for i, f := range sk.Files {
		doc.bytes += sk.Entry.Resources[i].Size
		if f.Script {
			doc.scripts++
		}
	}
	for _, f := range sk.Findings {
		if !slices.Contains(doc.rules, f.Rule) {
			doc.rules = append(doc.rules, f.Rule)
		}
	}
	return doc
}

// searchable returns the search index over the listed skills, built on
// first use, and the snapshot number of each index document. The SKILL.md
// files (each hashed on its first read) are read in parallel, in
// contiguous chunks.
func (c *catalog) searchable() (*search.Index, []int, error) {
	c.indexOnce.Do(func() {
		docs, err := c.skills()
		if err != nil {
			c.indexErr = err
			return
		}
		var listed []int
		for k := range docs {
			if docs[k].listed {
				listed = append(listed, k)
			}
		}
		sdocs := make([]search.Doc, len(listed))
		workers := max(1, min(runtime.GOMAXPROCS(0), len(listed)/256))
		errs := make([]error, workers)
		chunk := (len(listed) + workers - 1) / workers
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for j := w * chunk; j < min(len(listed), (w+1)*chunk); j++ {
					doc := &docs[listed[j]]
					md, err := doc.bundle.ReadBlob(doc.md)
					if err != nil {
						errs[w] = fmt.Errorf("read %s: %w", doc.uri, err)
						return
					}
					body := skilltext.Body(md)
					if len(body) > search.MaxBody {
						body = body[:search.MaxBody] // the rest is not indexed: do not copy it
					}
					sdocs[j] = search.Doc{Name: doc.name, Description: doc.description, Tags: append(slices.Clip(doc.tags), doc.category),
						Body: string(body), Library: doc.library, Path: doc.path}
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				c.indexErr = err // the first skill that failed
				return
			}
		}
		c.indexDocs = listed
		c.index = search.New(sdocs)
	})
	return c.index, c.indexDocs, c.indexErr
}

// LibraryInfo describes a served library: what it is, never where it lives.
type LibraryInfo struct {
	Namespace string            `json:"namespace" jsonschema:"the first segment of its skill paths; empty for an un-namespaced library"`
	Kind      string            `json:"kind" jsonschema:"directory, archive or url"`
	Title     string            `json:"title,omitempty"`
	Source    string            `json:"source,omitempty" jsonschema:"the vault, repository or team the library comes from"`
	Version   string            `json:"version,omitempty"`
	Metadata  map[string]string `json:"metadata,omitempty"`
	Digest    string            `json:"digest,omitempty" jsonschema:"sha256 of the archive, for archive and url libraries"`
	NoScripts bool              `json:"noScripts,omitempty" jsonschema:"executable files were withheld"`
	Skills    int               `json:"skills"`
	Hidden    int               `json:"hidden" jsonschema:"skills with disable-model-invocation, included in skills"`
	Bundle    string            `json:"bundle" jsonschema:"id of the bundle that serves it"`
}

// frontmatter returns skill k's frontmatter, decoded from its entry alone.
func (c *catalog) frontmatter(k int) (map[string]any, error) {
	e, err := c.snap.EntryJSON(k)
	if err != nil {
		return nil, err
	}
	return entryFrontmatter(e)
}

// entryFrontmatter decodes the frontmatter of a SEP-2640 entry.
func entryFrontmatter(entry []byte) (map[string]any, error) {
	var fm map[string]any
	if err := decodeFrontmatter(entry, &fm); err != nil {
		return nil, err
	}
	return fm, nil
}

// decodeFrontmatter decodes the frontmatter of a SEP-2640 entry into v. A
// bundle's entries are {"uri":…,"frontmatter":{…},"resources":[…]}, so
// only the bytes between the frontmatter key and the last "resources" key
// are decoded (a key inside the frontmatter comes before it, and a
// resource's strings cannot hold an unescaped quote); any other shape is
// decoded whole.
func decodeFrontmatter(entry []byte, v any) error {
	const fmKey, resKey = `,"frontmatter":`, `,"resources":`
	if i, j := bytes.Index(entry, []byte(fmKey)), bytes.LastIndex(entry, []byte(resKey)); i > 0 && j > i {
		if err := json.Unmarshal(entry[i+len(fmKey):j], v); err == nil {
			return nil
		}
	}
	ent := struct {
		Frontmatter any `json:"frontmatter"`
	}{v}
	return json.Unmarshal(entry, &ent)
}
