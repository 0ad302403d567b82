package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// MediaType identifies version 1 of the manifest format.
const MediaType = "application/vnd.skills-mcp.manifest.v1+json"

// Generator is the value of Manifest.Generator written by this package's users.
const Generator = "skills-mcp"

// The extension's identifiers.
const (
	ExtensionName  = "io.modelcontextprotocol/skills"
	MetaPrefix     = "io.modelcontextprotocol.skills/"
	SkillFile      = "SKILL.md"
	URIScheme      = "skill://"
	DirectoryMIME  = "inode/directory"
	SkillFileMIME  = "text/markdown"
	LibraryKindDir = "directory"
)

// Manifest is the signed root of a bundle: every library's public description,
// every published skill with the digest and size of each of its files, and the
// skills that were withheld with the reason. It never holds a local path.
//
// Its byte form (see Marshal) is canonical: one manifest has exactly one
// encoding, and Parse accepts nothing else.
type Manifest struct {
	MediaType string     `json:"mediaType"`
	Generator string     `json:"generator,omitempty"`
	Created   string     `json:"created,omitempty"` // RFC 3339 UTC, from SOURCE_DATE_EPOCH only
	Libraries []Library  `json:"libraries"`
	Withheld  []Withheld `json:"withheld,omitempty"`
	Warnings  []string   `json:"warnings,omitempty"` // skipped files and other notes; never a local path
	Skills    []Skill    `json:"skills"`             // sorted by Entry.URI, bytewise, no duplicates
}

// Library is the public description of one library: what it is, never where.
type Library struct {
	Namespace string            `json:"namespace"` // "" for an un-namespaced root
	Kind      string            `json:"kind"`      // "directory", "archive" or "url"
	Title     string            `json:"title,omitempty"`
	Source    string            `json:"source,omitempty"`
	Version   string            `json:"version,omitempty"`
	Metadata  map[string]string `json:"metadata,omitempty"`
	Digest    *Digest           `json:"digest,omitempty"` // sha256 of the archive, for archive and url kinds
	NoScripts bool              `json:"noScripts,omitempty"`
	// Deny are the capabilities the library's skills were not allowed to
	// show (a skill that did was withheld), as CheckCapabilities orders
	// them.
	Deny   []string `json:"deny,omitempty"`
	Skills int      `json:"skills"`
	Hidden int      `json:"hidden"`
}

// Withheld records a skill that was found but not published, with every rule
// it broke.
type Withheld struct {
	Library string   `json:"library"`
	Path    string   `json:"path"` // skill path below the library, slash-separated
	Rules   []string `json:"rules"`
	Reason  string   `json:"reason"`
}

// Skill is one published skill: its SEP-2640 entry, exactly as it goes on the
// wire, plus what a server needs to describe it.
type Skill struct {
	Entry    Entry     `json:"skill"`
	Library  string    `json:"library"`
	Path     string    `json:"path"` // skill path: namespace, then folders, slash-separated
	Hidden   bool      `json:"hidden,omitempty"`
	Files    []File    `json:"files"` // parallel to Entry.Resources
	Findings []Finding `json:"findings,omitempty"`
	// Capabilities are what the analysis saw the skill do (network,
	// exec-remote, …; the analyser's vocabulary): lowercase words of
	// letters, digits and hyphens, sorted bytewise, without duplicates
	// (CheckCapabilities). Bundles written before the field have none.
	Capabilities    []string       `json:"capabilities,omitempty"`
	ScriptsWithheld int            `json:"scriptsWithheld,omitempty"`
	Provenance      map[string]any `json:"provenance,omitempty"`
}

// Entry is the SEP-2640 Skill entry: uri, verbatim frontmatter, and every file
// with its digest and size, SKILL.md first.
type Entry struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Resources   []Resource      `json:"resources"`
}

// Resource is one file of a skill as SEP-2640 lists it.
type Resource struct {
	URI    string `json:"uri"`
	Digest Digest `json:"digest"`
	Size   int64  `json:"size"`
}

// File is what a server needs to serve one resource, beyond its digest.
type File struct {
	Path     string `json:"path"` // relative to the skill folder, slash-separated
	MimeType string `json:"mimeType"`
	Text     bool   `json:"text,omitempty"`   // valid UTF-8 without NUL: served as text, else as a blob
	Script   bool   `json:"script,omitempty"` // has an executable extension
}

// Finding is one lint finding: a rule that matched a line of a file.
type Finding struct {
	Rule     string `json:"rule"`
	File     string `json:"file"` // relative to the skill folder
	Line     int    `json:"line"`
	Column   int    `json:"column,omitempty"` // 1-based, in Unicode code points; 0 when unknown (older bundles)
	Severity string `json:"severity"`         // "error", "warning", or "note" for lower-confidence matches
	Excerpt  string `json:"excerpt"`
	// Waived holds the operator's reason when a waiver of the
	// configuration file covers the finding: it is still listed, but does
	// not count towards --fail-on.
	Waived string `json:"waived,omitempty"`
}

// Name returns the skill's frontmatter name: the last segment of its path.
func (s *Skill) Name() string {
	if i := strings.LastIndexByte(s.Path, '/'); i >= 0 {
		return s.Path[i+1:]
	}
	return s.Path
}

// isSkillURI reports whether uri is SkillURI(skillPath), without building it.
func isSkillURI(uri, skillPath string) bool {
	rest, ok := strings.CutPrefix(uri, URIScheme)
	if !ok {
		return false
	}
	rest, ok = strings.CutSuffix(rest, "/"+SkillFile)
	return ok && rest == EscapePath(skillPath)
}

// Root returns the URI of the skill's folder: its URI without "/SKILL.md".
func (e *Entry) Root() string { return strings.TrimSuffix(e.URI, "/"+SkillFile) }

// SkillURI returns the URI of the SKILL.md of the skill at skillPath (its
// namespace and folders, slash-separated): each segment percent-encoded.
func SkillURI(skillPath string) string {
	return URIScheme + EscapePath(skillPath) + "/" + SkillFile
}

// EscapePath percent-encodes each segment of a slash-separated path, as
// skill URIs write it.
func EscapePath(p string) string {
	plain := true
	for seg := range strings.SplitSeq(p, "/") {
		if url.PathEscape(seg) != seg { // PathEscape returns seg itself when it has nothing to escape
			plain = false
			break
		}
	}
	if plain {
		return p
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// Marshal returns the canonical encoding of m: compact JSON with fields in
// struct order, map keys sorted, no HTML escaping, each skill on a line of its
// own, and a final newline. The bytes of each skill's SEP-2640 entry appear
// unchanged inside it, so a server can send them as they are.
func Marshal(m *Manifest) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	head := *m
	head.Skills = nil
	if err := enc.Encode(&head); err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	// head ends in `"skills":null}\n`; replace the tail with one skill a line.
	b := buf.Bytes()
	const tail = `"skills":null}` + "\n"
	if !bytes.HasSuffix(b, []byte(tail)) {
		return nil, errors.New("encode manifest: unexpected layout")
	}
	out := bytes.NewBuffer(make([]byte, 0, len(b)+256*len(m.Skills)))
	out.Write(b[:len(b)-len(tail)])
	out.WriteString(`"skills":[`)
	for i := range m.Skills {
		out.WriteByte('\n')
		buf.Reset()
		if err := enc.Encode(&m.Skills[i]); err != nil {
			return nil, fmt.Errorf("encode skill %s: %w", m.Skills[i].Entry.URI, err)
		}
		out.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		if i < len(m.Skills)-1 {
			out.WriteByte(',')
		}
	}
	if len(m.Skills) > 0 {
		out.WriteByte('\n')
	}
	out.WriteString("]}\n")
	return out.Bytes(), nil
}

// Parse decodes a manifest and checks that b is its canonical encoding and
// that it keeps the format's rules (see Check).
func Parse(b []byte) (*Manifest, error) {
	if !utf8.Valid(b) {
		// Decoding would turn each bad byte into U+FFFD, which is not b.
		return nil, fmt.Errorf("parse manifest: not valid UTF-8 at byte %d", invalidAt(b))
	}
	m := new(Manifest)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(m); err != nil {
		return nil, fmt.Errorf("parse manifest: %w", err)
	}
	if dec.More() {
		return nil, errors.New("parse manifest: trailing data")
	}
	if err := Check(m); err != nil {
		return nil, err
	}
	canon, err := Marshal(m)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(canon, b) {
		return nil, errors.New("parse manifest: not in canonical form")
	}
	return m, nil
}

// Check reports the first way m breaks the format's rules: every string
// valid UTF-8, media type, sorted unique skill URIs, SKILL.md as each
// skill's first resource, files parallel to resources, every skill and file
// path keeping the path rule (CheckPath, PathSet) and its URI derived from
// it, and the SEP-2640 limits. Writer.Finish and Parse both call it, so a
// manifest that breaks a rule is never written and never read.
func Check(m *Manifest) error {
	if err := checkText(m); err != nil {
		return err
	}
	if m.MediaType != MediaType {
		return fmt.Errorf("manifest: media type %q, want %q", m.MediaType, MediaType)
	}
	for _, l := range m.Libraries {
		if err := CheckCapabilities(l.Deny); err != nil {
			return fmt.Errorf("manifest: library %q: deny: %w", l.Namespace, err)
		}
	}
	var paths PathSet // one skill's files; reused
	for i := range m.Skills {
		s := &m.Skills[i]
		e := &s.Entry
		if err := CheckPath(s.Path); err != nil {
			return fmt.Errorf("manifest: skill %q: path %s: %w", e.URI, QuoteName(s.Path), err)
		}
		if !isSkillURI(e.URI, s.Path) {
			return fmt.Errorf("manifest: skill %q: uri is not the one of its path %s", e.URI, QuoteName(s.Path))
		}
		if !strings.HasPrefix(e.URI, URIScheme) || !strings.HasSuffix(e.URI, "/"+SkillFile) {
			return fmt.Errorf("manifest: skill %q: uri must be skill://<path>/SKILL.md", e.URI)
		}
		if strings.ContainsAny(e.URI, "\"\\") {
			return fmt.Errorf("manifest: skill %q: uri holds a quote or backslash", e.URI)
		}
		if i > 0 && m.Skills[i-1].Entry.URI >= e.URI {
			return fmt.Errorf("manifest: skill %q: skills not sorted by uri or duplicated", e.URI)
		}
		if len(e.Frontmatter) == 0 || e.Frontmatter[0] != '{' {
			return fmt.Errorf("manifest: skill %q: frontmatter is not an object", e.URI)
		}
		if len(e.Resources) == 0 || e.Resources[0].URI != e.URI {
			return fmt.Errorf("manifest: skill %q: first resource must be its SKILL.md", e.URI)
		}
		if err := CheckSkillLimits(len(e.Resources), 0); err != nil {
			return fmt.Errorf("manifest: skill %q: %w", e.URI, err)
		}
		if len(s.Files) != len(e.Resources) {
			return fmt.Errorf("manifest: skill %q: %d files for %d resources", e.URI, len(s.Files), len(e.Resources))
		}
		var total int64
		paths.reset()
		root := e.Root() + "/"
		for j, r := range e.Resources {
			if r.Size < 0 {
				return fmt.Errorf("manifest: resource %q: negative size", r.URI)
			}
			p := s.Files[j].Path
			if err := CheckPath(p); err != nil {
				return fmt.Errorf("manifest: skill %q: file %s: %w", e.URI, QuoteName(p), err)
			}
			if err := paths.Add(p, false); err != nil {
				return fmt.Errorf("manifest: skill %q: %w", e.URI, err)
			}
			if rest, ok := strings.CutPrefix(r.URI, root); !ok || rest != EscapePath(p) {
				return fmt.Errorf("manifest: resource %q: not the uri of file %s of skill %q", r.URI, QuoteName(p), e.URI)
			}
			if (j == 0) != (s.Files[j].Path == SkillFile) || j > 1 && s.Files[j].Path <= s.Files[j-1].Path {
				return fmt.Errorf("manifest: resource %q: files must be SKILL.md, then the rest sorted bytewise", r.URI)
			}
			total += r.Size
		}
		if err := CheckSkillLimits(len(e.Resources), total); err != nil {
			return fmt.Errorf("manifest: skill %q: %w", e.URI, err)
		}
		if err := CheckCapabilities(s.Capabilities); err != nil {
			return fmt.Errorf("manifest: skill %q: %w", e.URI, err)
		}
	}
	return nil
}

// checkText reports the first string of m that is not valid UTF-8. JSON
// cannot carry such a string: the encoder writes U+FFFD in its place, so
// the bytes written would not be the manifest's, and no reader would accept
// them as canonical.
func checkText(m *Manifest) error {
	bad := func(what, s string) error {
		if utf8.ValidString(s) {
			return nil
		}
		return fmt.Errorf("manifest: %s %q is not valid UTF-8", what, s)
	}
	first := func(errs ...error) error {
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := first(bad("media type", m.MediaType), bad("generator", m.Generator), bad("created", m.Created)); err != nil {
		return err
	}
	for i := range m.Libraries {
		l := &m.Libraries[i]
		if err := first(bad("library namespace", l.Namespace), bad("library kind", l.Kind), bad("library title", l.Title),
			bad("library source", l.Source), bad("library version", l.Version)); err != nil {
			return err
		}
		for k, v := range l.Metadata {
			if err := first(bad("library metadata key", k), bad("library metadata value", v)); err != nil {
				return err
			}
		}
	}
	for _, w := range m.Withheld {
		if err := first(bad("withheld library", w.Library), bad("withheld path", w.Path), bad("withheld reason", w.Reason)); err != nil {
			return err
		}
		for _, r := range w.Rules {
			if err := bad("withheld rule", r); err != nil {
				return err
			}
		}
	}
	for _, w := range m.Warnings {
		if err := bad("warning", w); err != nil {
			return err
		}
	}
	for i := range m.Skills {
		s := &m.Skills[i]
		if err := first(bad("skill uri", s.Entry.URI), bad("skill library", s.Library), bad("skill path", s.Path)); err != nil {
			return err
		}
		if !utf8.Valid(s.Entry.Frontmatter) {
			return fmt.Errorf("manifest: skill %q: frontmatter is not valid UTF-8", s.Entry.URI)
		}
		for _, r := range s.Entry.Resources {
			if err := bad("resource uri", r.URI); err != nil {
				return err
			}
		}
		for _, f := range s.Files {
			if err := first(bad("file path", f.Path), bad("file mime type", f.MimeType)); err != nil {
				return err
			}
		}
		for _, f := range s.Findings {
			if err := first(bad("finding rule", f.Rule), bad("finding file", f.File), bad("finding severity", f.Severity),
				bad("finding excerpt", f.Excerpt)); err != nil {
				return err
			}
		}
		if err := checkValue("skill provenance", s.Provenance); err != nil {
			return err
		}
	}
	return nil
}

// checkValue reports the first string in v, a decoded JSON value, that is
// not valid UTF-8.
func checkValue(what string, v any) error {
	switch v := v.(type) {
	case string:
		if !utf8.ValidString(v) {
			return fmt.Errorf("manifest: %s %q is not valid UTF-8", what, v)
		}
	case []any:
		for _, e := range v {
			if err := checkValue(what, e); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, e := range v {
			if err := checkValue(what, k); err != nil {
				return err
			}
			if err := checkValue(what, e); err != nil {
				return err
			}
		}
	}
	return nil
}

// invalidAt returns the offset of the first byte of b that does not start a
// valid UTF-8 sequence.
func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}
