package build

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// Result describes a finished build.
type Result struct {
	ID       manifest.Digest
	Manifest *manifest.Manifest
	Stats    Stats
	folders  map[[2]string]string
}

// Folder returns the folder, relative to its library's root, of the skill
// (published or withheld) with the given library namespace and path below
// the library. It differs from the path for skills found in a root's
// skills/ or .claude/skills/ folder, and is "." for a root that is a skill.
// It is for local reports such as SARIF; it never enters the bundle.
func (r *Result) Folder(library, path string) string {
	if f, ok := r.folders[[2]string{library, path}]; ok {
		return f
	}
	return path
}

// Stats are a build's catalog statistics.
type Stats struct {
	Libraries             int            `json:"libraries"`
	Skills                int            `json:"skills"`
	Hidden                int            `json:"hidden"`
	Withheld              int            `json:"withheld"`
	Files                 int            `json:"files"`
	Bytes                 int64          `json:"bytes"`
	Blobs                 int            `json:"blobs"`
	FlaggedSkills         int            `json:"flaggedSkills"`
	Findings              int            `json:"findings"`
	ScriptsWithheld       int            `json:"scriptsWithheld"`
	ImportedFindings      int            `json:"importedFindings"` // findings folded in from SARIF logs
	ImportedDropped       int            `json:"importedDropped"`  // SARIF results dropped (reported to Warn)
	ArchiveSkillsRejected int            `json:"archiveSkillsRejected"`
	Warnings              int            `json:"warnings"`
	PerLibrary            map[string]int `json:"perLibrary"`
}

// Build scans every library, validates, lints and hashes every skill, and
// streams one bundle to w. A skill that breaks a rule is withheld and listed
// in the manifest with its reasons; the rest are published. The output is a
// function of the libraries' content and the options alone: file order,
// times, modes and the machine do not change a byte.
//
// Skills are read by parallel workers and written in URI order; only the
// skills in flight are held in memory.
func Build(opt Options, w io.Writer) (*Result, error) {
	opt.defaults()
	if err := CheckLibraries(opt.Libraries); err != nil {
		return nil, err
	}
	if err := lint.CheckDeny(opt.Deny); err != nil {
		return nil, err
	}
	if len(opt.Deny) > 0 {
		libs := slices.Clone(opt.Libraries)
		for i := range libs {
			libs[i].Deny = append(slices.Clone(opt.Deny), libs[i].Deny...)
		}
		opt.Libraries = libs
	}
	if opt.NoLint {
		for _, l := range opt.Libraries {
			if len(l.Deny) > 0 {
				return nil, fmt.Errorf("library %s: deny needs the analyser, which --no-lint (or \"lint\": false) turns off", displayNS(l.Namespace))
			}
		}
	}
	opt.imports = newImports(opt.SARIF)
	m := &manifest.Manifest{MediaType: manifest.MediaType, Generator: manifest.Generator}
	if !opt.Created.IsZero() {
		m.Created = opt.Created.UTC().Format(time.RFC3339)
	}
	warn := func(s string) {
		s = validText(s) // the manifest holds only valid UTF-8
		m.Warnings = append(m.Warnings, s)
		if opt.Warn != nil {
			opt.Warn(s)
		}
	}
	type job struct {
		src *source
		sd  skillDir
		uri string // the skill's SKILL.md URI: the sort key
	}
	var jobs []job
	var srcs []*source
	opt.Cache.begin()
	defer opt.Cache.end()
	defer func() {
		for _, s := range srcs {
			if s.close != nil {
				s.close()
			}
		}
	}()
	for _, lib := range opt.Libraries {
		src, err := openSource(&opt, lib)
		if err != nil {
			if len(opt.Libraries) == 1 {
				return nil, err
			}
			warn(fmt.Sprintf("library %s: %v", displayNS(lib.Namespace), redactErr(err, lib)))
			continue
		}
		srcs = append(srcs, src)
		for _, w := range src.warnings {
			warn(fmt.Sprintf("library %s: %s", displayNS(lib.Namespace), w))
		}
		if src.tree == nil {
			src.tree = &fsTree{fsys: src.fsys, realDir: src.info.Kind == manifest.LibraryKindDir}
		}
		exclude := map[string]bool{}
		for _, e := range opt.Exclude {
			exclude[e] = true
		}
		for _, sd := range discover(src.tree, src.rootName, opt.Depth, exclude, func(s string) {
			warn(fmt.Sprintf("library %s: %s", displayNS(lib.Namespace), s))
		}) {
			jobs = append(jobs, job{src, sd, skillURI(lib.Namespace, sd.path)})
		}
	}
	// URI order is skill-path order with the namespace in front.
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].uri < jobs[j].uri })
	for i := 1; i < len(jobs); i++ {
		if jobs[i-1].uri == jobs[i].uri {
			return nil, fmt.Errorf("two skills have the uri %s (libraries %s and %s)", jobs[i].uri,
				displayNS(jobs[i-1].src.lib.Namespace), displayNS(jobs[i].src.lib.Namespace))
		}
	}

	bw := manifest.NewWriter(w)
	perLib := map[string]*manifest.Library{}
	for _, s := range srcs {
		perLib[s.lib.Namespace] = &s.info
	}
	res := &Result{Manifest: m, Stats: Stats{PerLibrary: map[string]int{}}, folders: map[[2]string]string{}}
	st := &res.Stats
	// emit adds skill i, loaded as l, to the manifest and its blobs to the
	// bundle. Skills are emitted one at a time, in order.
	emit := func(i int, l *loaded) error {
		defer l.release()
		j := jobs[i]
		opt.Cache.keep(l)
		if opt.Progress != nil {
			opt.Progress(i+1, len(jobs))
		}
		ns := j.src.lib.Namespace
		label := displayNS(ns) + ":" + j.sd.path
		res.folders[[2]string{ns, j.sd.path}] = j.sd.dir
		for _, w := range l.warnings {
			warn(label + ": " + w)
		}
		if len(l.problems) > 0 {
			wh := manifest.Withheld{Library: ns, Path: j.sd.path}
			var reasons []string
			for _, p := range l.problems {
				if !slices.Contains(wh.Rules, p.Rule) {
					wh.Rules = append(wh.Rules, p.Rule)
				}
				reasons = append(reasons, p.String())
				if p.Rule == RuleArchive {
					st.ArchiveSkillsRejected++
				}
			}
			wh.Reason = strings.Join(reasons, "; ")
			m.Withheld = append(m.Withheld, wh)
			warn(label + ": " + wh.Reason + "; skill withheld")
			return nil
		}
		for k, r := range l.skill.Entry.Resources {
			if err := bw.AddBlob(r.Digest, l.blobs[k]); err != nil {
				return err
			}
			st.Files++
			st.Bytes += r.Size
		}
		info := perLib[ns]
		info.Skills++
		st.Skills++
		st.PerLibrary[displayNS(ns)]++
		if l.skill.Hidden {
			info.Hidden++
			st.Hidden++
		}
		if len(l.skill.Findings) > 0 {
			st.FlaggedSkills++
			st.Findings += len(l.skill.Findings)
		}
		st.ScriptsWithheld += l.skill.ScriptsWithheld
		m.Skills = append(m.Skills, l.skill)
		return nil
	}
	if err := loadAll(opt.Context, len(jobs), func(i int) *loaded {
		j := jobs[i]
		noScripts := opt.NoScripts || j.src.lib.NoScripts
		return loadSkill(j.src.tree, j.sd, &j.src.lib, j.src.key, noScripts, &opt)
	}, emit); err != nil {
		return nil, err
	}
	for _, s := range srcs {
		m.Libraries = append(m.Libraries, s.info)
	}
	sort.Slice(m.Libraries, func(i, j int) bool { return m.Libraries[i].Namespace < m.Libraries[j].Namespace })
	id, err := bw.Finish(m)
	if err != nil {
		return nil, err
	}
	res.ID = id
	opt.Cache.commit(&opt, id)
	report := opt.Warn
	if report == nil {
		report = opt.Report
	}
	st.ImportedFindings, st.ImportedDropped = opt.imports.finish(report)
	st.Libraries = len(m.Libraries)
	st.Withheld = len(m.Withheld)
	st.Warnings = len(m.Warnings)
	st.Blobs = countBlobs(m)
	return res, nil
}

// loadAll loads n skills with load, by parallel workers, and hands each to
// emit in order, from one worker at a time: the worker that finishes the
// skill emit needs next emits it, and every later one already loaded. A
// worker starts a skill at most a window ahead of the one emit needs next,
// which bounds the skills held in memory. No goroutine waits for another
// while the work flows. The first error of emit or the context stops the
// work and is returned once every worker has stopped.
func loadAll(ctx context.Context, n int, load func(i int) *loaded, emit func(i int, l *loaded) error) error {
	workers := min(runtime.GOMAXPROCS(0), 8, max(n, 1))
	window := make(chan struct{}, 4*workers) // a slot per skill started, not yet emitted
	var (
		next     atomic.Int64 // the next skill to start
		results  = make([]atomic.Pointer[loaded], n)
		emitMu   sync.Mutex   // held by the worker emitting
		emitted  atomic.Int64 // skills emitted; written with emitMu held
		failed   error
		failOnce sync.Once
		stop     = make(chan struct{}) // closed on the first error
	)
	fail := func(err error) {
		failOnce.Do(func() {
			failed = err
			close(stop)
		})
	}
	stopped := func() bool {
		select {
		case <-stop:
			return true
		default:
			return false
		}
	}
	// drain emits the loaded skills emit needs next, unless another worker
	// is at it. A worker that stores a skill while another drains leaves
	// it to that one, which looks again after letting go of emitMu.
	drain := func() {
		for emitMu.TryLock() {
			e := int(emitted.Load())
			for ; e < n && !stopped(); e++ {
				l := results[e].Load()
				if l == nil {
					break
				}
				results[e].Store(nil)
				if err := emit(e, l); err != nil {
					fail(err)
				}
				emitted.Store(int64(e + 1))
				<-window
			}
			emitMu.Unlock()
			e = int(emitted.Load())
			if e >= n || results[e].Load() == nil || stopped() {
				return
			}
		}
	}
	work := func() {
		for {
			select {
			case window <- struct{}{}:
			case <-stop:
				return
			case <-ctx.Done():
				fail(ctx.Err())
				return
			}
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			results[i].Store(load(i))
			drain()
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	return failed
}

func countBlobs(m *manifest.Manifest) int {
	seen := map[manifest.Digest]bool{}
	for i := range m.Skills {
		for _, r := range m.Skills[i].Entry.Resources {
			seen[r.Digest] = true
		}
	}
	return len(seen)
}

func skillURI(ns, p string) string {
	if ns != "" {
		p = ns + "/" + p
	}
	return manifest.SkillURI(p)
}

// redactErr keeps a library's local root out of a message that enters the
// manifest: the namespace stands in for it.
func redactErr(err error, lib Library) string {
	s := err.Error()
	if lib.Root != "" {
		if abs, e := filepath.Abs(lib.Root); e == nil {
			s = strings.ReplaceAll(s, abs, "<"+displayNS(lib.Namespace)+">")
		}
		s = strings.ReplaceAll(s, lib.Root, "<"+displayNS(lib.Namespace)+">")
	}
	if u, err := url.Parse(lib.URL); lib.URL != "" && err == nil {
		s = strings.ReplaceAll(s, lib.URL, redactURL(u))
	}
	return s
}

// openSource opens a library's tree: a folder through os.Root (no escape by
// symlink or ..), a .zip read in place, or an https .zip fetched by digest.
func openSource(opt *Options, lib Library) (*source, error) {
	src := &source{lib: lib, info: manifest.Library{
		Namespace: lib.Namespace, Kind: manifest.LibraryKindDir, Title: lib.Title, Source: lib.Source,
		Version: lib.Version, Metadata: lib.Metadata, NoScripts: lib.NoScripts || opt.NoScripts,
		Deny: slices.Compact(slices.Sorted(slices.Values(lib.Deny))),
	}}
	if lib.FS != nil {
		if opt.Cache != nil {
			return nil, fmt.Errorf("library %s: a tree in memory is not kept in a build cache; build it without one", displayNS(lib.Namespace))
		}
		src.fsys, src.tree, src.key = lib.FS, &fsTree{fsys: lib.FS}, "fs:"
		return src, nil
	}
	archive := lib.Root
	if lib.URL != "" && wellknown.IsIndexURL(lib.URL) {
		if err := openIndexLibrary(opt, src); err != nil { // wellknown.go
			return nil, err
		}
		return src, nil
	}
	if lib.URL != "" {
		if opt.Cache.cachedURL(src) {
			return src, nil
		}
		u, pin, err := ParseLibraryURL(lib.URL)
		if err != nil {
			return nil, err
		}
		if lib.SHA256 != "" {
			d, err := manifest.ParseDigest("sha256:" + strings.ToLower(lib.SHA256))
			if err != nil {
				return nil, fmt.Errorf("library %s: sha256 pin: %w", displayNS(lib.Namespace), err)
			}
			pin = &d
		}
		p, _, err := Fetch(opt.Context, u, pin, opt.Fetch)
		if err != nil {
			return nil, err
		}
		archive = p
		src.info.Kind = "url"
		src.rootName = strings.TrimSuffix(pathBase(u), ".zip")
	} else if strings.HasSuffix(strings.ToLower(lib.Root), ".zip") {
		src.info.Kind = "archive"
		src.rootName = strings.TrimSuffix(filepath.Base(lib.Root), filepath.Ext(lib.Root))
	}
	if src.info.Kind != manifest.LibraryKindDir {
		f, err := os.Open(archive)
		if err != nil {
			return nil, fmt.Errorf("library %s: %w", displayNS(lib.Namespace), err)
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("library %s: %w", displayNS(lib.Namespace), err)
		}
		ok, d, err := opt.Cache.cachedArchive(src, archive, f, fi)
		if ok || err != nil {
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("library %s: %w", displayNS(lib.Namespace), err)
			}
			return src, nil
		}
		if d == nil {
			h, err := hashFile(f)
			if err != nil {
				f.Close()
				return nil, fmt.Errorf("library %s: %w", displayNS(lib.Namespace), err)
			}
			d = &h
		}
		src.info.Digest = d
		fsys, err := OpenZip(f, fi.Size(), opt.Archive)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("library %s: archive %s: %w", displayNS(lib.Namespace), filepath.Base(archive), err)
		}
		src.fsys, src.close, src.key = unwrap(fsys), f.Close, "zip:"+d.Hex()
		opt.Cache.keepArchive(src, archive, f, fi)
		return src, nil
	}
	fi, err := os.Stat(lib.Root)
	if err != nil {
		return nil, fmt.Errorf("library %s: cannot read root %s: %w", displayNS(lib.Namespace), lib.Root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("library %s: root %s is not a folder or a .zip", displayNS(lib.Namespace), lib.Root)
	}
	abs, _ := filepath.Abs(lib.Root)
	src.rootName = filepath.Base(abs)
	if opt.Cache == nil {
		// Without a cache, files are read through directory descriptors
		// where the system has them.
		if t, err := openDirTree(lib.Root); err == nil {
			src.tree, src.close, src.key = t, t.close, "dir:"+abs
			return src, nil
		} else if !errors.Is(err, errors.ErrUnsupported) {
			return nil, fmt.Errorf("library %s: %w", displayNS(lib.Namespace), err)
		}
	}
	root, err := os.OpenRoot(lib.Root)
	if err != nil {
		return nil, fmt.Errorf("library %s: %w", displayNS(lib.Namespace), err)
	}
	src.fsys, src.close, src.key = opt.Cache.dirFS(abs, root.FS()), root.Close, "dir:"+abs
	return src, nil
}

func pathBase(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return u[strings.LastIndexByte(u, '/')+1:]
}

// unwrap strips a wrapper folder (GitHub's "Download ZIP", git archive
// --prefix): an archive whose root holds nothing but one folder is read
// from inside that folder, so the wrapper's name never enters a URI.
func unwrap(fsys fs.FS) fs.FS {
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return fsys
	}
	var only fs.DirEntry
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if only != nil || !e.IsDir() {
			return fsys
		}
		only = e
	}
	if only == nil {
		return fsys
	}
	if sub, err := fs.Sub(fsys, only.Name()); err == nil {
		return sub
	}
	return fsys
}
