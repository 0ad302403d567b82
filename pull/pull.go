// Package pull copies skills to disk from a bundle file, a bundle over
// https, a folder written by export, or any live SEP-2640 server, verifying
// every byte.
//
// # Invariants
//
//   - Every file is checked against the size and sha256 digest its skill
//     entry lists while it streams into the skill's staged folder; nothing
//     unverified is ever renamed into place.
//   - A live server cannot hang a pull or fill its memory: every request
//     has a timeout, the listing a page limit, and every message is counted
//     against its budget as it arrives (see wire.go).
//   - A skill is written whole or not at all: a failure leaves its folder as
//     it was, and a run killed at any point leaves each skill folder either
//     as it was or wholly new; the next run removes what a killed one left
//     (see the comment on writing in write.go for how).
//   - Paths from a source are untrusted. A skill or file path with an empty,
//     "." or ".." segment, a backslash, an encoded slash, a NUL or other
//     control character, or a drive letter is refused, and so is a symlink
//     anywhere in the destination. Every write goes through an os.Root.
//   - With trusted keys, a bundle's or export's manifest signature is
//     checked when the source is opened, before any file is read or written.
//     A live server's digests are unsigned (SEP-2640), and Source.Signed
//     says so.
//   - A file whose local copy already has the listed digest is neither read
//     from the source nor written: re-pulling an unchanged skill writes
//     nothing.
//   - With Options.Lock, the lock file of the destination (LockFile) names
//     each folder's files as they are, also after a run killed at any point
//     (see lockstate.go); a folder it names whose files changed since is a
//     local edit, never overwritten without Force. The lock is canonical:
//     identical pulls write identical bytes, and an unchanged one none.
//   - Credentials for a live server (ConnectOptions.Header, the token of an
//     OAuth sign-in) appear in no error, log or file; a sign-in's token
//     lives in memory for its connection only, and a sign-in happens at
//     most once per connection, only when asked for (see oauth.go).
//
// This package uses manifest and the MCP SDK, never build or serve.
package pull

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Options configure Pull.
type Options struct {
	To       string // destination folder, created if missing; "." if empty
	KeepPath bool   // write each skill to To/<skill path> rather than To/<name>
	Force    bool   // overwrite files of an existing folder that differ (extra files are kept)
	Sync     bool   // update an existing folder in place: fetch what differs, delete what the skill no longer lists
	DryRun   bool   // read and verify everything, write nothing

	// Lock, if set, makes Pull keep the lock file of To (LockFile, see
	// lock.go and lockstate.go): the source as locked (Ref, Kind, Resolved,
	// Signer; Skills is ignored). A folder the lock names whose files no
	// longer match its entry (a local edit) is then never overwritten
	// without Force. A dry run reads and writes no lock.
	Lock *LockSource
	// Dests, if set, maps skill paths to their folders below To, in place
	// of the name or the path (a --frozen pull puts skills where the lock
	// says).
	Dests map[string]string

	// Progress, if set, is called after each skill with the number done
	// and the total.
	Progress func(done, total int)
	// Logf, if set, receives one line per skill: what was done, or why not.
	Logf func(format string, args ...any)
}

// Result summarizes a pull.
type Result struct {
	Skills  []SkillResult `json:"skills"`
	Written int           `json:"written"` // files fetched and written (or, in a dry run, that would be)
	Kept    int           `json:"kept"`    // files that already matched
	Deleted int           `json:"deleted"` // stale files deleted (or that would be)
	Failed  int           `json:"failed"`  // skills abandoned
	DryRun  bool          `json:"dryRun,omitempty"`
}

// SkillResult is what happened to one skill.
type SkillResult struct {
	URI     string `json:"uri"`
	Path    string `json:"path"`
	Dest    string `json:"dest"`   // the skill folder on disk
	Status  string `json:"status"` // "pulled", "updated", "unchanged" or "failed"
	Written int    `json:"written"`
	Kept    int    `json:"kept"`
	Deleted int    `json:"deleted"`
	Error   string `json:"error,omitempty"`
}

// ErrFailed is wrapped by Pull's error when some skills were abandoned;
// the others were written.
var ErrFailed = errors.New("skills failed")

// Select resolves skill names to skills. Each name may be a skill's full URI,
// its skill path ("acme/billing/refunds"), its bare name when no other skill
// has it ("refunds"), or "<namespace>/<name>" ("acme/refunds"). An exact URI
// or path wins; otherwise a name matching several skills is an error listing
// them. A live server is asked with skills/get for a URI or path it does not
// list (SEP-2640 hosts must load a skill given only its URI; hidden skills
// are found this way). With all, every skill is selected and names are
// ignored.
func (s *Source) Select(ctx context.Context, names []string, all bool) ([]*Skill, error) {
	if all {
		return slices.Clone(s.Skills), nil
	}
	if len(names) == 0 {
		return nil, errors.New("nothing selected: give skill names or paths, or --all")
	}
	var out []*Skill
	for _, n := range names {
		sk, err := s.find(ctx, n)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, sk) {
			out = append(out, sk)
		}
	}
	return out, nil
}

func (s *Source) find(ctx context.Context, name string) (*Skill, error) {
	uri := ""
	p := strings.TrimSuffix(strings.TrimSuffix(name, "/SKILL.md"), "/")
	if strings.Contains(name, "://") {
		uri = p + "/SKILL.md"
	}
	var byName []*Skill
	for _, sk := range s.Skills {
		switch {
		case sk.URI == uri || sk.Path == p:
			return sk, nil
		case sk.Name == p,
			strings.Count(p, "/") == 1 && strings.HasPrefix(sk.Path, p[:strings.IndexByte(p, '/')+1]) && sk.Name == p[strings.IndexByte(p, '/')+1:]:
			byName = append(byName, sk)
		}
	}
	switch len(byName) {
	case 1:
		return byName[0], nil
	case 0:
	default:
		var paths []string
		for _, sk := range byName {
			paths = append(paths, sk.Path)
		}
		return nil, fmt.Errorf("skill %q is ambiguous: %s; give the full path", name, strings.Join(paths, ", "))
	}
	for _, r := range s.refused {
		if r.uri != "" && (r.uri == uri || strings.HasSuffix(r.uri, "/"+p+"/SKILL.md") || r.uri == "skill://"+p+"/SKILL.md") {
			return nil, fmt.Errorf("skill %q was refused: %w", name, r.err)
		}
	}
	if uri == "" && strings.Contains(p, "/") && manifest.CheckPath(p) == nil {
		uri = manifest.SkillURI(p)
	}
	if uri != "" && s.back != nil {
		sk, err := s.back.get(ctx, uri)
		if err == nil {
			s.Skills = append(s.Skills, sk)
			return sk, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("skill %q: %w in %s", name, ErrNotFound, s.Name)
}

// Pull writes skills from src below opt.To. It first maps every skill to
// its folder (To/<name>, or To/<skill path> with KeepPath) and refuses two
// skills with one folder. Then, skill by skill, it compares the folder with
// the skill, fetches and verifies what is missing or different, and renames
// it into place. An existing folder that differs is an error for that skill
// unless Sync or Force is set. A skill that fails is left as it was and the
// others go on; the error then wraps ErrFailed.
func Pull(ctx context.Context, src *Source, skills []*Skill, opt Options) (*Result, error) {
	to := opt.To
	if to == "" {
		to = "."
	}
	logf := opt.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	dirs := make([]string, len(skills))
	owner := map[string]*Skill{}
	for i, sk := range skills {
		dirs[i] = sk.Name
		if opt.KeepPath {
			dirs[i] = sk.Path
		}
		if d, ok := opt.Dests[sk.Path]; ok {
			dirs[i] = d
		}
		if err := manifest.CheckPath(dirs[i]); err != nil {
			return nil, fmt.Errorf("skill %s: destination %q: %w", sk.URI, dirs[i], err)
		}
		if dirs[i] == LockFile || dirs[i] == lockNext {
			return nil, fmt.Errorf("skill %s: destination %q is the lock file's name", sk.URI, dirs[i])
		}
		if o, ok := owner[dirs[i]]; ok {
			return nil, fmt.Errorf("skills %s and %s would both go to %s; pull them with --keep-path, or one at a time", o.Path, sk.Path, filepath.Join(to, dirs[i]))
		}
		owner[dirs[i]] = sk
	}
	root, err := openDest(to, opt.DryRun)
	if err != nil {
		return nil, err
	}
	if root != nil {
		defer root.Close()
	}
	if root != nil && !opt.DryRun {
		unlock, err := lockDest(root, to)
		if err != nil {
			return nil, err
		}
		defer unlock()
		if err := cleanUp(root, dirs, logf); err != nil {
			return nil, err
		}
	}
	var lw *lockWriter
	var locked *Lock // what local edits are found against
	switch {
	case root != nil && !opt.DryRun && opt.Lock != nil:
		if lw, err = openLockWriter(root, to, *opt.Lock); err != nil {
			return nil, err
		}
		lw.heading(src, skills, dirs)
		locked = lw.base
	case root != nil && opt.DryRun:
		// A dry run refuses what the run would: it reads the lock (and a
		// killed run's next-lock) as the run would, and writes nothing.
		if locked, err = readLock(root, to); err != nil {
			return nil, err
		}
	}
	res := &Result{Skills: []SkillResult{}, DryRun: opt.DryRun}
	results := make([]*SkillResult, len(skills)) // in the order asked for
	collect := func() error {
		for _, sr := range results {
			if sr != nil {
				res.Skills = append(res.Skills, *sr)
			}
		}
		if lw == nil {
			return nil
		}
		ok := make([]bool, len(skills))
		for i, sr := range results {
			ok[i] = sr != nil && sr.Status != "failed"
		}
		return lw.finish(src, skills, dirs, ok)
	}
	var first error
	for done, i := range parentsFirst(dirs) {
		sk := skills[i]
		var nested []string
		for _, d := range dirs {
			if strings.HasPrefix(d, dirs[i]+"/") {
				nested = append(nested, d)
			}
		}
		sr := SkillResult{URI: sk.URI, Path: sk.Path, Dest: filepath.Join(to, filepath.FromSlash(dirs[i]))}
		err := pullSkill(ctx, src, root, lw, locked, sk, dirs[i], nested, opt, &sr)
		if err != nil {
			sr.Status, sr.Error = "failed", err.Error()
			res.Failed++
			if first == nil {
				first = fmt.Errorf("%s: %w", sk.Path, err)
			}
			logf("fail  %s: %v", sk.Path, err)
		} else {
			logf("%s", describe(&sr, len(sk.Files), opt.DryRun))
		}
		res.Written += sr.Written
		res.Kept += sr.Kept
		res.Deleted += sr.Deleted
		results[i] = &sr
		if opt.Progress != nil {
			opt.Progress(done+1, len(skills))
		}
		if ctx.Err() != nil {
			if err := collect(); err != nil {
				return res, err
			}
			return res, context.Cause(ctx)
		}
	}
	if err := collect(); err != nil {
		return res, err
	}
	if res.Failed > 0 {
		return res, fmt.Errorf("%d of %d skill(s) failed, left as they were (%w); first: %w", res.Failed, len(skills), ErrFailed, first)
	}
	return res, nil
}

// parentsFirst returns the indices of dirs in an order where a folder
// comes before every folder below it. A nested skill's files are also files
// of the skill around it, so the outer skill is written first; written the
// other way round, the inner skill would make the outer folder exist, and
// the outer skill would then find it differing.
func parentsFirst(dirs []string) []int {
	order := make([]int, len(dirs))
	for i := range order {
		order[i] = i
	}
	key := func(i int) string { return strings.ReplaceAll(dirs[i], "/", "\x00") }
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(key(a), key(b)) })
	return order
}

// lockDest keeps two pulls from writing into one destination at once: each
// cleans up after killed runs, which would remove the other's staged
// folders. The lock is on the folder itself and goes with the process.
func lockDest(root *os.Root, to string) (unlock func(), err error) {
	f, err := root.Open(".")
	if err != nil {
		return nil, fmt.Errorf("destination: %w", err)
	}
	if err := lockDir(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("destination %s: another pull is writing to it", to)
		}
		return nil, fmt.Errorf("destination %s: lock: %w", to, err)
	}
	return func() { f.Close() }, nil
}

// cleanUp removes what killed runs left beside the skill folders of this
// one, finishing or undoing a replacement they were in the middle of;
// shallower folders first, so that a finished replacement is in place
// before the folders inside it are looked at.
func cleanUp(root *os.Root, dirs []string, logf func(string, ...any)) error {
	var parents []string
	for _, d := range dirs {
		parents = append(parents, path.Dir(d))
	}
	slices.Sort(parents)
	parents = slices.Compact(parents)
	for _, i := range parentsFirst(parents) {
		if exists, err := checkChain(root, parents[i]); !exists || err != nil {
			continue // nothing to clean, or the skills below refuse it
		}
		n, err := recoverLitter(root, parents[i])
		if err != nil {
			return fmt.Errorf("destination: %s: %w", parents[i], err)
		}
		if n > 0 {
			logf("clean %s: removed %d leftover(s) of an interrupted pull", parents[i], n)
		}
	}
	return nil
}

func describe(sr *SkillResult, files int, dry bool) string {
	would := ""
	if dry {
		would = "would "
	}
	switch sr.Status {
	case "unchanged":
		return fmt.Sprintf("ok    %s up to date at %s (%d files)", sr.Path, sr.Dest, files)
	case "pulled":
		return fmt.Sprintf("%spull  %s → %s (%d files)", would, sr.Path, sr.Dest, sr.Written)
	}
	return fmt.Sprintf("%supdate %s → %s (%d of %d files fetched, %d kept, %d deleted)", would, sr.Path, sr.Dest, sr.Written, files, sr.Kept, sr.Deleted)
}

// openDest opens the destination folder, creating it unless this is a dry
// run; a dry run into a folder that does not exist gets a nil root.
func openDest(to string, dry bool) (*os.Root, error) {
	if !dry {
		if err := os.MkdirAll(to, 0o755); err != nil {
			return nil, fmt.Errorf("destination: %w", err)
		}
	}
	root, err := os.OpenRoot(to)
	if dry && errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("destination: %w", err)
	}
	return root, nil
}

// pullSkill brings one skill folder up to date, or leaves it as it was.
// locked is the lock a local edit is found against (nil for none); lw writes
// the lock as the folder is replaced (nil for a dry run).
func pullSkill(ctx context.Context, src *Source, root *os.Root, lw *lockWriter, locked *Lock, sk *Skill, dir string, nested []string, opt Options, sr *SkillResult) error {
	p, err := scan(root, dir, sk, nested)
	if err != nil {
		return err
	}
	extras, extra := p.stale, len(p.stale)
	if !opt.Sync {
		p.stale = nil // only --sync deletes; --force overwrites and keeps extra files
	}
	sr.Kept = len(p.kept)
	switch {
	case !p.exists:
		sr.Status = "pulled"
	case len(p.todo) == 0 && len(p.stale) == 0 && (extra == 0 || opt.Force):
		sr.Status = "unchanged"
		return nil
	case locked != nil && !opt.Force:
		if err := refuseModified(root, locked, dir, sr.Dest); err != nil {
			return err
		}
	}
	switch {
	case !p.exists:
	case !opt.Sync && !opt.Force:
		return fmt.Errorf("%s exists and differs from the skill (%d of %d files missing or different, %d extra); use --sync to update it or --force to overwrite", sr.Dest, len(p.todo), len(sk.Files), extra)
	default:
		sr.Status = "updated"
	}
	if opt.DryRun || root == nil {
		for _, f := range p.todo {
			if err := verifyOnly(ctx, src.back, f); err != nil {
				return err
			}
		}
		sr.Written, sr.Deleted = len(p.todo), len(p.stale)
		return nil
	}
	st, err := newStage(root, dir)
	if err != nil {
		return err
	}
	carry := slices.Concat(p.kept, p.nested)
	if !opt.Sync {
		carry = append(carry, extras...) // --force keeps extra files
	}
	for _, rel := range carry {
		if err := st.keep(rel); err != nil {
			st.abort()
			return err
		}
	}
	for _, f := range p.todo {
		if ctx.Err() != nil {
			st.abort()
			return context.Cause(ctx)
		}
		if err := st.fetch(ctx, src.back, f); err != nil {
			st.abort()
			return err
		}
	}
	if lw != nil {
		if err := lw.beforeReplace(); err != nil {
			st.abort()
			return err
		}
	}
	if err := st.commit(p.exists); err != nil {
		st.abort()
		return err
	}
	sr.Written, sr.Deleted = len(p.todo), len(p.stale)
	return nil
}

func verifyOnly(ctx context.Context, back backend, f *File) error {
	in, err := back.open(ctx, f)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	defer in.Close()
	return copyVerified(io.Discard, in, f)
}
