package manifest

// The skill index of an open bundle: each skill by number, its URI, entry
// and capabilities, and lookups by URI (a skill, or the skill that holds a
// file).

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"sort"
	"strings"
)

type skillRec struct {
	off, len, entryLen, uriLen int
	flags                      uint32
}

func (b *Bundle) rec(i int) skillRec {
	e := b.skillIdx[i*skillIndexSize:]
	u := func(k int) uint32 { return binary.LittleEndian.Uint32(e[4*k:]) }
	return skillRec{int(u(0)), int(u(1)), int(u(2)), int(u(3)), u(4)}
}

// checkSkillIndex checks the skill index against the manifest, and copies
// every skill's URI and hidden flag out of the mapped file as it goes (into
// b.uris, b.uriEnd and b.hidden), in one allocation each: the numbers and
// URIs that listing and lookups read for every skill are then read from
// memory of the process's own, with no guard, and in one place.
func (b *Bundle) checkSkillIndex() error {
	n := b.NumSkills()
	size := 0
	for i := range n {
		size = min(size+min(b.rec(i).uriLen, len(b.man)), len(b.man))
	}
	var uris strings.Builder
	uris.Grow(size)
	b.uriEnd = make([]int, n)
	b.hidden = make([]uint64, (n+63)/64)
	var prev []byte
	for i := range n {
		r := b.rec(i)
		if binary.LittleEndian.Uint32(b.skillIdx[i*skillIndexSize+20:]) != 0 || r.flags&^flagHidden != 0 {
			return corrupt(b.name, "skill %d: unknown index flags", i)
		}
		if r.off < 0 || r.len < 0 || r.off > len(b.man) || r.len > len(b.man)-r.off ||
			r.entryLen < len(entryPrefix)+len(SkillFile)+2 || r.entryLen > r.len-len(recordPrefix)-1 ||
			r.uriLen <= 0 || r.uriLen > r.entryLen-len(entryPrefix)-2 {
			return corrupt(b.name, "skill %d: index entry out of range", i)
		}
		rec := b.man[r.off : r.off+r.len]
		if !bytes.HasPrefix(rec, []byte(recordPrefix+entryPrefix)) || rec[len(recordPrefix)+len(entryPrefix)+r.uriLen] != '"' ||
			rec[len(recordPrefix)+r.entryLen-1] != '}' || rec[r.len-1] != '}' {
			return corrupt(b.name, "skill %d: index does not match the manifest", i)
		}
		uri := b.uri(i)
		if bytes.IndexByte(uri, '\\') >= 0 || !bytes.HasSuffix(uri, []byte("/"+SkillFile)) {
			return corrupt(b.name, "skill %d: bad uri", i)
		}
		if i > 0 && bytes.Compare(prev, uri) >= 0 {
			return corrupt(b.name, "skill index not sorted")
		}
		prev = uri
		uris.Write(uri)
		b.uriEnd[i] = uris.Len()
		if r.flags&flagHidden != 0 {
			b.hidden[i/64] |= 1 << (i % 64)
		}
	}
	b.uris = uris.String()
	return nil
}

func (b *Bundle) uri(i int) []byte {
	r := b.rec(i)
	s := r.off + len(recordPrefix) + len(entryPrefix)
	return b.man[s : s+r.uriLen]
}

// NumSkills returns the number of skills, hidden ones included.
func (b *Bundle) NumSkills() int { return len(b.skillIdx) / skillIndexSize }

// SkillURI returns the URI of skill i's SKILL.md, or "" once an access
// found a mapped file changed under the bundle (see Fault). Skills are
// numbered in bytewise URI order, from 0 to NumSkills()-1.
func (b *Bundle) SkillURI(i int) string {
	if b.fault.Load() != nil {
		return ""
	}
	return b.uriAt(i)
}

// uriAt returns skill i's URI as Open copied it.
func (b *Bundle) uriAt(i int) string {
	start := 0
	if i > 0 {
		start = b.uriEnd[i-1]
	}
	return b.uris[start:b.uriEnd[i]]
}

// SkillURIs returns every skill's SKILL.md URI, SkillURI(i) at i, in one
// allocation; all "" once an access found a mapped file changed under the
// bundle.
func (b *Bundle) SkillURIs() []string {
	uris := make([]string, b.NumSkills())
	if b.fault.Load() == nil {
		for i := range uris {
			uris[i] = b.uriAt(i)
		}
	}
	return uris
}

// Hidden reports whether skill i is hidden (disable-model-invocation).
func (b *Bundle) Hidden(i int) bool { return b.hidden[i/64]&(1<<(i%64)) != 0 }

// EntryJSON returns skill i's SEP-2640 entry exactly as it goes on the wire,
// without parsing it. It fails only if a mapped file changed under the
// bundle. The caller must not modify the bytes.
func (b *Bundle) EntryJSON(i int) (p []byte, err error) {
	err = b.access(func() error {
		r := b.rec(i)
		s := r.off + len(recordPrefix)
		p = b.own(b.man[s : s+r.entryLen])
		return nil
	})
	return p, err
}

// EntriesContaining returns, in order, the numbers of the skills whose
// entry (EntryJSON) holds sub, reading a mapped file in place: a cheap test
// before decoding entries. It returns nil if a mapped file changed under
// the bundle (see Fault).
func (b *Bundle) EntriesContaining(sub []byte) (idx []int) {
	if len(sub) == 0 {
		for i := range b.NumSkills() {
			idx = append(idx, i)
		}
		return idx
	}
	// The scan looks for one byte of sub, then for sub around it: the first
	// that is not one of entryBytes, if any, so that it does not stop at
	// every resource of every entry.
	k := 0
	for j, c := range sub {
		if strings.IndexByte(entryBytes, c) < 0 {
			k = j
			break
		}
	}
	err := b.access(func() error {
		for i := range b.NumSkills() {
			r := b.rec(i)
			s := r.off + len(recordPrefix)
			if containsAt(b.man[s:s+r.entryLen], sub, k) {
				idx = append(idx, i)
			}
		}
		return nil
	})
	if err != nil {
		return nil
	}
	return idx
}

// entryBytes are the bytes of an entry's structure, which it repeats for
// each of its resources: the keys ("uri", "frontmatter", "resources",
// "digest", "size"), a digest's "sha256:" and hex digits, a size's digits,
// the punctuation.
const entryBytes = `{}[]",:0123456789abcdef` + "urifrontmatterresourcesdigestsha256size"

// containsAt reports whether s holds sub, looking for sub[k] first.
func containsAt(s, sub []byte, k int) bool {
	for p := k; p < len(s); p++ {
		j := bytes.IndexByte(s[p:], sub[k])
		if j < 0 {
			return false
		}
		p += j
		if p-k+len(sub) <= len(s) && bytes.Equal(s[p-k:p-k+len(sub)], sub) {
			return true
		}
	}
	return false
}

// Skill parses and returns skill i's full record.
func (b *Bundle) Skill(i int) (s *Skill, err error) {
	err = b.access(func() error {
		r := b.rec(i)
		s = new(Skill)
		dec := json.NewDecoder(bytes.NewReader(b.man[r.off : r.off+r.len]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(s); err != nil {
			return corrupt(b.name, "skill %s: %v", b.uriAt(i), err)
		}
		if s.Entry.URI != b.uriAt(i) || len(s.Files) != len(s.Entry.Resources) || len(s.Files) == 0 {
			return corrupt(b.name, "skill %s: record does not match its index", b.uriAt(i))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// FindSkill returns the number of the skill whose SKILL.md has the given URI.
// It finds nothing if a mapped file changed under the bundle.
func (b *Bundle) FindSkill(uri string) (i int, ok bool) {
	b.access(func() error { i, ok = b.findSkill(uri); return nil })
	return i, ok
}

func (b *Bundle) findSkill(uri string) (int, bool) {
	if b.fault.Load() != nil {
		return 0, false
	}
	n := b.NumSkills()
	i := sort.Search(n, func(i int) bool { return b.uriAt(i) >= uri })
	return i, i < n && b.uriAt(i) == uri
}

// SkillFor returns the innermost skill whose folder holds the resource or
// folder uri: the skill with the longest root that is a prefix of uri.
func (b *Bundle) SkillFor(uri string) (i int, ok bool) {
	if !strings.HasPrefix(uri, URIScheme) {
		return 0, false
	}
	b.access(func() error {
		for p := uri; len(p) > len(URIScheme); {
			if i, ok = b.findSkill(p + "/" + SkillFile); ok {
				return nil
			}
			j := strings.LastIndexByte(p, '/')
			if j < len(URIScheme) {
				break
			}
			p = p[:j]
		}
		return nil
	})
	return i, ok
}

// Capabilities returns skill i's capabilities (Skill.Capabilities),
// reading them from the mapped record in place rather than decoding it:
// what a catalog lists for every skill costs a search of its record. The
// record's members come in struct order and no string holds an unescaped
// quote, so the member is found before the members that may hold nested
// frontmatter values (scriptsWithheld, provenance). nil when there are
// none, or when a mapped file changed under the bundle.
func (b *Bundle) Capabilities(i int) (caps []string) {
	err := b.access(func() error {
		r := b.rec(i)
		rec := b.man[r.off+len(recordPrefix)+r.entryLen : r.off+r.len]
		for _, stop := range []string{`,"scriptsWithheld":`, `,"provenance":`} {
			if k := bytes.Index(rec, []byte(stop)); k >= 0 {
				rec = rec[:k]
			}
		}
		const key = `,"capabilities":`
		k := bytes.Index(rec, []byte(key))
		if k < 0 {
			return nil
		}
		rest := rec[k+len(key):]
		end := bytes.IndexByte(rest, ']')
		if end < 0 {
			return nil
		}
		if err := json.Unmarshal(rest[:end+1], &caps); err != nil || CheckCapabilities(caps) != nil {
			caps = nil
		}
		return nil
	})
	if err != nil {
		return nil
	}
	return caps
}
