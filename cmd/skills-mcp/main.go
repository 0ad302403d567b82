// Command skills-mcp builds, inspects, verifies and serves bundles of Agent
// Skills over the Model Context Protocol.
//
// This package is only the command line: kong wiring around the manifest,
// build, serve and pull packages. It is the one place that exits.
package main

// docs/cli.md is every command's --help; TestCLIReference fails when it is stale.
//go:generate go test -run ^TestCLIReference$ . -args -update-cli-doc
// servetree.go is the stdio tree's types without help; TestServeTree fails when it is stale.
//go:generate go test -run ^TestServeTree$ . -args -update-serve-tree

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/signal"
	"reflect"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"
)

// CLI is the command tree.
type CLI struct {
	Build    BuildCmd   `cmd:"" help:"Scan skill libraries and write one content-addressed bundle (.skb)."`
	Lint     LintCmd    `cmd:"" help:"Validate and lint skill libraries; exit 1 when a skill is withheld."`
	Inspect  InspectCmd `cmd:"" help:"Describe a bundle: id, libraries, skills, files, warnings, findings."`
	Verify   VerifyCmd  `cmd:"" help:"Re-hash every blob of a bundle against its manifest; with --trust, also require a trusted signature."`
	ServeCLI `embed:""`
	Keygen   KeygenCmd `cmd:"" help:"Write an Ed25519 signing key pair (OpenSSH private key, ssh-ed25519, allowed_signers and minisign public keys)."`
	Sign     SignCmd   `cmd:"" help:"Sign a bundle's manifest (SSHSIG and minisign); the bundle id does not change."`
	Export   ExportCmd `cmd:"" help:"Write a bundle as manifest.json, its signatures, blobs/sha256/<hex> and SHA256SUMS, for stock tools."`
	Pull     PullCmd   `cmd:"" help:"Copy skills to disk from a bundle, an https bundle, an export folder or a live SEP-2640 server, verifying every byte."`
	Push     PushCmd   `cmd:"" help:"Push a bundle to an OCI registry (oci://HOST/REPO:TAG) and print its digest; signatures are attached as referrers."`
	Diff     DiffCmd   `cmd:"" help:"Compare two releases (anything pull --from takes): skills added, removed, renamed and changed, and new findings and capabilities. Exit 0 identical, 1 different, 2 error."`
}

// ServeCLI is the part of the command tree that serving needs: the serve
// command, which is the default, and --version. run parses with it alone
// when the arguments cannot mean anything else (see parse).
type ServeCLI struct {
	Serve   ServeCmd         `cmd:"" default:"withargs" help:"Serve bundles (or library folders) over MCP: stdio, or streamable HTTP with --http."`
	Version kong.VersionFlag `help:"Print the version and exit."`
	// StallTimeout is every outbound request's idle bound (see outbound).
	StallTimeout time.Duration `name:"stall-timeout" env:"SKILLS_STALL_TIMEOUT" default:"10s" help:"Give up on a site, registry or issuer that sends nothing for this long: connecting, awaiting the answer, or between bytes of it (0: never)."`
}

// ServeStdioCLI is ServeCLI without the HTTP endpoint's flags (HTTPFlags,
// a third of serve's): the tree a host's `skills-mcp serve ...` over stdio
// is parsed with first (see parse), in its bare types (servetree.go: the
// same fields without help texts, which kong would read through).
type ServeStdioCLI struct {
	Serve        ServeStdioCmd    `cmd:"" default:"withargs" help:"Serve bundles (or library folders) over MCP: stdio, or streamable HTTP with --http."`
	Version      kong.VersionFlag `help:"Print the version and exit."`
	StallTimeout time.Duration    `name:"stall-timeout" env:"SKILLS_STALL_TIMEOUT" default:"10s" help:"Give up on a site, registry or issuer that sends nothing for this long: connecting, awaiting the answer, or between bytes of it (0: never)."`
}

// parse parses args with the whole command tree, or with ServeCLI alone when
// args name no other command and ask for no help. Kong builds its model of
// every command and flag up front, reading every struct tag, which a fresh
// process pays for before the first answer a host waits for; ServeCLI is a
// fraction of the whole tree, and the stdio tree (ServeStdioCLI's bare
// types), tried first, a fraction of ServeCLI. The trees hold the same
// flags (TestServeTreesLikeWhole), so they parse serve's arguments alike;
// arguments or environment that ask for HTTP go to ServeCLI (so do HTTP
// flags set in the environment, see httpEnvSet), and an error is reported
// by the whole tree. options are given to every tree (the tests' writers).
func parse(args []string, options ...kong.Option) (*kong.Context, error) {
	if servesOnly(args) {
		var stdio bareServeStdioCLI
		if kctx, err := newServeParser(&stdio, options...).Parse(args); err == nil && stdio.Serve.ServeFlags.HTTP == "" && !httpEnvSet() {
			return kctx, nil
		}
		if kctx, err := newServeParser(&ServeCLI{}, options...).Parse(args); err == nil {
			return kctx, nil
		}
	}
	return newParser(&CLI{}, options...).Parse(args)
}

// newServeParser is newParser for a serve-only tree, which parse tries
// before the whole one. Such a tree never shows help: a help flag or an
// error goes to the whole tree, which tells it as for every command. So it
// has no help flag, and its help texts are dropped before kong
// interpolates them (a regular-expression scan of every text for ${var}).
func newServeParser(grammar any, options ...kong.Option) *kong.Kong {
	return newParser(grammar, append([]kong.Option{kong.NoDefaultHelp(), kong.PostBuild(dropHelp)}, options...)...)
}

// Run is ServeStdioCmd.Run of the flags kong parsed into the bare tree.
func (b *bareServeStdioCmd) Run(ctx context.Context, log *slog.Logger, early earlyBundles) error {
	var c ServeStdioCmd
	copyFields(reflect.ValueOf(&c).Elem(), reflect.ValueOf(b).Elem())
	return c.Run(ctx, log, early)
}

// copyFields copies struct src into dst field by field, through the flag
// groups: dst is a type of the stdio tree and src its bare type, which has
// its exported fields by the same names (TestCopyFields).
func copyFields(dst, src reflect.Value) {
	for i := range src.NumField() {
		d, s := dst.FieldByName(src.Type().Field(i).Name), src.Field(i)
		if s.Kind() == reflect.Struct && s.Type() != d.Type() {
			copyFields(d, s)
		} else {
			d.Set(s)
		}
	}
}

// dropHelp empties the help texts of k's model.
func dropHelp(k *kong.Kong) error {
	return kong.Visit(k.Model, func(n kong.Visitable, next kong.Next) error {
		switch n := n.(type) {
		case *kong.Application:
			n.Help, n.Detail = "", ""
		case *kong.Node:
			n.Help, n.Detail = "", ""
		case *kong.Value:
			n.Help = ""
		}
		return next(nil)
	})
}

// httpEnvSet reports whether the environment sets a flag of the HTTP
// endpoint (HTTPFlags). The stdio tree has none of them, so kong would
// neither read one nor refuse a bad value there: the tree that has them
// must parse.
func httpEnvSet() bool {
	t := reflect.TypeFor[HTTPFlags]()
	for i := range t.NumField() {
		for _, env := range strings.Split(t.Field(i).Tag.Get("env"), ",") {
			if _, ok := os.LookupEnv(env); ok && env != "" {
				return true
			}
		}
	}
	return false
}

// servesOnly reports whether args can only mean serve: no argument is
// another command's name or a help flag.
func servesOnly(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "--help", "build", "lint", "inspect", "verify", "keygen", "sign", "export", "pull", "push", "diff":
			return false
		}
	}
	return true
}

// newParser returns kong's parser for the command tree grammar points to.
func newParser(grammar any, options ...kong.Option) *kong.Kong {
	return kong.Must(grammar, append([]kong.Option{
		kong.Name("skills-mcp"),
		kong.Description("Publish Agent Skills (folders with SKILL.md) to AI agents over MCP, from immutable, verifiable bundles."),
		kong.UsageOnError(),
		kong.Vars{"version": versionString()},
	}, options...)...)
}

// signalContext is what signal.NotifyContext returns.
type signalContext struct {
	ctx  context.Context
	stop context.CancelFunc
}

// utcTime writes log times in UTC. Local time would load the time zone
// database at the first log line, a third of a millisecond of a fresh
// serve's path to its first answer.
func utcTime(groups []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey && len(groups) == 0 {
		a.Value = slog.TimeValue(a.Value.Time().UTC())
	}
	return a
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	args, serverArgv := splitCommand(args)
	// Signals cancel ctx. Setting that up starts a thread (0.8 ms in a fresh
	// process), done on another core while kong parses.
	signals := make(chan signalContext, 1)
	go func() {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		signals <- signalContext{ctx, stop}
	}()
	var early earlyBundles
	if servesOnly(args) {
		early = openEarly(args)
		defer early.close()
	}
	kctx, err := parse(args)
	sc := <-signals
	defer sc.stop()
	if err != nil {
		stderr.fail(err)
		return exitUsage
	}
	ctx := sc.ctx
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo, ReplaceAttr: utcTime}))
	outbound = outboundClient(kctx)
	kctx.BindTo(ctx, (*context.Context)(nil))
	kctx.Bind(log)
	kctx.Bind(serverArgv)
	kctx.Bind(early)
	if err := kctx.Run(); err != nil {
		code := exitFailed
		var ee *exitError
		if errors.As(err, &ee) {
			code = ee.code
		}
		if errors.Is(err, errDiffer) {
			stderr.end() // diff's exit 1 says it all, as diff(1)'s does
			return code
		}
		stderr.fail(err)
		return code
	}
	stderr.end()
	return exitOK
}
