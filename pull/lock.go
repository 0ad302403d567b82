package pull

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// The lock file. pull writes LockFile in the destination folder: for each
// source the reference as given and the digest it resolved to, the signer
// that was trusted, and for each skill its path, its destination, the
// digest of its whole tree and of each file. The file is a function of what
// was pulled alone: sources, skills and files are sorted, there is no
// timestamp, and Marshal of a parsed lock gives back its bytes (the format is
// canonical). ParseLock is strict: a file that Marshal would not have written
// from what it holds (an unknown or duplicate field, a digest that is not
// lowercase hex, a duplicate source, skill, destination or file, a tree
// digest that does not match the files, an unsafe path) is refused with the
// file, line, column and rule.

// LockFile is the lock file's name in the destination folder.
const LockFile = "skills.lock.json"

// LockVersion is the version of the lock format Marshal writes and
// ParseLock reads.
const LockVersion = 1

// maxLockBytes bounds a lock file read.
const maxLockBytes = 64 << 20

// Kinds of locked sources.
const (
	KindBundle  = "bundle"  // a bundle file; resolved: the bundle id
	KindHTTPS   = "https"   // a bundle over https; resolved: the sha256 of the file
	KindOCI     = "oci"     // an oci:// reference; resolved: the artifact's manifest digest
	KindExport  = "export"  // a folder written by export; resolved: the manifest's digest
	KindIndex   = "index"   // a discovery site; resolved: the index's digest
	KindServer  = "server"  // a live server over HTTP; resolved: the digest of the locked listing
	KindCommand = "command" // a live server over stdio; resolved: as for server
)

var lockKinds = []string{KindBundle, KindCommand, KindExport, KindHTTPS, KindIndex, KindOCI, KindServer}

// Lock is a lock file.
type Lock struct {
	Version int          `json:"lockVersion"`
	Sources []LockSource `json:"sources"`

	p *lockParser // where the lock was read from, for SourceError
}

// LockSource is one source of a lock.
type LockSource struct {
	// Ref is the source as given: a URL without its query or user, an
	// oci:// reference, the command line of a stdio server, or the path of
	// a bundle or an export relative to the lock's folder (slash-separated).
	Ref      string          `json:"ref"`
	Kind     string          `json:"kind"`
	Resolved manifest.Digest `json:"resolved"`
	// Signer names the trusted key that signed the manifest; nil when no
	// signature was checked.
	Signer *string `json:"signer"`
	// ETag is the strong entity tag an https server gave the bundle file
	// (see StrongETag), for pull --check to ask with one HEAD whether the
	// file changed; empty for other kinds, or when the server gave none.
	ETag   string      `json:"etag,omitempty"`
	Skills []LockSkill `json:"skills"`
}

// LockSkill is one pulled skill.
type LockSkill struct {
	Path  string          `json:"path"` // the skill path
	URI   string          `json:"uri"`
	Dest  string          `json:"dest"` // the skill folder, relative to the lock's folder
	Tree  manifest.Digest `json:"tree"` // TreeDigest of Files
	Files []LockedFile    `json:"files"`
}

// LockedFile is one file of a locked skill.
type LockedFile struct {
	Path   string          `json:"path"`
	Digest manifest.Digest `json:"digest"`
	Size   int64           `json:"size"`
}

// TreeDigest is the digest of a skill's whole tree: of one line
// "<hex digest> <size> <path>\n" per file, in path order. Two folders with
// the same files (paths, sizes, bytes) have the same tree digest. It is
// manifest.Skill.TreeDigest, the one definition, of files.
func TreeDigest(files []LockedFile) manifest.Digest {
	s := manifest.Skill{Files: make([]manifest.File, len(files)), Entry: manifest.Entry{Resources: make([]manifest.Resource, len(files))}}
	for i, f := range files {
		s.Files[i].Path = f.Path
		s.Entry.Resources[i].Digest, s.Entry.Resources[i].Size = f.Digest, f.Size
	}
	return s.TreeDigest()
}

// lockSkillOf is the lock entry of sk written to dest.
func lockSkillOf(sk *Skill, dest string) LockSkill {
	ls := LockSkill{Path: sk.Path, URI: sk.URI, Dest: dest}
	for _, f := range sk.Files {
		ls.Files = append(ls.Files, LockedFile{Path: f.Path, Digest: f.Digest, Size: f.Size})
	}
	ls.normalize()
	return ls
}

func (s *LockSkill) normalize() {
	slices.SortFunc(s.Files, func(a, b LockedFile) int { return strings.Compare(a.Path, b.Path) })
	s.Tree = TreeDigest(s.Files)
}

// Sort puts the lock in its canonical order: sources by ref, skills by
// destination, files by path.
func (l *Lock) Sort() {
	slices.SortFunc(l.Sources, func(a, b LockSource) int { return strings.Compare(a.Ref, b.Ref) })
	for i := range l.Sources {
		sk := l.Sources[i].Skills
		slices.SortFunc(sk, func(a, b LockSkill) int { return strings.Compare(a.Dest, b.Dest) })
		for j := range sk {
			slices.SortFunc(sk[j].Files, func(a, b LockedFile) int { return strings.Compare(a.Path, b.Path) })
		}
	}
}

// Marshal returns the lock's canonical bytes: sorted, indented by two
// spaces, ending in a newline. Identical locks give identical bytes.
func (l *Lock) Marshal() ([]byte, error) {
	c := *l
	c.Version = LockVersion
	c.Sources = slices.Clone(l.Sources)
	for i := range c.Sources {
		c.Sources[i].Skills = slices.Clone(c.Sources[i].Skills)
		for j := range c.Sources[i].Skills {
			c.Sources[i].Skills[j].Files = slices.Clone(c.Sources[i].Skills[j].Files)
		}
		if c.Sources[i].Skills == nil {
			c.Sources[i].Skills = []LockSkill{}
		}
	}
	if c.Sources == nil {
		c.Sources = []LockSource{}
	}
	for _, s := range c.Sources {
		// JSON would write U+FFFD in place of the bytes, and the lock
		// would name another file.
		if !utf8.ValidString(s.Ref) || s.Signer != nil && !utf8.ValidString(*s.Signer) {
			return nil, fmt.Errorf("lock: source %q: not UTF-8, which a lock file cannot hold", s.Ref)
		}
	}
	c.Sort()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Source returns the source with ref, or nil.
func (l *Lock) Source(ref string) *LockSource {
	for i := range l.Sources {
		if l.Sources[i].Ref == ref {
			return &l.Sources[i]
		}
	}
	return nil
}

// SourceError is an error about the source with ref, naming the lock file
// and the line of the source's ref: a source that no longer exists (rule
// lock-source-gone), or one that cannot be opened as the lock says.
func (l *Lock) SourceError(ref, rule string, err error) error {
	e := &LockError{Rule: rule, Msg: err.Error(), err: err}
	for i := range l.Sources {
		if l.Sources[i].Ref == ref && l.p != nil {
			le := l.p.fail(fmt.Sprintf("sources[%d].ref", i), 0, rule, err.Error()).(*LockError)
			le.err = err
			return le
		}
	}
	e.File = LockFile
	return e
}

// LockError is a lock file that breaks a rule.
type LockError struct {
	File   string // the lock file
	Line   int    // 1-based; 0 when the error is about the whole file
	Column int    // 1-based, in code points
	Field  string // JSON path of the value, such as sources[0].skills[2].tree
	Rule   string // lock-syntax, lock-digest, …
	Msg    string

	err error // the cause, for SourceError
}

func (e *LockError) Error() string {
	at := e.File
	if e.Line > 0 {
		at += ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column)
	}
	if e.Field != "" {
		at += ": " + e.Field
	}
	return fmt.Sprintf("%s: %s (rule %s)", at, e.Msg, e.Rule)
}

// ErrLock is wrapped by every LockError.
var ErrLock = errors.New("bad lock file")

// Unwrap makes errors.Is(err, ErrLock) hold, and errors.Is of the cause
// of a SourceError.
func (e *LockError) Unwrap() []error {
	if e.err != nil {
		return []error{ErrLock, e.err}
	}
	return []error{ErrLock}
}

// ParseLock reads a lock file's bytes; name is the file, for errors. It
// refuses anything Marshal would not write from what the file holds, except
// order and layout: sources, skills and files may come in any order and
// with any white space.
func ParseLock(name string, data []byte) (*Lock, error) {
	p := &lockParser{name: name, data: data}
	if len(data) > maxLockBytes {
		return nil, p.fail("", 0, "lock-size", fmt.Sprintf("%d bytes, more than %d", len(data), maxLockBytes))
	}
	if !utf8.Valid(data) {
		return nil, p.fail("", 0, "lock-syntax", "not UTF-8")
	}
	if err := p.scan(); err != nil {
		// Again, noting where each value is, for the message.
		p.record()
		if err := p.scan(); err != nil {
			return nil, err
		}
		return nil, err
	}
	var l Lock
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := te.Field
			return nil, p.fail(field, te.Offset, "lock-type", fmt.Sprintf("want a JSON %s, not %s", te.Type, te.Value))
		}
		// Unknown fields and bad digests are found by scan and check; what
		// is left is a value the types refuse.
		return nil, p.fail("", dec.InputOffset(), "lock-type", err.Error())
	}
	if err := p.check(&l); err != nil {
		return nil, err
	}
	l.p = p
	return &l, nil
}

type lockParser struct {
	name string
	data []byte
	// at maps JSON paths to the offset of their value; nil until an error
	// needs it (record), so that reading a valid lock builds no paths.
	at map[string]int64
}

// record makes the next scan note where each value is.
func (p *lockParser) record() { p.at = map[string]int64{} }

func (p *lockParser) fail(field string, off int64, rule, msg string) error {
	if p.at == nil && field != "" && off == 0 {
		p.record()
		p.scan()
	}
	e := &LockError{File: p.name, Field: field, Rule: rule, Msg: msg}
	if o, ok := p.at[field]; ok && off == 0 {
		off = o
	}
	if off > 0 || field == "" && len(p.data) > 0 {
		off = min(max(off, 0), int64(len(p.data)))
		before := p.data[:off]
		e.Line = bytes.Count(before, []byte("\n")) + 1
		e.Column = utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	}
	return e
}

// valueStart skips white space, ':' and ',' after off: the offset where the
// next value starts.
func (p *lockParser) valueStart(off int64) int64 {
	for off < int64(len(p.data)) {
		switch p.data[off] {
		case ' ', '\t', '\n', '\r', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

// The fields of each object of the format, for scan: each must be there,
// but for those of lockOptional.
var lockFields = lazy.Value[map[string][]string]{New: func() map[string][]string {
	return map[string][]string{
		"":        {"lockVersion", "sources"},
		"sources": {"ref", "kind", "resolved", "signer", "etag", "skills"},
		"skills":  {"path", "uri", "dest", "tree", "files"},
		"files":   {"path", "digest", "size"},
	}
}}

// lockOptional are the fields Marshal leaves out when empty.
var lockOptional = []string{"etag"}

// scan walks the tokens once: syntax, trailing data, unknown, missing and
// duplicate fields, and the offset of every value for later messages.
func (p *lockParser) scan() error {
	dec := json.NewDecoder(bytes.NewReader(p.data))
	dec.UseNumber()
	var walk func(path, key, kind string) error
	depth := 0
	syntax := func(err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return p.fail("", se.Offset, "lock-syntax", err.Error())
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return p.fail("", int64(len(p.data)), "lock-syntax", "unexpected end of the file")
		}
		return p.fail("", dec.InputOffset(), "lock-syntax", err.Error())
	}
	walk = func(path, key, kind string) error {
		start := p.valueStart(dec.InputOffset())
		if p.at != nil {
			p.at[path] = start
		}
		tok, err := dec.Token()
		if err != nil {
			return syntax(err)
		}
		d, ok := tok.(json.Delim)
		if ok {
			// The format nests seven deep; refusing more keeps a hostile
			// file from costing time quadratic in its length.
			if depth++; depth > 8 {
				return p.fail("", start, "lock-syntax", "nested deeper than the lock format")
			}
			defer func() { depth-- }()
		}
		if !ok {
			if s, isString := tok.(string); isString && (key == "resolved" || key == "tree" || key == "digest") {
				if _, err := manifest.ParseDigest(s); err != nil {
					return p.fail(path, start, "lock-digest", fmt.Sprintf("%q is not sha256:<64 lowercase hex>", short(s)))
				}
			}
			return nil
		}
		switch d {
		case '[':
			for i := 0; dec.More(); i++ {
				sub := ""
				if p.at != nil {
					sub = path + "[" + strconv.Itoa(i) + "]"
				}
				if err := walk(sub, key, kind); err != nil {
					return err
				}
			}
		case '{':
			fields, known := lockFields.Get()[kind]
			seen := map[string]bool{}
			for dec.More() {
				koff := p.valueStart(dec.InputOffset())
				kt, err := dec.Token()
				if err != nil {
					return syntax(err)
				}
				key, _ := kt.(string)
				sub := ""
				switch {
				case p.at == nil:
				case path == "":
					sub = key
				default:
					sub = path + "." + key
				}
				if seen[key] {
					return p.fail("", koff, "lock-duplicate-field", fmt.Sprintf("field %q twice in one object", key))
				}
				seen[key] = true
				if known && !slices.Contains(fields, key) {
					return p.fail("", koff, "lock-unknown-field", fmt.Sprintf("unknown field %q (want %s)", key, strings.Join(fields, ", ")))
				}
				sk := kind
				if key == "sources" || key == "skills" || key == "files" {
					sk = key
				} else {
					sk = "-" // a scalar: any object in it is caught by the decoder
				}
				if err := walk(sub, key, sk); err != nil {
					return err
				}
			}
			if known {
				for _, f := range fields {
					if !seen[f] && !slices.Contains(lockOptional, f) {
						return p.fail("", start, "lock-missing-field", fmt.Sprintf("no field %q", f))
					}
				}
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return syntax(err)
		}
		return nil
	}
	if err := walk("", "", ""); err != nil {
		return err
	}
	rest := p.valueStart(dec.InputOffset())
	if rest < int64(len(p.data)) {
		return p.fail("", rest, "lock-trailing", "data after the lock's JSON value")
	}
	return nil
}

// check applies the rules the types cannot express.
func (p *lockParser) check(l *Lock) error {
	if l.Version != LockVersion {
		return p.fail("lockVersion", 0, "lock-version", fmt.Sprintf("lock version %d, this pull reads %d", l.Version, LockVersion))
	}
	refs := map[string]bool{}
	dests := map[string]string{}
	for i := range l.Sources {
		s := &l.Sources[i]
		at := fmt.Sprintf("sources[%d]", i)
		if s.Ref == "" || strings.ContainsFunc(s.Ref, isControl) {
			return p.fail(at+".ref", 0, "lock-ref", "empty, or holds a control character")
		}
		if refs[s.Ref] {
			return p.fail(at+".ref", 0, "lock-duplicate-source", fmt.Sprintf("source %q twice", s.Ref))
		}
		refs[s.Ref] = true
		if !slices.Contains(lockKinds, s.Kind) {
			return p.fail(at+".kind", 0, "lock-kind", fmt.Sprintf("kind %q, want one of %s", s.Kind, strings.Join(lockKinds, ", ")))
		}
		if s.Signer != nil && (*s.Signer == "" || strings.ContainsFunc(*s.Signer, isControl)) {
			return p.fail(at+".signer", 0, "lock-signer", "empty (use null for none), or holds a control character")
		}
		if s.ETag != "" && (s.Kind != KindHTTPS || !StrongETag(s.ETag)) {
			return p.fail(at+".etag", 0, "lock-etag", fmt.Sprintf("%q is not a strong entity tag of an https source (\"…\" of visible ASCII)", short(s.ETag)))
		}
		paths := map[string]bool{}
		for j := range s.Skills {
			sk := &s.Skills[j]
			sat := fmt.Sprintf("%s.skills[%d]", at, j)
			if err := manifest.CheckPath(sk.Path); err != nil {
				return p.fail(sat+".path", 0, "lock-path", err.Error())
			}
			if paths[sk.Path] {
				return p.fail(sat+".path", 0, "lock-duplicate-skill", fmt.Sprintf("skill %s twice in one source", sk.Path))
			}
			paths[sk.Path] = true
			if got, err := skillPath(sk.URI); err != nil || got != sk.Path {
				return p.fail(sat+".uri", 0, "lock-uri", fmt.Sprintf("%q is not the SKILL.md URI of %s", sk.URI, sk.Path))
			}
			if err := manifest.CheckPath(sk.Dest); err != nil {
				return p.fail(sat+".dest", 0, "lock-path", err.Error())
			}
			if sk.Dest == LockFile || strings.HasPrefix(sk.Dest, litterPrefix) || strings.HasPrefix(sk.Dest, lockNext) {
				return p.fail(sat+".dest", 0, "lock-path", fmt.Sprintf("%q is a name of pull's own", sk.Dest))
			}
			if o, ok := dests[sk.Dest]; ok {
				return p.fail(sat+".dest", 0, "lock-duplicate-dest", fmt.Sprintf("destination %s is also %s's", sk.Dest, o))
			}
			dests[sk.Dest] = sk.Path
			var set manifest.PathSet
			hasSkill := false
			for k, f := range sk.Files {
				fat := fmt.Sprintf("%s.files[%d]", sat, k)
				if err := manifest.CheckPath(f.Path); err != nil {
					return p.fail(fat+".path", 0, "lock-path", err.Error())
				}
				if err := set.Add(f.Path, false); err != nil {
					return p.fail(fat+".path", 0, "lock-duplicate-file", err.Error())
				}
				if f.Size < 0 {
					return p.fail(fat+".size", 0, "lock-size", "negative size")
				}
				hasSkill = hasSkill || f.Path == manifest.SkillFile
			}
			if !hasSkill {
				return p.fail(sat+".files", 0, "lock-skill-file", "no "+manifest.SkillFile)
			}
			if TreeDigest(sk.Files) != sk.Tree {
				return p.fail(sat+".tree", 0, "lock-tree", "does not match the files: the lock was edited")
			}
		}
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// StrongETag reports whether s is a strong entity tag (RFC 9110 section
// 8.8.3) of visible ASCII: the only validator a lock records, since a weak
// one promises equivalence, not the same bytes. Download records and
// ParseLock accepts exactly these.
func StrongETag(s string) bool {
	if len(s) < 2 || len(s) > 256 || s[0] != '"' || s[len(s)-1] != '"' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; c < 0x21 || c == '"' || c > 0x7e {
			return false
		}
	}
	return true
}

// lockNext is the lock of a pull in progress, beside LockFile (see
// lockstate.go).
const lockNext = ".skills-mcp-lock-next.json"

// short makes an untrusted string safe to quote in a message.
func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
