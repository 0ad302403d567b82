package manifest

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The path rule: what a skill path or a file path inside a skill may be.
// Every writer and every reader of skill paths calls these functions: build
// when it reads a folder or an archive, Check when a manifest is written or
// parsed, and pull before it creates anything on disk. So build never
// publishes a path that pull refuses.

// MaxSegmentBytes is the longest path segment allowed: the longest file name
// common file systems store.
const MaxSegmentBytes = 255

// Kinds of path errors, wrapped by the errors CheckSegment and CheckPath
// return.
var (
	// ErrPathEscape marks a path that could reach outside the folder it is
	// joined to: a ".." segment, a backslash or a drive letter.
	ErrPathEscape = errors.New("path could escape its folder")
	// ErrPathName marks a segment that is no portable file name: empty (an
	// absolute path or a double slash), ".", not valid UTF-8, holding a
	// control character, or longer than MaxSegmentBytes.
	ErrPathName = errors.New("not a portable file name")
)

// segmentError is one broken rule; it unwraps to its kind.
type segmentError struct {
	kind error
	msg  string
}

func (e *segmentError) Error() string { return e.msg }
func (e *segmentError) Unwrap() error { return e.kind }

// CheckSegment reports why s cannot be one segment of a skill or file path,
// or nil. The error does not repeat s, so callers put the name in front
// of it ("segment x is not valid UTF-8"). It refuses an
// empty segment, "." and "..", a slash or backslash, a drive letter ("C:…",
// which Windows reads as a path on another drive), a segment that is not
// valid UTF-8, holds a control character, or is longer than MaxSegmentBytes.
func CheckSegment(s string) error {
	switch {
	case s == "":
		return &segmentError{ErrPathName, "is empty (an absolute path or a double slash)"}
	case s == "..":
		return &segmentError{ErrPathEscape, "is a parent-folder reference"}
	case strings.ContainsAny(s, `/\`):
		return &segmentError{ErrPathEscape, "holds a slash or backslash"}
	case len(s) >= 2 && s[1] == ':' && 'a' <= s[0]|0x20 && s[0]|0x20 <= 'z':
		return &segmentError{ErrPathEscape, "starts with a drive letter"}
	case s == ".":
		return &segmentError{ErrPathName, "is a current-folder reference"}
	case !utf8.ValidString(s):
		return &segmentError{ErrPathName, "is not valid UTF-8"}
	case len(s) > MaxSegmentBytes:
		return &segmentError{ErrPathName, fmt.Sprintf("is %d bytes, longer than %d", len(s), MaxSegmentBytes)}
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return &segmentError{ErrPathName, fmt.Sprintf("holds the control character %U", r)}
		}
	}
	return nil
}

// CheckPath checks a slash-separated relative path segment by segment; the
// error names the first segment that breaks the rule (see CheckSegment).
func CheckPath(p string) error {
	for seg := range strings.SplitSeq(p, "/") {
		if err := CheckSegment(seg); err != nil {
			return fmt.Errorf("segment %s %w", QuoteName(seg), err)
		}
	}
	return nil
}

// FoldPath maps every rune of p to the smallest rune of its Unicode simple
// case-folding orbit, so that two paths that differ only in case (as a
// case-insensitive file system sees them) map to one key.
func FoldPath(p string) string {
	var b strings.Builder
	b.Grow(len(p))
	for _, r := range p {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}

// PathSet finds the paths of one tree that cannot all be created on a
// case-insensitive file system, or on any: two files equal under case
// folding, and a file equal to a folder (another path's parent) under case
// folding, the exact same name included. The zero value is empty.
type PathSet struct {
	m map[string]pathEntry // by FoldPath
}

type pathEntry struct {
	path string
	dir  bool
}

// CollisionError is a path PathSet.Add refused, and the path it clashes with.
type CollisionError struct {
	Path, Other string
	Same        bool // the same path, not only the same under case folding
	Dir         bool // one of the two is a folder
}

func (e *CollisionError) Error() string {
	switch {
	case e.Same && e.Dir:
		return fmt.Sprintf("%s is both a file and a folder", QuoteName(e.Path))
	case e.Same:
		return fmt.Sprintf("%s is listed twice", QuoteName(e.Path))
	}
	return fmt.Sprintf("%s is the same as %s except for case", QuoteName(e.Path), QuoteName(e.Other))
}

// reset empties s, keeping its memory.
func (s *PathSet) reset() { clear(s.m) }

// Add records p, a slash-separated path of a file (dir false) or of a
// folder, and every folder above it. It returns a *CollisionError when p or
// one of its folders clashes with what was added before; an exact folder
// added twice is no clash, an exact file added twice is.
func (s *PathSet) Add(p string, dir bool) error {
	if s.m == nil {
		s.m = map[string]pathEntry{}
	}
	for i := len(p); i > 0; i = strings.LastIndexByte(p[:i], '/') {
		q, isDir := p[:i], dir || i < len(p)
		k := FoldPath(q)
		prev, ok := s.m[k]
		switch {
		case !ok:
			s.m[k] = pathEntry{q, isDir}
			continue
		case prev.path != q:
			return &CollisionError{Path: q, Other: prev.path, Dir: prev.dir || isDir}
		case !prev.dir || !isDir:
			return &CollisionError{Path: q, Other: prev.path, Same: true, Dir: prev.dir || isDir}
		}
		break // q's parents were added with it
	}
	return nil
}

// QuoteName renders a file name or path for a message: as it is when it is
// plain (valid UTF-8, printable, without quotes or backslashes), else quoted
// with Go escapes, as strconv.Quote does. The result is always valid UTF-8
// and names the file unambiguously: a plain name never starts with a quote.
func QuoteName(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if r == utf8.RuneError || r == '"' || r == '\\' || !unicode.IsPrint(r) {
			return fmt.Sprintf("%q", s)
		}
	}
	return s
}
