package release

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
)

// Release is one side of a comparison: a manifest's libraries and skills,
// and a way to read the files of its skills. Make one with FromBundle,
// FromSource or FromManifest.
type Release struct {
	Name string // what to call the release in messages: a path, a URL, a reference
	ID   string // the bundle id, "sha256:…", or the digest of a site's index

	head   *manifest.Manifest // libraries, withheld, warnings; Skills nil when bundle is set
	bundle *manifest.Bundle   // the skills, read in place; nil for a release held as a manifest
	skills []manifest.Skill   // sorted by URI; when bundle is nil
	read   func(ctx context.Context, d manifest.Digest, size int64, path string) ([]byte, error)
}

// FromBundle returns the release of an opened bundle. Only its manifest's
// head is parsed now; skills are parsed when a comparison needs them.
func FromBundle(b *manifest.Bundle, name string) (*Release, error) {
	head, err := b.Head()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Release{Name: name, ID: b.ID().String(), head: head, bundle: b,
		read: func(_ context.Context, d manifest.Digest, _ int64, _ string) ([]byte, error) { return b.ReadBlob(d) }}, nil
}

// FromManifest returns the release of a manifest held in memory, such as
// the one a build just made. read reads a file by its digest (checked by
// the caller's source); nil when no file will be read (a release compared
// only for its risk, as the gate does).
func FromManifest(m *manifest.Manifest, name, id string, read func(ctx context.Context, d manifest.Digest, size int64, path string) ([]byte, error)) *Release {
	head := *m
	head.Skills = nil
	if read == nil {
		read = func(context.Context, manifest.Digest, int64, string) ([]byte, error) {
			return nil, fmt.Errorf("%s: file contents are not available", name)
		}
	}
	return &Release{Name: name, ID: id, head: &head, skills: m.Skills, read: read}
}

// FromSource returns the release of a source pull opened: its bundle when
// it is one, else the manifest it was listed from, else (a discovery site
// read from its index alone) its skills as the listing gives them, without
// findings or capabilities. The source must stay open while the release is
// used.
func FromSource(src *pull.Source) (*Release, error) {
	if b := src.Bundle(); b != nil {
		r, err := FromBundle(b, src.Name)
		if err != nil {
			return nil, err
		}
		r.ID = src.ID
		return r, nil
	}
	read := func(ctx context.Context, d manifest.Digest, size int64, path string) ([]byte, error) {
		return src.ReadFile(ctx, &pull.File{Path: path, Digest: d, Size: size})
	}
	if m := src.Manifest(); m != nil {
		return FromManifest(m, src.Name, src.ID, read), nil
	}
	m := &manifest.Manifest{MediaType: manifest.MediaType}
	for _, sk := range src.Skills {
		fm, err := json.Marshal(map[string]string{"name": sk.Name, "description": sk.Description})
		if err != nil {
			return nil, err
		}
		ms := manifest.Skill{Entry: manifest.Entry{URI: sk.URI, Frontmatter: fm}, Path: sk.Path}
		if ns, _, ok := strings.Cut(sk.Path, "/"); ok {
			ms.Library = ns
		}
		for _, f := range sk.Files {
			ms.Entry.Resources = append(ms.Entry.Resources, manifest.Resource{URI: f.URI, Digest: f.Digest, Size: f.Size})
			ms.Files = append(ms.Files, manifest.File{Path: f.Path})
		}
		m.Skills = append(m.Skills, ms)
	}
	return FromManifest(m, src.Name, src.ID, read), nil
}

// Libraries returns the release's libraries, as its manifest describes them.
func (r *Release) Libraries() []manifest.Library { return r.head.Libraries }

// numSkills returns how many skills the release holds.
func (r *Release) numSkills() int {
	if r.bundle != nil {
		return r.bundle.NumSkills()
	}
	return len(r.skills)
}

// skill returns skill i, parsed.
func (r *Release) skill(i int) (*manifest.Skill, error) {
	if r.bundle != nil {
		s, err := r.bundle.Skill(i)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		return s, nil
	}
	return &r.skills[i], nil
}

// all returns every skill, parsed, in URI order.
func (r *Release) all() ([]manifest.Skill, error) {
	if r.bundle == nil {
		return r.skills, nil
	}
	m, err := r.bundle.Manifest()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Name, err)
	}
	return m.Skills, nil
}
