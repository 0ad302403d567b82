package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// Defaults for Options.
const (
	// DefaultRescan is the periodic rescan interval of the command line
	// (SKILLS_RESCAN_SECONDS); Options.Rescan 0 turns rescans off.
	DefaultRescan = 60 * time.Second
	// DefaultDebounce is how long the watch waits after the last change
	// before it rebuilds: an editor's save, or a copied tree, is one
	// rebuild.
	DefaultDebounce = 200 * time.Millisecond
	// DefaultMaxWatches caps the folders watched in all (one inotify
	// watch each). A library that does not fit is kept fresh by rescans.
	DefaultMaxWatches = 8192
	// maxDebounce bounds the delay of a rebuild under a steady stream of
	// changes.
	maxDebounce = 2 * time.Second
)

// Options configure a Live server.
type Options struct {
	// Build names the libraries given on the command line, which never
	// change, and the scan policy (NoScripts, NoLint, limits). Its
	// Libraries may be empty when ConfigFile names some.
	Build build.Options
	// ConfigFile is a configuration file (build.LoadConfig) read at start
	// and again on every rescan and Refresh; "" for none. Its libraries
	// may come, go and change while serving; its noScripts can only add to
	// Build.NoScripts, and its lint:false turns the linter off.
	ConfigFile string
	// Bundles are served alongside the libraries and never reloaded.
	Bundles []*manifest.Bundle
	// Server configures the MCP server.
	Server serve.Options
	// Rescan is the periodic rescan interval; 0 turns it off.
	Rescan time.Duration
	// NoWatch turns the file watch off: only rescans and Refresh pick up
	// changes.
	NoWatch bool
	// Debounce is the quiet time after a change before a rebuild;
	// DefaultDebounce if 0.
	Debounce time.Duration
	// MaxWatches caps the watched folders; DefaultMaxWatches if 0.
	MaxWatches int
	// Observe, if set, is told of every library build that ran (not of
	// rescans that found a library unchanged): how long it took and its
	// error (Metrics.ObserveRebuild).
	Observe func(took time.Duration, err error)
}

// Live serves skill libraries straight from folders, archives and URLs, and
// keeps them fresh. Each library is built into its own bundle held in
// memory, with a build.Cache, so a rebuild rereads only changed files; the
// serve.Server serves those bundles (and any fixed bundle files) together and
// swaps them atomically: a request in flight finishes on the catalog it
// started with.
//
// Freshness comes from a watch of every folder library (fsnotify, recursive,
// debounced), from a periodic rescan as a safety net, and from Refresh
// (catalog_status refresh=true, SIGHUP). A rebuild that changes nothing
// swaps nothing and notifies nobody.
//
// A periodic rescan first asks each library's cache whether anything it
// looked at changed (build.Cache.Unchanged: one stat per folder and file)
// and rebuilds only the libraries where something did; a watch event
// rebuilds its library at once. Each library's bundle lives in memory,
// about the size of its files; a rebuild holds the old and the new one
// until the swap.
//
// Failures never empty a live catalog: a library whose rebuild fails keeps
// serving its last good bundle, and Status says so, until it builds again
// or leaves the configuration. A library that fails on its first build is
// left out with a warning, unless it is the only one, which makes New
// fail. A configuration file that cannot be read or is invalid is logged
// and the previous set of libraries kept.
type Live struct {
	opt       Options
	log       *slog.Logger
	srv       *serve.Server
	fixed     []build.Library // from the command line
	watcher   *watcher        // nil when the watch is off
	watchErr  string          // why the watch is off
	configAbs string

	mu        sync.Mutex // serializes rescans; guards the fields below
	libs      []build.Library
	noScripts bool
	noLint    bool
	waivers   []lint.Waiver        // the fixed policy's and the configuration file's
	states    map[string]*libState // by namespace
	served    []*manifest.Bundle   // what the server serves now
	configErr string
	swapErr   string
	lastScan  time.Time
	scans     int
	closed    bool

	stMu sync.Mutex // guards pub: Status never waits for a rebuild
	pub  liveState

	rel *releaser // returns a swapped-out catalog's memory while Run runs
}

// liveState is what Status reports, as of the end of the last rescan.
type liveState struct {
	libs      []serve.LiveLibStatus
	static    map[string]bool // libraries that never change (https)
	configErr string
	swapErr   string
	lastScan  time.Time
	scans     int
}

// libState is one library's build state.
type libState struct {
	lib    build.Library
	cache  *build.Cache
	bundle *manifest.Bundle // the last good build; nil until one succeeds
	err    string           // why the last build failed, paths redacted; "" if it succeeded
}

// New loads the configuration file, builds every library and returns a
// Live server ready to serve; Run keeps it fresh. It fails when the
// configuration is invalid, when the only library or every library fails
// to build, or when the bundles conflict (a skill URI served twice).
func New(opt Options) (*Live, error) {
	if opt.Debounce <= 0 {
		opt.Debounce = DefaultDebounce
	}
	if opt.MaxWatches <= 0 {
		opt.MaxWatches = DefaultMaxWatches
	}
	l := &Live{opt: opt, log: opt.Server.Logger, fixed: slices.Clone(opt.Build.Libraries), states: map[string]*libState{}, rel: newReleaser()}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	if opt.ConfigFile != "" {
		l.configAbs, _ = filepath.Abs(opt.ConfigFile)
	}
	libs, noScripts, noLint, waivers, err := l.readConfig()
	if err != nil {
		return nil, err
	}
	l.libs, l.noScripts, l.noLint, l.waivers = libs, noScripts, noLint, waivers
	ctx := opt.Build.Context
	if ctx == nil {
		ctx = context.Background()
	}
	var errs []error
	for _, lib := range libs {
		st := &libState{lib: lib, cache: build.NewCache()}
		l.states[lib.Namespace] = st
		if err := l.buildLib(ctx, st, false); err != nil {
			errs = append(errs, err)
		}
	}
	bundles := l.bundles()
	if len(errs) > 0 && (len(libs) == 1 || len(bundles) == 0) {
		l.closeCaches()
		return nil, errors.Join(errs...)
	}
	sopt := opt.Server
	if sopt.Refresh == nil {
		sopt.Refresh = Gate(l.Refresh, l.log)
	}
	if sopt.LiveStatus == nil {
		sopt.LiveStatus = l.Status
	}
	srv, err := serve.New(bundles, sopt)
	if err != nil {
		l.closeCaches()
		return nil, err
	}
	l.srv, l.served = srv, bundles
	l.lastScan, l.scans = time.Now(), 1
	l.publish()
	if !opt.NoWatch {
		w, err := newWatcher(opt.MaxWatches, l.log)
		if err != nil {
			l.watchErr = fmt.Sprintf("file watch unavailable (%v)", err)
			l.log.Warn("file watch unavailable; rescans keep the catalog fresh", "err", err)
		} else {
			l.watcher = w
			w.sync(l.targets())
		}
	}
	return l, nil
}

// Server returns the MCP server that serves the libraries.
func (l *Live) Server() *serve.Server { return l.srv }

// Run keeps the catalog fresh until ctx is cancelled: it rebuilds a library
// shortly after a change under it (when watched) and everything every
// Rescan interval. It returns nil when ctx is cancelled. A while after
// each swap it returns the memory the previous catalog held to the system.
func (l *Live) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer l.rel.start(ctx)()
	defer cancel()
	var tick <-chan time.Time
	if l.opt.Rescan > 0 {
		t := time.NewTicker(l.opt.Rescan)
		defer t.Stop()
		tick = t.C
	}
	var events <-chan fsnotify.Event
	var werrs <-chan error
	if l.watcher != nil {
		events, werrs = l.watcher.w.Events, l.watcher.w.Errors
	}
	var (
		debounce *time.Timer
		fire     <-chan time.Time
		first    time.Time
		pending  = map[string]bool{}
		config   bool
	)
	defer func() {
		if debounce != nil {
			debounce.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick:
			_ = l.rescan(ctx, nil, true)
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			dirty, cfg := l.watcher.handle(ev)
			for _, ns := range dirty {
				pending[ns] = true
			}
			config = config || cfg
			if len(dirty) == 0 && !cfg {
				continue
			}
			now := time.Now()
			switch {
			case debounce == nil:
				debounce, first = time.NewTimer(l.opt.Debounce), now
				fire = debounce.C
			case fire == nil:
				debounce.Reset(l.opt.Debounce)
				first, fire = now, debounce.C
			case now.Sub(first) < maxDebounce:
				debounce.Reset(l.opt.Debounce)
			}
		case err, ok := <-werrs:
			if !ok {
				werrs = nil
				continue
			}
			// An overflow loses events: rebuild everything and rewatch.
			l.log.Warn("file watch error; rescanning", "err", err)
			l.watcher.invalidate()
			_ = l.rescan(ctx, nil, true)
		case <-fire:
			fire = nil
			dirty := make([]string, 0, len(pending))
			for ns := range pending {
				dirty = append(dirty, ns)
			}
			clear(pending)
			_ = l.rescan(ctx, dirty, config)
			config = false
		}
	}
}

// Refresh re-reads the configuration file and rebuilds every library now.
// It returns the configuration's error, if any (the previous libraries
// stay), joined with the errors of libraries that failed to build (their
// previous bundles stay). The error may be shown to clients: it names
// libraries by namespace and holds no local path.
func (l *Live) Refresh(ctx context.Context) error {
	return l.rescan(ctx, nil, true)
}

// Close stops the watch and releases the libraries' caches. Run must have
// returned.
func (l *Live) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	var err error
	if l.watcher != nil {
		err = l.watcher.w.Close()
	}
	l.closeCaches()
	return err
}

func (l *Live) closeCaches() {
	for _, st := range l.states {
		st.cache.Close()
	}
}

// rescan rebuilds the libraries named in dirty, or all of them when dirty
// is nil, after re-reading the configuration file if config is set; then it
// swaps the server's bundles if any changed.
func (l *Live) rescan(ctx context.Context, dirty []string, config bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errors.New("live: closed")
	}
	var errs []error
	full, setChanged := dirty == nil, false
	if config && l.opt.ConfigFile != "" {
		libs, noScripts, noLint, waivers, err := l.readConfig()
		switch {
		case err != nil:
			if msg := l.redact(err.Error()); msg != l.configErr {
				l.log.Warn("config reload failed, keeping previous libraries", "err", err)
				l.configErr = msg
			}
			errs = append(errs, errors.New(l.configErr))
		default:
			l.configErr = ""
			policy := noScripts != l.noScripts || noLint != l.noLint || !reflect.DeepEqual(waivers, l.waivers)
			if policy || !reflect.DeepEqual(libs, l.libs) {
				setChanged = true
				l.waivers = waivers
				l.applyConfig(libs, noScripts, noLint, policy, &dirty)
			}
		}
	}
	if l.watcher != nil && setChanged {
		// Watch a new library's folders before it is built: a file saved
		// between its scan and its watch would wait for the next rescan.
		l.watcher.sync(l.targets())
	}
	if full {
		dirty = dirty[:0]
		for _, lib := range l.libs {
			dirty = append(dirty, lib.Namespace)
		}
	}
	slices.Sort(dirty)
	for _, ns := range slices.Compact(dirty) {
		st := l.states[ns]
		if st == nil {
			continue
		}
		if err := l.buildLib(ctx, st, full); err != nil {
			if st.err == "" {
				errs = append(errs, err) // cancelled
			} else {
				errs = append(errs, errors.New(st.err))
			}
		}
	}
	l.lastScan = time.Now()
	l.scans++
	bundles := l.bundles()
	if !sameBundles(bundles, l.served) {
		if err := l.srv.Swap(bundles); err != nil {
			l.log.Error("new catalog refused, serving the previous one", "err", err)
			l.swapErr = err.Error()
			errs = append(errs, err)
		} else {
			l.served, l.swapErr = bundles, ""
			l.rel.swapped()
		}
	}
	if l.watcher != nil && full && l.watcher.needsSync() {
		l.watcher.sync(l.targets())
	}
	l.publish()
	return errors.Join(errs...)
}

// applyConfig installs a new set of libraries: new ones get a state and a
// build, removed ones are dropped, changed ones (and all of them when the
// policy changed) are rebuilt. Called with l.mu held.
func (l *Live) applyConfig(libs []build.Library, noScripts, noLint, policy bool, dirty *[]string) {
	var names []string
	keep := map[string]bool{}
	for _, lib := range libs {
		names = append(names, lib.Namespace)
		keep[lib.Namespace] = true
		st := l.states[lib.Namespace]
		switch {
		case st == nil:
			l.states[lib.Namespace] = &libState{lib: lib, cache: build.NewCache()}
			*dirty = append(*dirty, lib.Namespace)
		case !reflect.DeepEqual(st.lib, lib) || policy:
			st.lib = lib
			*dirty = append(*dirty, lib.Namespace)
		}
	}
	for ns, st := range l.states {
		if !keep[ns] {
			st.cache.Close()
			delete(l.states, ns)
		}
	}
	l.libs, l.noScripts, l.noLint = libs, noScripts, noLint
	l.log.Info("config reloaded", "libraries", strings.Join(names, ","), "noScripts", noScripts, "lint", !noLint)
}

// readConfig returns the libraries to serve: the fixed ones, then the
// configuration file's, and the effective policy.
func (l *Live) readConfig() ([]build.Library, bool, bool, []lint.Waiver, error) {
	libs := slices.Clone(l.fixed)
	noScripts, noLint, waivers := l.opt.Build.NoScripts, l.opt.Build.NoLint, l.opt.Build.Waivers
	if l.opt.ConfigFile != "" {
		c, err := build.LoadConfig(l.opt.ConfigFile)
		if err != nil {
			return nil, false, false, nil, err
		}
		libs = append(libs, c.Libraries...)
		noScripts = noScripts || c.NoScripts
		noLint = noLint || (c.Lint != nil && !*c.Lint)
		waivers = append(slices.Clone(waivers), c.Waivers...)
	}
	if err := build.CheckLibraries(libs); err != nil {
		if l.opt.ConfigFile != "" {
			return nil, false, false, nil, fmt.Errorf("config %s: %w", l.opt.ConfigFile, err)
		}
		return nil, false, false, nil, err
	}
	return libs, noScripts, noLint, waivers, nil
}

// buildLib rebuilds one library into memory. On success the new bundle
// replaces the last one unless it is the same (same id); on failure the
// last one stays, and st.err says why without local paths (the error
// returned has them, for the operator). With check, a library whose files
// and folders all look as they did for its last build is not rebuilt
// (build.Cache.Unchanged): that is what makes a periodic rescan cheap.
// Called with l.mu held.
func (l *Live) buildLib(ctx context.Context, st *libState, check bool) error {
	opt := l.opt.Build
	opt.Libraries = []build.Library{st.lib}
	opt.NoScripts, opt.NoLint, opt.Waivers = l.noScripts, l.noLint, l.waivers
	opt.Cache, opt.Context = st.cache, ctx
	ns := displayNamespace(st.lib.Namespace)
	if check && st.bundle != nil && st.cache.Unchanged(opt) {
		st.err = ""
		return nil
	}
	opt.Warn = func(s string) { l.log.Debug("build warning", "library", ns, "warning", s) }
	var buf bytes.Buffer
	if st.bundle != nil {
		buf.Grow(int(st.bundle.Size()))
	}
	start := time.Now()
	res, err := build.Build(opt, &buf)
	if err == nil && st.bundle != nil && res.ID == st.bundle.ID() {
		st.err = ""
		l.log.Debug("library unchanged", "library", ns, "took", time.Since(start))
		return nil
	}
	var b *manifest.Bundle
	if err == nil {
		b, err = build.OpenMemory(buf.Bytes())
	}
	if l.opt.Observe != nil && ctx.Err() == nil {
		l.opt.Observe(time.Since(start), err)
	}
	if err != nil {
		if ctx.Err() != nil {
			return err // cancelled: not the library's fault
		}
		if !strings.HasPrefix(err.Error(), "library ") {
			err = fmt.Errorf("library %s: %w", ns, err)
		}
		msg := l.redactLib(err.Error(), st.lib)
		if msg != st.err {
			if st.bundle != nil {
				l.log.Warn("library rebuild failed, serving its previous build", "library", ns, "err", err)
			} else {
				l.log.Warn("library build failed, not served", "library", ns, "err", err)
			}
		}
		st.err = msg
		return err
	}
	st.bundle, st.err = b, ""
	st.cache.UseBundle(b)
	l.log.Info("library built", "library", ns, "skills", res.Stats.Skills, "withheld", res.Stats.Withheld,
		"warnings", res.Stats.Warnings, "took", time.Since(start).Round(time.Millisecond), "bundle", res.ID.String()[:19])
	return nil
}

// bundles returns the fixed bundles, then each library's last good bundle
// in namespace order. Called with l.mu held.
func (l *Live) bundles() []*manifest.Bundle {
	out := slices.Clone(l.opt.Bundles)
	for _, lib := range l.libs {
		if st := l.states[lib.Namespace]; st != nil && st.bundle != nil {
			out = append(out, st.bundle)
		}
	}
	return out
}

func sameBundles(a, b []*manifest.Bundle) bool {
	return slices.EqualFunc(a, b, func(x, y *manifest.Bundle) bool { return x.ID() == y.ID() })
}

// redactLib replaces a library's local root in msg by its namespace.
func (l *Live) redactLib(msg string, lib build.Library) string {
	if lib.Root != "" {
		tag := "<" + displayNamespace(lib.Namespace) + ">"
		if abs, err := filepath.Abs(lib.Root); err == nil {
			msg = strings.ReplaceAll(msg, abs, tag)
		}
		msg = strings.ReplaceAll(msg, lib.Root, tag)
	}
	return msg
}

// redact replaces every library root and the configuration file's path in
// msg, for text that leaves the server.
func (l *Live) redact(msg string) string {
	for _, lib := range l.libs {
		msg = l.redactLib(msg, lib)
	}
	if l.opt.ConfigFile != "" {
		msg = strings.ReplaceAll(msg, l.configAbs, "<config>")
		msg = strings.ReplaceAll(msg, l.opt.ConfigFile, "<config>")
	}
	return msg
}

func displayNamespace(ns string) string {
	if ns == "" {
		return "(root)"
	}
	return ns
}

// publish records the state Status reports. Called with l.mu held.
func (l *Live) publish() {
	p := liveState{static: map[string]bool{}, configErr: l.configErr, swapErr: l.redact(l.swapErr), lastScan: l.lastScan, scans: l.scans}
	for _, lib := range l.libs {
		st := l.states[lib.Namespace]
		ls := serve.LiveLibStatus{Namespace: lib.Namespace, Error: st.err, Serving: st.bundle != nil}
		if st.bundle != nil {
			ls.Bundle = st.bundle.ID().String()
		}
		p.static[lib.Namespace] = lib.URL != ""
		p.libs = append(p.libs, ls)
	}
	l.stMu.Lock()
	l.pub = p
	l.stMu.Unlock()
}

// Status returns the state of the libraries, the watch and the rescans. It
// does not wait for a rebuild in progress: it reports the last one.
func (l *Live) Status() serve.LiveStatus {
	l.stMu.Lock()
	p := l.pub
	l.stMu.Unlock()
	s := serve.LiveStatus{
		RescanSeconds: int(l.opt.Rescan / time.Second),
		LastScan:      p.lastScan.UTC().Format(time.RFC3339),
		Scans:         p.scans,
		Watch:         "off",
	}
	var watched map[string]watchState
	if l.watcher != nil {
		watched, s.WatchedFolders = l.watcher.states()
	}
	on, off := 0, 0
	for _, ls := range p.libs {
		ns := displayNamespace(ls.Namespace)
		ls.Watch = "off"
		if p.static[ls.Namespace] {
			ls.Watch = "static"
		}
		if w, ok := watched[ls.Namespace]; ok {
			ls.Watch = w.mode
			if w.why != "" {
				s.Warnings = append(s.Warnings, fmt.Sprintf("library %s: %s", ns, w.why))
			}
		}
		switch ls.Watch {
		case "on":
			on++
		case "static":
		default:
			off++
			if l.opt.Rescan == 0 && !l.opt.NoWatch {
				s.Warnings = append(s.Warnings, fmt.Sprintf("library %s is not fully watched and rescans are off: changes appear on refresh only", ns))
			}
		}
		switch {
		case ls.Error != "" && ls.Serving:
			s.Warnings = append(s.Warnings, fmt.Sprintf("library %s: rebuild failed, serving its previous build: %s", ns, ls.Error))
		case ls.Error != "":
			s.Warnings = append(s.Warnings, fmt.Sprintf("library %s: not served: %s", ns, ls.Error))
		}
		s.Libraries = append(s.Libraries, ls)
	}
	switch {
	case on > 0 && off == 0:
		s.Watch = "on"
	case off > 0 && (on > 0 || s.WatchedFolders > 0):
		s.Watch = "partial"
	}
	if l.watchErr != "" {
		s.Warnings = append(s.Warnings, l.watchErr+"; rescans keep the catalog fresh")
	}
	if p.configErr != "" {
		s.Warnings = append(s.Warnings, "config reload failed, previous libraries kept: "+p.configErr)
	}
	if p.swapErr != "" {
		s.Warnings = append(s.Warnings, "new catalog refused, previous one served: "+p.swapErr)
	}
	return s
}

// targets lists what the watch follows: every folder library (recursively),
// and the file of every archive library and the configuration file (through
// their folders). Called with l.mu held.
func (l *Live) targets() []watchTarget {
	var ts []watchTarget
	for _, lib := range l.libs {
		if lib.Root == "" {
			continue // an https library never changes under us
		}
		abs, err := filepath.Abs(lib.Root)
		if err != nil {
			continue
		}
		// Watches follow the real folder: a root that is a symlink is
		// watched where it points.
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		fi, err := os.Stat(abs)
		dir := err == nil && fi.IsDir()
		if err != nil && !strings.HasSuffix(strings.ToLower(abs), ".zip") {
			dir = true // a folder that is missing now: watched when it comes back
		}
		ts = append(ts, watchTarget{ns: lib.Namespace, path: abs, tree: dir, exclude: l.opt.Build.Exclude})
	}
	if l.configAbs != "" {
		p := l.configAbs
		if real, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
			p = filepath.Join(real, filepath.Base(p))
		}
		ts = append(ts, watchTarget{path: p, config: true})
	}
	return ts
}
