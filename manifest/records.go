package manifest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// This file reads a bundle's manifest in parts, for a reader that compares
// two bundles: the head alone (Head), and one skill record against another
// bundle's in place (CompareSkill), so that comparing two large bundles
// that differ in a few skills parses only those few.

// Head returns the manifest without its skills (Skills is nil): media type,
// generator, creation time, libraries, withheld skills and warnings. It
// parses only the bytes before the first skill record, so its cost does not
// grow with the number of skills. It checks the head's strings (valid
// UTF-8) and media type, not the canonical form of the whole manifest,
// which Manifest and Verify check.
func (b *Bundle) Head() (m *Manifest, err error) {
	err = b.access(func() error {
		head := b.man
		if b.NumSkills() > 0 {
			// The canonical encoding puts `"skills":[` and a newline before
			// the first record (see Marshal).
			off := b.rec(0).off
			if !bytes.HasSuffix(head[:off], []byte(`"skills":[`+"\n")) {
				return corrupt(b.name, "manifest head does not end where the first skill starts")
			}
			head = append(bytes.Clone(head[:off-1]), "]}"...) // a copy: never write into the manifest
		}
		m = new(Manifest)
		dec := json.NewDecoder(bytes.NewReader(head))
		dec.DisallowUnknownFields()
		if err := dec.Decode(m); err != nil {
			return corrupt(b.name, "manifest head: %v", err)
		}
		if len(m.Skills) != 0 {
			return corrupt(b.name, "manifest head: skills before the first record")
		}
		m.Skills = nil
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := checkText(m); err != nil {
		return nil, corrupt(b.name, "%v", err)
	}
	if m.MediaType != MediaType {
		return nil, corrupt(b.name, "manifest: media type %q, want %q", m.MediaType, MediaType)
	}
	return m, nil
}

// CompareSkill compares skill i of b with skill j of o. order is the
// bytewise comparison of their URIs (the order skills are numbered in);
// when the URIs are equal, same reports whether the two records are
// identical byte for byte: the same entry, files, findings and all. It reads
// both bundles in place and copies nothing. A mapped file that changed under
// either bundle gives order 0 and same false.
func (b *Bundle) CompareSkill(i int, o *Bundle, j int) (order int, same bool) {
	b.access(func() error {
		return o.access(func() error {
			order = bytes.Compare(b.uri(i), o.uri(j))
			if order == 0 {
				ri, rj := b.rec(i), o.rec(j)
				same = bytes.Equal(b.man[ri.off:ri.off+ri.len], o.man[rj.off:rj.off+rj.len])
			}
			return nil
		})
	})
	return order, same
}

// TreeDigest returns the digest of the skill's whole tree: the SHA-256 of
// one line "<hex digest> <size> <path>\n" per file, in bytewise order of
// the paths. It depends only on the files' paths and contents, so two
// skills with the same tree at different paths (a moved skill) have the
// same digest; it is the tree digest of pull's lock file too, and can be
// reproduced from the skill's folder with coreutils:
//
//	find . -type f | sed 's|^\./||' | LC_ALL=C sort | while IFS= read -r f; do
//		printf '%s %s %s\n' "$(sha256sum < "$f" | cut -c1-64)" "$(stat -c %s "$f")" "$f"
//	done | sha256sum
func (s *Skill) TreeDigest() Digest {
	idx := make([]int, len(s.Files))
	for k := range idx {
		idx[k] = k
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(s.Files[a].Path, s.Files[b].Path) })
	h := NewHash()
	var line []byte
	for _, k := range idx {
		r := s.Entry.Resources[k]
		line = append(hex.AppendEncode(line[:0], r.Digest[:]), ' ')
		line = append(strconv.AppendInt(line, r.Size, 10), ' ')
		line = append(append(line, s.Files[k].Path...), '\n')
		h.Write(line)
	}
	return DigestOf(h)
}
