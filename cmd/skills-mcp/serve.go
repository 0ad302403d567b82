package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// ServeCmd serves bundles over MCP: over stdio by default, or over
// streamable HTTP at /mcp with --http. With library flags it first builds
// the libraries into a bundle in memory and serves that too.
type ServeCmd struct {
	Bundles      []string `arg:"" optional:"" type:"existingfile" placeholder:"BUNDLE.skb" help:"Bundle files to serve together (opened memory-mapped)."`
	HTTP         string   `name:"http" env:"SKILLS_HTTP" placeholder:"[HOST:]PORT" help:"Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio."`
	Host         string   `name:"host" env:"SKILLS_HOST" default:"127.0.0.1" help:"Bind host when --http gives only a port. 0.0.0.0 or :: need --allowed-hosts."`
	AllowedHosts []string `name:"allowed-hosts" env:"SKILLS_ALLOWED_HOSTS" sep:"," placeholder:"HOST" help:"Host names (or HOST:PORT) clients may use in Host and Origin headers, besides localhost."`
	Name         string   `name:"name" env:"SKILLS_NAME" default:"skills-mcp" help:"Server name announced to clients (letters, digits, - and _)."`
	Title        string   `name:"title" env:"SKILLS_TITLE" help:"Human-readable server title."`
	ShowDisabled bool     `name:"show-disabled" env:"SKILLS_SHOW_DISABLED" help:"List skills with disable-model-invocation too (they are always readable)."`
	Prefix       string   `name:"prefix" env:"SKILLS_TOOL_PREFIX" help:"Prefix of the discovery tools' names (PREFIX_search_skills, …); default: --name with - changed to _."`
	Trust        string   `name:"trust" env:"SKILLS_TRUST" placeholder:"KEY_OR_ALLOWED_SIGNERS" help:"Refuse to start unless every bundle file carries a valid signature from a key in this file."`
	Describe     bool     `name:"describe-skills" env:"SKILLS_DESCRIBE_SKILLS" help:"List the skills (names and descriptions, up to 8 KiB) in the get_skill tool's description, for hosts without tool search."`

	Lib LibraryFlags `embed:""`
}

var serverName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Run opens the bundles (and builds the libraries, if any), then serves
// until the client leaves (stdio) or ctx is cancelled (SIGINT, SIGTERM).
func (c *ServeCmd) Run(ctx context.Context, log *slog.Logger) (err error) {
	if !serverName.MatchString(c.Name) {
		return fmt.Errorf("serve: --name %q: use letters, digits, - and _ only", c.Name)
	}
	var bundles []*manifest.Bundle
	defer func() {
		for _, b := range bundles {
			err = errors.Join(err, b.Close())
		}
	}()
	signers := map[*manifest.Bundle][]string{}
	for _, p := range c.Bundles {
		b, err := manifest.OpenFile(p)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		bundles = append(bundles, b)
		if c.Trust != "" {
			who, err := checkTrust(b, c.Trust)
			if err != nil {
				return fmt.Errorf("serve: %s: %w", p, err)
			}
			signers[b] = []string{who}
			log.Info("bundle signature verified", "bundle", p, "id", b.ID().String(), "signer", who)
		}
	}
	if c.Lib.Given() {
		b, err := c.Lib.BuildBundle(ctx, log)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		bundles = append(bundles, b)
	}
	if len(bundles) == 0 {
		return errors.New("serve: nothing to serve: give bundle files (.skb) or --root, --lib or --config")
	}
	tuneGC(bundles)
	srv, err := serve.New(bundles, serve.Options{
		Name:           c.Name,
		Title:          c.Title,
		Version:        version,
		ShowDisabled:   c.ShowDisabled,
		Prefix:         c.Prefix,
		DescribeSkills: c.Describe,
		Logger:         log,
		SignedBy:       signedBy(c.Trust, signers),
	})
	if err != nil {
		return err
	}
	if c.HTTP == "" {
		return srv.ServeStdio(ctx)
	}
	return srv.ListenAndServe(ctx, httpAddress(c.HTTP, c.Host), c.AllowedHosts)
}

// tuneGC sets the garbage collector for a long-running server, unless GOGC
// or GOMEMLIMIT is set. The SDK allocates some 350 KiB of short-lived
// buffers per HTTP request, so with the default GOGC=100 and a small live
// heap the collector runs every few requests. Instead the heap may grow to
// five times the live heap (GOGC=400), but not past a budget of 16 MiB
// above the manifests, which are most of the live heap (pointer-free bytes,
// cheap to mark), and at least 26 MiB: a 10,000-skill server stays under
// 40 MiB resident and collects rarely.
func tuneGC(bundles []*manifest.Bundle) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	var live int64
	for _, b := range bundles {
		live += int64(len(b.ManifestBytes()))
	}
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(max(26<<20, live+16<<20))
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
