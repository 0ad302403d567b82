package pull

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// Comparing a lock with its sources, for `pull --check` (report) and
// `pull --frozen` (refuse any difference).

// Statuses of a locked skill.
const (
	StatusUpToDate = "up to date"       // the source offers exactly the locked files, and the folder holds them
	StatusUpdate   = "update available" // the source offers other files for the skill
	StatusRemoved  = "removed upstream" // the source no longer offers the skill
	StatusModified = "modified locally" // the folder's files are not the locked ones
)

// LockedSource returns the lock entry of src as given by ref (see
// LockSource.Ref) with kind, without skills: the digest the source resolved
// to and the signer that was trusted. For an oci:// source, the caller sets
// Resolved to the artifact's digest. For a live server Resolved is filled in
// when the skills are known (the digest of the locked listing).
func LockedSource(src *Source, ref, kind string) (LockSource, error) {
	ls := LockSource{Ref: ref, Kind: kind}
	if !utf8.ValidString(ref) {
		return ls, fmt.Errorf("lock: source %q: not UTF-8, which a lock file cannot hold", ref)
	}
	if src.Signed {
		s := src.SignedBy
		ls.Signer = &s
	}
	switch kind {
	case KindBundle, KindExport, KindOCI:
		d, err := manifest.ParseDigest(src.ID)
		if err != nil {
			return ls, fmt.Errorf("%s: bundle id: %w", src.Name, err)
		}
		ls.Resolved = d
	case KindHTTPS:
		tb, ok := src.back.(tempBundle)
		if !ok {
			return ls, fmt.Errorf("%s: not a downloaded bundle", src.Name)
		}
		d, err := fileSum(tb.path)
		if err != nil {
			return ls, err
		}
		ls.Resolved, ls.ETag = d, tb.etag
	case KindIndex:
		ls.Resolved = src.index
	case KindServer, KindCommand:
	default:
		return ls, fmt.Errorf("lock: unknown source kind %q", kind)
	}
	return ls, nil
}

// fileSum returns the sha256 of the file at p.
func fileSum(p string) (manifest.Digest, error) {
	f, err := os.Open(p)
	if err != nil {
		return manifest.Digest{}, err
	}
	defer f.Close()
	h := manifest.NewHash()
	buf := hashBuffers.Get().(*[]byte)
	defer hashBuffers.Put(buf)
	if _, err := io.CopyBuffer(h, struct{ io.Reader }{f}, *buf); err != nil {
		return manifest.Digest{}, fmt.Errorf("hash %s: %w", p, err)
	}
	return manifest.DigestOf(h), nil
}

// listingDigest is the resolved digest of a live server's locked skills:
// of one line "<tree hex> <path>\n" per skill, in path order.
func listingDigest(skills []LockSkill) manifest.Digest {
	lines := make([]string, 0, len(skills))
	for _, s := range skills {
		lines = append(lines, s.Tree.Hex()+" "+s.Path+"\n")
	}
	slices.Sort(lines)
	return manifest.Sum([]byte(strings.Join(lines, "")))
}

// Upstream is how a source offers a locked skill now.
type Upstream struct {
	Entry  *LockSkill
	Skill  *Skill   // what the source offers under the entry's path; nil if removed
	Status string   // StatusUpToDate, StatusUpdate or StatusRemoved
	Detail string   // for an update: what changed
	Files  []string // for an update: the files added, removed or changed
}

// Compare tells, for each skill of ls, how src offers it now. A live
// server is asked with skills/get for a skill it does not list (hidden).
func Compare(ctx context.Context, src *Source, ls *LockSource) ([]Upstream, error) {
	out := make([]Upstream, 0, len(ls.Skills))
	for i := range ls.Skills {
		e := &ls.Skills[i]
		sk, err := src.exact(ctx, e)
		if err != nil {
			return nil, err
		}
		u := Upstream{Entry: e, Skill: sk, Status: StatusUpToDate}
		if sk == nil {
			u.Status = StatusRemoved
			out = append(out, u)
			continue
		}
		now := lockSkillOf(sk, e.Dest)
		if now.Tree != e.Tree {
			u.Status = StatusUpdate
			u.Files, u.Detail = fileChanges(e.Files, now.Files)
		}
		out = append(out, u)
	}
	return out, nil
}

// exact returns the skill src offers at e's path, or nil.
func (s *Source) exact(ctx context.Context, e *LockSkill) (*Skill, error) {
	for _, sk := range s.Skills {
		if sk.Path == e.Path {
			return sk, nil
		}
	}
	if s.back == nil {
		return nil, nil
	}
	sk, err := s.back.get(ctx, manifest.SkillURI(e.Path))
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if sk.Path != e.Path {
		return nil, nil
	}
	s.Skills = append(s.Skills, sk)
	return sk, nil
}

// fileChanges lists the files that differ between two versions of a skill.
func fileChanges(old, now []LockedFile) ([]string, string) {
	was := map[string]LockedFile{}
	for _, f := range old {
		was[f.Path] = f
	}
	var files []string
	var added, changed, removed int
	for _, f := range now {
		w, ok := was[f.Path]
		switch {
		case !ok:
			added++
			files = append(files, "+"+f.Path)
		case w != f:
			changed++
			files = append(files, "~"+f.Path)
		}
		delete(was, f.Path)
	}
	for p := range was {
		removed++
		files = append(files, "-"+p)
	}
	slices.SortFunc(files, func(a, b string) int { return strings.Compare(a[1:], b[1:]) })
	return files, fmt.Sprintf("%d file(s) changed, %d added, %d removed", changed, added, removed)
}

// ErrDrift is wrapped by Frozen's error: the source no longer offers what
// the lock names.
var ErrDrift = errors.New("drift from the lock")

// Frozen checks that src offers exactly what ls names, the resolved digest
// (except for a live server, whose digest is of the skills alone) and the
// signer included, and returns the skills to pull and their folders. Any
// difference is an error wrapping ErrDrift that names it.
func Frozen(ctx context.Context, src *Source, ls *LockSource, now LockSource) ([]*Skill, map[string]string, error) {
	if ls.Kind != KindServer && ls.Kind != KindCommand && now.Resolved != ls.Resolved {
		what := map[string]string{KindOCI: "the tag moved", KindHTTPS: "the file changed", KindIndex: "the index changed"}[ls.Kind]
		if what == "" {
			what = "the bundle changed"
		}
		return nil, nil, fmt.Errorf("%s: %w: %s: the lock has %s, the source now %s", ls.Ref, ErrDrift, what, ls.Resolved, now.Resolved)
	}
	if (ls.Signer == nil) != (now.Signer == nil) || ls.Signer != nil && *ls.Signer != *now.Signer {
		return nil, nil, fmt.Errorf("%s: %w: the lock has signer %s, this pull %s (give --trust with the key the lock names)", ls.Ref, ErrDrift, signerName(ls.Signer), signerName(now.Signer))
	}
	ups, err := Compare(ctx, src, ls)
	if err != nil {
		return nil, nil, err
	}
	var skills []*Skill
	dests := map[string]string{}
	for _, u := range ups {
		switch u.Status {
		case StatusRemoved:
			return nil, nil, fmt.Errorf("%s: %w: skill %s is gone upstream", ls.Ref, ErrDrift, u.Entry.Path)
		case StatusUpdate:
			return nil, nil, fmt.Errorf("%s: %w: skill %s changed upstream (%s: %s)", ls.Ref, ErrDrift, u.Entry.Path, u.Detail, strings.Join(u.Files, " "))
		}
		skills = append(skills, u.Skill)
		dests[u.Skill.Path] = u.Entry.Dest
	}
	return skills, dests, nil
}

func signerName(s *string) string {
	if s == nil {
		return "none"
	}
	return *s
}

// IndexDigest reads only the index of a discovery site (one request, or two
// for a bare https://HOST whose v0.2.0 index is missing) and returns its
// digest: what a site source of the lock resolved to. `pull --check` reads
// nothing more while it equals the locked one.
func IndexDigest(ctx context.Context, rawURL string, opt IndexOptions) (manifest.Digest, error) {
	c := wellknown.NewClient(ctx, wellknown.ClientOptions{HTTP: opt.Client, MaxBytes: opt.MaxBytes,
		Limits: wellknown.Limits{Files: maxFiles, Bytes: maxBytes}, AllowUnverified: opt.AllowUnverified})
	_, data, _, err := c.Index(rawURL)
	if err != nil {
		return manifest.Digest{}, err
	}
	return manifest.Sum(data), nil
}
