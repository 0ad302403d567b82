package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
	"github.com/skills-mcp/skills-mcp/pull"
)

// Exit statuses of pull --check.
const (
	exitCheckUpdates  = 1 // updates available or skills removed upstream
	exitCheckError    = 2 // the check could not be made
	exitCheckModified = 3 // a pulled skill was changed locally
)

// lockRef returns the source of the flags as the lock records it (see
// pull.LockSource.Ref) and its kind.
func (c *PullCmd) lockRef(argv commandArgv) (ref, kind string, err error) {
	switch {
	case c.URL != "":
		u, err := url.Parse(c.URL)
		if err != nil {
			return "", "", err
		}
		u.User, u.RawQuery, u.ForceQuery = nil, "", false
		return u.String(), pull.KindServer, nil
	case c.Command:
		return strings.Join(argv, " "), pull.KindCommand, nil
	case oci.IsRef(c.From):
		r, err := oci.ParseRef(c.From)
		if err != nil {
			return "", "", err
		}
		return r.String(), pull.KindOCI, nil
	case isHTTP(c.From):
		u, err := url.Parse(c.From)
		if err != nil {
			return "", "", err
		}
		u.User, u.RawQuery, u.ForceQuery = nil, "", false
		if pull.IsIndexURL(c.From) {
			u.Fragment, u.RawFragment = "", ""
			return u.String(), pull.KindIndex, nil
		}
		return u.String(), pull.KindHTTPS, nil
	}
	// A local path, relative to the lock's folder, so that a lock checked
	// in with its skills works wherever the checkout is.
	kind = pull.KindBundle
	if fi, err := os.Stat(c.From); err == nil && fi.IsDir() {
		kind = pull.KindExport
	}
	abs, err := filepath.Abs(c.From)
	if err != nil {
		return "", "", err
	}
	to, err := filepath.Abs(c.to())
	if err != nil {
		return "", "", err
	}
	rel, err := filepath.Rel(to, abs)
	if err != nil {
		return "", "", err
	}
	return filepath.ToSlash(rel), kind, nil
}

func (c *PullCmd) to() string {
	if c.To == "" {
		return "."
	}
	return c.To
}

// lockSource returns the lock header of the opened source.
func (c *PullCmd) lockSource(src *pull.Source, argv commandArgv) (*pull.LockSource, error) {
	ref, kind, err := c.lockRef(argv)
	if err != nil {
		return nil, err
	}
	ls, err := pull.LockedSource(src, ref, kind)
	if err != nil {
		return nil, err
	}
	if kind == pull.KindOCI {
		d, err := manifest.ParseDigest(c.ociResolved)
		if err != nil {
			return nil, fmt.Errorf("%s: resolved digest: %w", ref, err)
		}
		ls.Resolved = d
	}
	return &ls, nil
}

// lockFlags refuses what --check and --frozen do not take.
func (c *PullCmd) lockFlags() error {
	if c.Check && c.Frozen {
		return &exitError{exitUsage, errors.New("pull: --check and --frozen exclude each other")}
	}
	what := "--check"
	if c.Frozen {
		what = "--frozen"
	}
	if len(c.Skills) > 0 || c.All || c.List || c.DryRun || c.KeepPath {
		return &exitError{exitUsage, fmt.Errorf("pull: %s takes the skills and their folders from %s: give no SKILL, --all, --list, --dry-run or --keep-path", what, pull.LockFile)}
	}
	return nil
}

// readLock reads the lock of --to for --check and --frozen, which need one.
func (c *PullCmd) readLock() (*pull.Lock, error) {
	lock, err := pull.ReadLock(c.to())
	if err != nil {
		return nil, &exitError{exitUsage, fmt.Errorf("pull: %w", err)}
	}
	if len(lock.Sources) == 0 {
		return nil, &exitError{exitUsage, fmt.Errorf("pull: no %s in %s (or it locks nothing): pull once without --check or --frozen to write it", pull.LockFile, c.to())}
	}
	return lock, nil
}

// lockedSources returns the sources of the lock to look at: the one the
// flags name, or all of them.
func (c *PullCmd) lockedSources(lock *pull.Lock, argv commandArgv) ([]*pull.LockSource, error) {
	if c.From == "" && c.URL == "" && !c.Command {
		var out []*pull.LockSource
		for i := range lock.Sources {
			out = append(out, &lock.Sources[i])
		}
		return out, nil
	}
	ref, _, err := c.lockRef(argv)
	if err != nil {
		return nil, &exitError{exitUsage, fmt.Errorf("pull: %w", err)}
	}
	ls := lock.Source(ref)
	if ls == nil {
		return nil, &exitError{exitUsage, fmt.Errorf("pull: %s locks no source %q", filepath.Join(c.to(), pull.LockFile), ref)}
	}
	return []*pull.LockSource{ls}, nil
}

// openLocked opens the source a lock entry names. frozen opens an oci://
// source at the locked digest (after checking the tag, with one HEAD, so
// that a moved tag is drift); otherwise at its tag. A source that no
// longer exists is an error naming the lock's line (rule lock-source-gone).
func (c *PullCmd) openLocked(ctx context.Context, lock *pull.Lock, ls *pull.LockSource, argv commandArgv, trusted []manifest.TrustedKey, frozen bool) (*pull.Source, *pull.LockSource, error) {
	gone := func(err error) error {
		rule := "lock-source-open"
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, pull.ErrNotFound) || strings.Contains(err.Error(), "404") {
			rule = "lock-source-gone"
		}
		return lock.SourceError(ls.Ref, rule, err)
	}
	var src *pull.Source
	var err error
	switch ls.Kind {
	case pull.KindBundle, pull.KindExport:
		p := filepath.FromSlash(ls.Ref)
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.to(), p)
		}
		if ls.Kind == pull.KindExport {
			src, err = c.cosignChecked(pull.OpenExport(p, c.ownKeys(trusted)))
		} else {
			src, err = c.cosignChecked(pull.OpenBundle(p, c.ownKeys(trusted)))
		}
	case pull.KindHTTPS:
		u := ls.Ref
		if !strings.Contains(u, "#") && (frozen || trusted == nil) {
			u += "#sha256=" + ls.Resolved.Hex()
		}
		src, err = c.cosignChecked(pull.Download(ctx, u, pull.DownloadOptions{MaxBytes: c.MaxDownload}, c.ownKeys(trusted)))
		if err != nil && strings.Contains(err.Error(), "sha256 mismatch") {
			return nil, nil, fmt.Errorf("%s: %w: the file changed: %w", ls.Ref, pull.ErrDrift, err)
		}
	case pull.KindIndex:
		src, err = c.cosignChecked(pull.OpenIndex(ctx, ls.Ref, pull.IndexOptions{MaxBytes: c.MaxDownload, AllowUnverified: c.AllowUnverified}, c.ownKeys(trusted)))
	case pull.KindOCI:
		ref := ls.Ref
		if frozen {
			r, rerr := oci.Resolve(ctx, ls.Ref, c.Registry.options(c.Cache.CacheDir, trusted, stderrNote))
			if rerr != nil {
				return nil, nil, gone(rerr)
			}
			if r.Digest != ls.Resolved.String() {
				return nil, nil, fmt.Errorf("%s: %w: the tag moved: the lock has %s, the registry now %s", ls.Ref, pull.ErrDrift, ls.Resolved, r.Digest)
			}
			ref = r.String()
		}
		src, err = c.openOCI(ctx, ref, trusted)
	case pull.KindServer:
		// Headers, tokens and sign-ins go only to a server named on the
		// command line (--url, as given, query included), never to one a
		// lock file names.
		if c.URL == "" {
			saved := *c
			c.URL, c.Header, c.Token, c.OAuth = ls.Ref, nil, "", false
			src, err = c.open(ctx, argv, trusted)
			c.URL, c.Header, c.Token, c.OAuth = saved.URL, saved.Header, saved.Token, saved.OAuth
		} else {
			src, err = c.open(ctx, argv, trusted)
		}
	case pull.KindCommand:
		if !c.Command || strings.Join(argv, " ") != ls.Ref {
			return nil, nil, lock.SourceError(ls.Ref, "lock-command", fmt.Errorf("a stdio server is run only when its command is given: add --command %s", ls.Ref))
		}
		src, err = c.open(ctx, argv, trusted)
	}
	if err != nil {
		if errors.Is(err, manifest.ErrUnsigned) || errors.Is(err, manifest.ErrUntrusted) || errors.Is(err, manifest.ErrBadSignature) {
			return nil, nil, err
		}
		return nil, nil, gone(err)
	}
	now, err := pull.LockedSource(src, ls.Ref, ls.Kind)
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	if ls.Kind == pull.KindOCI {
		now.Resolved, _ = manifest.ParseDigest(c.ociResolved)
	}
	return src, &now, nil
}

// checkRow is one skill in the report of pull --check.
type checkRow struct {
	Status string   `json:"status"`
	Path   string   `json:"path"`
	Dest   string   `json:"dest"`
	Source string   `json:"source"`
	Detail string   `json:"detail,omitempty"`
	Files  []string `json:"files,omitempty"`
}

// runCheck is pull --check: it changes nothing, and reports each locked
// skill with an exit status for CI.
func (c *PullCmd) runCheck(ctx context.Context, argv commandArgv, trusted []manifest.TrustedKey) error {
	fail := func(err error) error { return &exitError{exitCheckError, fmt.Errorf("pull --check: %w", err)} }
	lock, err := c.readLock()
	if err != nil {
		return fail(err)
	}
	sources, err := c.lockedSources(lock, argv)
	if err != nil {
		return fail(err)
	}
	var rows []checkRow
	for _, ls := range sources {
		up, err := c.checkUpstream(ctx, lock, ls, argv, trusted)
		if err != nil {
			return fail(err)
		}
		for i := range ls.Skills {
			e := &ls.Skills[i]
			row := checkRow{Status: up[i].Status, Path: e.Path, Dest: filepath.ToSlash(filepath.Join(c.to(), e.Dest)), Source: ls.Ref, Detail: up[i].Detail, Files: up[i].Files}
			st, err := pull.CompareLocal(c.to(), e)
			if err != nil {
				return fail(err)
			}
			if st.Modified {
				row.Status, row.Detail, row.Files = pull.StatusModified, st.String(), nil
			}
			rows = append(rows, row)
		}
	}
	if c.JSON {
		if err := writeJSON(os.Stdout, rows); err != nil {
			return fail(err)
		}
	} else {
		for _, r := range rows {
			line := fmt.Sprintf("%-16s  %s  %s", r.Status, r.Path, r.Dest)
			if r.Detail != "" {
				line += "  (" + r.Detail + ")"
			}
			fmt.Println(line)
		}
	}
	counts := map[string]int{}
	for _, r := range rows {
		counts[r.Status]++
	}
	summary := fmt.Sprintf("%d skill(s): %d up to date, %d update(s) available, %d removed upstream, %d modified locally",
		len(rows), counts[pull.StatusUpToDate], counts[pull.StatusUpdate], counts[pull.StatusRemoved], counts[pull.StatusModified])
	switch {
	case counts[pull.StatusModified] > 0:
		return &exitError{exitCheckModified, fmt.Errorf("pull --check: %s", summary)}
	case counts[pull.StatusUpdate]+counts[pull.StatusRemoved] > 0:
		return &exitError{exitCheckUpdates, fmt.Errorf("pull --check: %s", summary)}
	}
	stderrNote("check: %s", summary)
	return nil
}

// checkUpstream tells how the source of ls offers each locked skill now. An
// oci:// tag that still names the locked digest costs one manifest HEAD
// and nothing more, an https file whose strong ETag is unchanged one HEAD,
// a discovery site whose index is unchanged one GET of the index, a pinned
// reference no request.
func (c *PullCmd) checkUpstream(ctx context.Context, lock *pull.Lock, ls *pull.LockSource, argv commandArgv, trusted []manifest.TrustedKey) ([]pull.Upstream, error) {
	same := func() []pull.Upstream {
		out := make([]pull.Upstream, len(ls.Skills))
		for i := range out {
			out[i] = pull.Upstream{Entry: &ls.Skills[i], Status: pull.StatusUpToDate}
		}
		return out
	}
	if ls.Kind == pull.KindOCI {
		r, err := oci.Resolve(ctx, ls.Ref, c.Registry.options(c.Cache.CacheDir, trusted, func(string, ...any) {}))
		if err != nil {
			return nil, lock.SourceError(ls.Ref, "lock-source-gone", err)
		}
		if r.Digest == ls.Resolved.String() {
			return same(), nil
		}
	}
	if ls.Kind == pull.KindIndex {
		d, err := pull.IndexDigest(ctx, ls.Ref, pull.IndexOptions{MaxBytes: c.MaxDownload, AllowUnverified: c.AllowUnverified})
		if err != nil {
			return nil, lock.SourceError(ls.Ref, "lock-source-gone", err)
		}
		if d == ls.Resolved {
			return same(), nil
		}
	}
	if ls.Kind == pull.KindHTTPS && strings.Contains(ls.Ref, "#sha256=") {
		return same(), nil // pinned: it cannot change
	}
	if ls.Kind == pull.KindHTTPS && ls.ETag != "" {
		unchanged, err := pull.Unchanged(ctx, ls.Ref, ls.ETag, pull.DownloadOptions{MaxBytes: c.MaxDownload})
		if err != nil {
			return nil, lock.SourceError(ls.Ref, "lock-source-gone", err)
		}
		if unchanged {
			return same(), nil
		}
	}
	src, now, err := c.openLocked(ctx, lock, ls, argv, trusted, false)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if ls.Kind != pull.KindServer && ls.Kind != pull.KindCommand && now.Resolved == ls.Resolved {
		return same(), nil
	}
	return pull.Compare(ctx, src, ls)
}

// runFrozen is pull --frozen: it installs exactly what the lock names, and
// refuses any drift (a moved tag, a changed file, a skill gone upstream, a
// skill modified locally without --force) before it writes anything.
func (c *PullCmd) runFrozen(ctx context.Context, argv commandArgv, trusted []manifest.TrustedKey) error {
	lock, err := c.readLock()
	if err != nil {
		return err
	}
	sources, err := c.lockedSources(lock, argv)
	if err != nil {
		return err
	}
	type job struct {
		src    *pull.Source
		ls     *pull.LockSource
		skills []*pull.Skill
		dests  map[string]string
	}
	var jobs []job
	defer func() {
		for _, j := range jobs {
			j.src.Close()
		}
	}()
	for _, ls := range sources {
		src, now, err := c.openLocked(ctx, lock, ls, argv, trusted, true)
		if err != nil {
			return frozenErr(err)
		}
		jobs = append(jobs, job{src: src, ls: ls})
		j := &jobs[len(jobs)-1]
		if j.skills, j.dests, err = pull.Frozen(ctx, src, ls, *now); err != nil {
			return frozenErr(err)
		}
		for i := range ls.Skills {
			st, err := pull.CompareLocal(c.to(), &ls.Skills[i])
			if err != nil {
				return frozenErr(err)
			}
			if st.Modified && !st.Missing && !c.Force {
				return &exitError{exitFailed, fmt.Errorf("pull --frozen: %s: %w since it was pulled: %s; nothing written (use --force to overwrite the local changes)",
					filepath.Join(c.to(), ls.Skills[i].Dest), pull.ErrModified, st)}
			}
		}
	}
	note := func(format string, args ...any) { fmt.Fprintf(stderr, "skills-mcp: "+format+"\n", args...) }
	for _, j := range jobs {
		head := *j.ls
		head.Skills = nil
		opt := pull.Options{To: c.To, Sync: true, Force: c.Force, Dests: j.dests, Lock: &head,
			Progress: progress("pulling"), Logf: note}
		res, err := pull.Pull(ctx, j.src, j.skills, opt)
		if res != nil {
			note("done: %s: %d skill(s), %d file(s) written, %d kept, %d deleted, %d failed", j.ls.Ref, len(res.Skills), res.Written, res.Kept, res.Deleted, res.Failed)
			if c.JSON {
				writeJSON(os.Stdout, res)
			}
		}
		if err != nil {
			return fmt.Errorf("pull --frozen: %w", err)
		}
	}
	return nil
}

// frozenErr gives a --frozen failure its status: 2 for a bad lock, 1 for
// drift and anything else.
func frozenErr(err error) error {
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	if errors.Is(err, pull.ErrLock) && !errors.Is(err, pull.ErrDrift) {
		return &exitError{exitUsage, fmt.Errorf("pull --frozen: %w; nothing written", err)}
	}
	return &exitError{exitFailed, fmt.Errorf("pull --frozen: %w; nothing written", err)}
}
