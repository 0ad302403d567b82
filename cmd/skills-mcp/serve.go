package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"

	"github.com/alecthomas/kong"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/live"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/serve/usage"
	"github.com/skills-mcp/skills-mcp/teamserver"
)

// Run is ServeCmd.Run, the HTTP endpoint's flags unset (stdio reads none).
func (s *ServeStdioCmd) Run(ctx context.Context, log *slog.Logger, early earlyBundles) error {
	return (&ServeCmd{ServeFlags: s.ServeFlags}).Run(ctx, log, early)
}

var serverName = &lazyre.RE{Expr: `^[A-Za-z0-9_-]+$`}

// Run opens the bundles (and builds the libraries, if any), then serves
// until the client leaves (stdio) or ctx is cancelled (SIGINT, SIGTERM).
// Bundles that run opened early are taken from early.
func (c *ServeCmd) Run(ctx context.Context, log *slog.Logger, early earlyBundles) (err error) {
	if !serverName.MatchString(c.Name) {
		return fmt.Errorf("serve: --name %q: use letters, digits, - and _ only", c.Name)
	}
	if c.PromptLimit < 0 {
		return fmt.Errorf("serve: --prompt-limit %d: give 0 (no per-skill prompts) or more", c.PromptLimit)
	}
	var bundles []*manifest.Bundle
	defer func() {
		for _, b := range bundles {
			err = errors.Join(err, b.Close())
		}
	}()
	signers := map[*manifest.Bundle][]string{}
	files, libs, err := c.arguments()
	if err != nil {
		return err
	}
	var spec trustSpec
	if c.Trust != "" || c.Keyless.TrustedRoot != "" {
		if spec, err = loadTrustSpec(c.Trust, &c.Keyless); err != nil {
			return err
		}
	}
	c.Registry.cosign = spec.cosign
	var follow *following
	if c.Follow < 0 {
		return &exitError{exitUsage, fmt.Errorf("serve: --follow %v: give a positive interval", c.Follow)}
	}
	if c.Follow > 0 {
		if len(libs) > 0 || c.Lib.Given() {
			return &exitError{exitUsage, errors.New("serve: --follow follows oci://…:TAG references, https bundle URLs and discovery sites given as arguments; library folders, archives and --lib, --root or --config libraries are kept fresh already (the file watch, --rescan-seconds, SIGHUP): serve them without --follow, or from another process")}
		}
		if follow, files, err = c.startFollow(ctx, log, files, spec); err != nil {
			return err
		}
	}
	// Over stdio, with nothing else to check before serving, the bundles'
	// manifests are hashed while the server is made and the first
	// requests are handled; ServeStdio writes nothing before they pass.
	open := early.open
	if c.HTTP == "" && follow == nil && len(libs) == 0 && !c.Lib.Given() && spec.keys == nil {
		open = early.openUnverified
	}
	for _, p := range files {
		f, err := c.Registry.withLibrary(&c.Lib).fetch(ctx, p, c.Lib.CacheDir, spec.keys, slogNote(log))
		if err != nil {
			return trustExit(fmt.Errorf("serve: %w", err), exitFailed)
		}
		path := p
		if f != nil {
			path = f.Path
		}
		b, err := open(path)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		bundles = append(bundles, b)
		if spec.keys != nil {
			who, err := spec.check(b, c.Trust, f)
			if err != nil {
				return fmt.Errorf("serve: %s: %w", p, err)
			}
			signers[b] = []string{who}
			log.Info("bundle signature verified", "bundle", p, "id", b.ID().String(), "signer", who)
		}
	}
	if len(bundles) == 0 && len(libs) == 0 && !c.Lib.Given() && follow == nil {
		return errors.New("serve: nothing to serve: give bundle files (.skb), library folders, or --root, --lib or --config")
	}
	opts := serve.Options{
		Name:           c.Name,
		Title:          c.Title,
		Version:        versionString(),
		ShowDisabled:   c.ShowDisabled,
		Prefix:         c.Prefix,
		DescribeSkills: c.Describe,
		PromptLimit:    promptLimit(c.PromptLimit),
		Catalog:        serve.CatalogMode(c.Catalog),
		Logger:         log,
		SignedBy:       signedBy(c.Trust, signers),
		AnswerBytes:    answerBytes(c.AnswerCache),
	}
	var check func(context.Context) error // the follower's, once it runs
	if follow != nil {
		opts.Refresh = live.Gate(func(ctx context.Context) error { return check(ctx) }, log)
		if opts.SignedBy != nil {
			opts.SignedBy = func(b *manifest.Bundle) []string {
				if who := signers[b]; who != nil {
					return who
				}
				return follow.signers.get(b)
			}
		}
	}
	if c.HTTP != "" {
		c.Web.metrics = teamserver.NewMetrics()
	}
	var srv *serve.Server
	if len(libs) > 0 || c.Lib.Given() {
		l, stop, err := c.serveLive(ctx, log, bundles, libs, opts)
		if err != nil {
			return err
		}
		defer stop()
		srv = l.Server()
	} else if follow != nil {
		if srv, err = serve.New(append(slices.Clone(bundles), follow.bundles()...), opts); err != nil {
			return err
		}
		stop, err := follow.run(ctx, c, log, srv, bundles, &check)
		if err != nil {
			return err
		}
		defer stop()
	} else {
		tuneGC(bundles)
		if srv, err = serve.New(bundles, opts); err != nil {
			return err
		}
	}
	ulog, closeUsage, err := c.usageLog(log)
	if err != nil {
		return err
	}
	defer closeUsage()
	if c.HTTP == "" {
		if ulog != nil {
			srv.ObserveUsage(ulog)
		}
		err := srv.ServeStdio(ctx)
		if ce := (*manifest.CorruptError)(nil); errors.As(err, &ce) {
			return fmt.Errorf("serve: %w", bundleError(ce.Bundle, err))
		}
		return err
	}
	hopt, err := c.Web.options(ctx, log, c.AllowedHosts)
	if err != nil {
		return err
	}
	if ulog != nil {
		hopt.Usage = []usage.Observer{ulog}
	}
	return teamserver.ListenAndServe(ctx, srv, httpAddress(c.HTTP, c.Host), hopt)
}

// answerBytes maps --answer-cache-mib to serve.Options.AnswerBytes, where
// 0 means the default and a negative budget none.
func answerBytes(mib int) int {
	if mib <= 0 {
		return -1
	}
	return mib << 20
}

// promptLimit maps --prompt-limit to serve.Options.PromptLimit, where 0
// means the default and a negative limit none.
func promptLimit(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// earlyBundles are bundle files being opened while kong parses the command
// line, by the path kong makes of the argument (see openEarly).
type earlyBundles map[string]chan openedBundle

type openedBundle struct {
	b   *manifest.Bundle
	err error
}

// openEarly starts opening, each on a goroutine of its own, the arguments
// that name .skb files; once a bundle's structure is checked, the goroutine
// hands it over and goes on to hash its manifest (see
// manifest.OpenFileUnverified). In a fresh process kong takes some 3 ms to
// build its model, and opening a bundle (which hashes its manifest) 1.4 ms
// for 1,000 skills; on two cores they overlap, and a host gets its first
// answer 1-2 ms sooner. An argument that turns out to be something else (a
// flag's value) is closed unused.
func openEarly(args []string) earlyBundles {
	early := earlyBundles{}
	for _, a := range args {
		if !strings.HasSuffix(a, ".skb") || strings.HasPrefix(a, "-") {
			continue
		}
		p := kong.ExpandPath(a)
		if _, ok := early[p]; ok {
			continue
		}
		ch := make(chan openedBundle, 1)
		early[p] = ch
		go func() {
			b, err := manifest.OpenFileUnverified(p)
			ch <- openedBundle{b, bundleError(p, err)}
			if err == nil {
				b.Verified()
			}
		}()
	}
	return early
}

// open returns the bundle file at path, opened early or now, verified.
func (e earlyBundles) open(path string) (*manifest.Bundle, error) {
	b, err := e.openUnverified(path)
	if err != nil {
		return nil, err
	}
	if err := b.Verified(); err != nil {
		b.Close()
		return nil, bundleError(path, err)
	}
	return b, nil
}

// openUnverified is open for a caller that checks the bundle's Verified
// before it serves anything from it.
func (e earlyBundles) openUnverified(path string) (*manifest.Bundle, error) {
	ch, ok := e[path]
	if !ok {
		return openBundle(path)
	}
	delete(e, path)
	o := <-ch
	return o.b, o.err
}

// close closes the bundles opened early and not taken.
func (e earlyBundles) close() {
	for p, ch := range e {
		if o := <-ch; o.err == nil {
			o.b.Close()
		}
		delete(e, p)
	}
}

// arguments sorts the arguments (and SKILLS_DIR) into bundle files and
// library folders or archives. An argument that is not a path is split at
// commas (Skilljack's /a,/b form).
func (c *ServeCmd) arguments() (files, libs []string, err error) {
	var args []string
	for _, a := range append(slices.Clone(c.Bundles), c.SkillsDir...) {
		if oci.IsRef(a) || isURL(a) {
			args = append(args, a)
			continue
		}
		a = kong.ExpandPath(a)
		if _, err := os.Stat(a); err != nil && strings.Contains(a, ",") {
			for _, p := range strings.Split(a, ",") {
				if p = strings.TrimSpace(p); p != "" {
					args = append(args, p)
				}
			}
			continue
		}
		args = append(args, a)
	}
	for _, a := range args {
		if oci.IsRef(a) {
			files = append(files, a)
			continue
		}
		if isURL(a) {
			if c.Follow == 0 {
				return nil, nil, &exitError{exitUsage, fmt.Errorf("serve: %s: a URL argument is followed (--follow DURATION): a bundle file or a discovery site; serve a site once with --lib NS=URL", redactArg(a))}
			}
			files = append(files, a)
			continue
		}
		fi, err := os.Stat(a)
		switch {
		case err != nil:
			return nil, nil, fmt.Errorf("serve: %w", err)
		case fi.IsDir(), strings.EqualFold(filepath.Ext(a), ".zip"):
			libs = append(libs, a)
		default:
			files = append(files, a)
		}
	}
	return files, libs, nil
}

// serveLive builds the libraries of the flags and the library arguments,
// starts keeping them fresh, and reloads them on SIGHUP; stop ends all that.
// One library argument alone is served like --root; otherwise each is named
// after its folder (or archive, without .zip).
func (c *ServeCmd) serveLive(ctx context.Context, log *slog.Logger, bundles []*manifest.Bundle, libs []string, opts serve.Options) (*live.Live, func(), error) {
	fl := &c.Lib
	// The configuration file's libraries and policy belong to Live, which
	// reads it (and re-reads it on SIGHUP); the command line's stay fixed.
	opt, err := fl.policy(log)
	if err != nil {
		return nil, nil, fmt.Errorf("serve: %w", err)
	}
	named, err := fl.named()
	if err != nil {
		return nil, nil, fmt.Errorf("serve: %w", err)
	}
	if len(libs) == 1 && !fl.Given() {
		named = []build.Library{{Root: libs[0]}}
	} else {
		for _, p := range libs {
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, nil, fmt.Errorf("serve: %w", err)
			}
			name := filepath.Base(abs)
			if strings.EqualFold(filepath.Ext(name), ".zip") {
				name = name[:len(name)-len(".zip")]
			}
			named = append(named, build.Library{Namespace: name, Root: p})
		}
	}
	if len(named) > 0 {
		if err := build.CheckLibraries(named); err != nil {
			return nil, nil, fmt.Errorf("serve: %w", err)
		}
	}
	opt.Libraries = named
	opt.Context = ctx
	l, err := live.New(live.Options{
		Build:      opt,
		ConfigFile: fl.Config,
		Bundles:    bundles,
		Server:     opts,
		Rescan:     time.Duration(max(c.Rescan, 0)) * time.Second,
		NoWatch:    !c.Watch,
		Observe:    c.Web.metrics.ObserveRebuild,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("serve: %w", err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = l.Run(runCtx)
	}()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		for {
			select {
			case <-runCtx.Done():
				return
			case <-hup:
				log.Info("SIGHUP: reloading the configuration and rescanning")
				if err := l.Refresh(runCtx); err != nil {
					log.Warn("reload incomplete", "err", err)
				}
			}
		}
	}()
	stop := func() {
		signal.Stop(hup)
		cancel()
		<-done
		l.Close()
	}
	return l, stop, nil
}

// tuneGC sets the garbage collector for a long-running server, unless GOGC
// or GOMEMLIMIT is set.
//
// The SDK allocates some 400 KiB of short-lived buffers per HTTP request (a
// fresh 32 KiB buffer each of the nine or so times it decodes part of the
// message), and a collection costs about 2 ms of CPU however much garbage
// it frees. So what a request costs in GC is set by how much garbage may
// pile up between collections: with 32 clients reading, the Go default
// (or GOGC=400 with a few MiB live) collects every 30 requests, about 75 µs
// of the ~300 µs a read costs; a 64 MiB heap would collect every 130, about
// 17 µs. Memory is the price, and issue 3 allows 40 MiB resident for a
// 10,000-skill server.
//
// So the heap gets all of that budget that the rest does not use: the
// binary's resident code and data (some 8 MiB, counted as 10) and the bundle
// files, mapped and resident once the catalog is listed and its files read.
// GOGC is off and that budget is the memory limit, so the collector runs only
// when garbage fills it: some 28 MiB for a 1,000-skill bundle (37 MiB
// resident under HTTP load), 17 MiB for 10,000 skills (37 MiB peak over
// stdio), and never less than 16 MiB. A limit alone would make the
// collector run back to back once the live heap nears it (the search index
// over 10,000 skills is 15 MiB), so once a second the limit is raised to
// twice the live heap plus 8 MiB when that is more: like GOGC=100 for a
// large heap.
//
// Live libraries keep whole bundles in the heap and rebuild them, so a
// server with any keeps the defaults.
func tuneGC(bundles []*manifest.Bundle) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	const resident, binary, least = 40 << 20, 10 << 20, 16 << 20
	budget := int64(resident - binary)
	for _, b := range bundles {
		budget -= b.Size()
	}
	budget = max(budget, least)
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(budget)
	go func() {
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for range time.Tick(time.Second) {
			metrics.Read(live)
			debug.SetMemoryLimit(max(budget, 2*int64(live[0].Value.Uint64())+8<<20))
		}
	}()
}

// httpAddress gives a bare PORT (or :PORT) the host of --host.
func httpAddress(addr, host string) string {
	if !strings.Contains(addr, ":") {
		return net.JoinHostPort(host, addr)
	}
	if port, ok := strings.CutPrefix(addr, ":"); ok {
		return net.JoinHostPort(host, port)
	}
	return addr
}

// signedBy reports, for catalog_status, who signed each bundle file checked
// with --trust; nil when no trust file was given.
func signedBy(trust string, signers map[*manifest.Bundle][]string) func(*manifest.Bundle) []string {
	if trust == "" {
		return nil
	}
	return func(b *manifest.Bundle) []string { return signers[b] }
}
