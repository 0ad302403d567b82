package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
	"github.com/skills-mcp/skills-mcp/pull"
)

// PullCmd is `skills-mcp pull`.
type PullCmd struct {
	Skills []string `arg:"" optional:"" placeholder:"SKILL" help:"Skills to pull: a bare name when unique, NS/NAME, the skill path, or the full skill:// URI."`

	From          string        `name:"from" placeholder:"X.skb|https://.../X.skb#sha256=<hex>|oci://...|DIR|https://HOST" help:"Pull from a bundle file, a bundle over https (pinned by #sha256=<hex>), a bundle or ToolHive skill in a registry (oci://HOST/REPO:TAG or @sha256:...), a folder written by export, or an Agent Skills discovery site (https://HOST, or its .../index.json)."`
	URL           string        `name:"url" placeholder:"http://HOST:PORT/mcp" help:"Pull from a live SEP-2640 server over streamable HTTP."`
	Header        []string      `name:"header" placeholder:"'NAME: VALUE'" help:"Send this header with every request to --url (repeatable), e.g. 'Authorization: Bearer ...'; prefer SKILLS_PULL_TOKEN, which ps does not show."`
	Token         string        `name:"bearer-token" env:"SKILLS_PULL_TOKEN" placeholder:"TOKEN" help:"Send Authorization: Bearer TOKEN to --url."`
	OAuth         bool          `name:"oauth" help:"When --url answers 401 naming an OAuth authorization server, sign in: the authorization URL is printed on stderr (and opened in a browser), and pull waits for its redirect to a loopback port. The token is kept in memory for this pull only."`
	OAuthClientID string        `name:"oauth-client-id" env:"SKILLS_PULL_OAUTH_CLIENT_ID" placeholder:"ID" help:"With --oauth: a public client registered with the authorization server, allowed the redirect http://127.0.0.1:PORT/callback. Without it, pull registers itself (RFC 7591) where the server allows."`
	OAuthPort     int           `name:"oauth-callback-port" placeholder:"PORT" help:"With --oauth: the loopback port of the redirect URI (default: any free port)."`
	OAuthTimeout  time.Duration `name:"oauth-timeout" default:"5m" help:"With --oauth: how long to wait for the sign-in."`
	NoBrowser     bool          `name:"no-browser" help:"With --oauth: only print the authorization URL; open no browser."`
	Command       bool          `name:"command" help:"Pull from a live SEP-2640 server run over stdio: everything after --command is the server's command line (CMD ARGS...), so put it last."`

	List     bool         `help:"List the skills the source offers and exit."`
	All      bool         `help:"Pull every skill."`
	To       string       `default:"." placeholder:"DIR" help:"Folder to write skills into (created if missing)."`
	KeepPath bool         `name:"keep-path" help:"Write each skill to DIR/<skill path> (namespace and folders) instead of DIR/<name>."`
	Force    bool         `help:"Overwrite files of an existing skill folder that differ; extra files are kept."`
	Sync     bool         `help:"Update existing skill folders in place: keep files that match, fetch what differs, delete files the skill no longer has."`
	DryRun   bool         `name:"dry-run" help:"Read and verify everything, write nothing."`
	Frozen   bool         `name:"frozen" help:"Install exactly what DIR/skills.lock.json names, from the sources it names (or the one given), and refuse any drift (a moved tag, a changed file, a skill gone upstream, a skill modified locally without --force) with exit 1, writing nothing."`
	Check    bool         `name:"check" help:"Change nothing; report each skill of DIR/skills.lock.json as up to date, update available, removed upstream or modified locally. Exit 0 up to date, 1 updates available, 3 modified locally, 2 error."`
	JSON     bool         `name:"json" help:"Print a machine-readable summary (or listing) as JSON on stdout."`
	Trust    string       `placeholder:"KEYS" help:"Require a valid signature by a trusted key, checked before anything is written: KEYS as for verify --trust (allowed_signers, ssh-ed25519 lines, a minisign .pub file or the RW... string, or cosign.pub for oci:// artifacts). Bundles, exports and discovery sites that publish a signed manifest."`
	Keyless  KeylessFlags `embed:""`

	AllowUnverified bool          `name:"allow-unverified" help:"Read a v0.1.0 discovery index, which publishes no digests: its files cannot be verified."`
	SkipInvalid     bool          `name:"skip-invalid" help:"Exit 0 when the source offers skills that pull refuses (unsafe paths, names, no digests): they are skipped with a warning. Without it they make pull exit 1."`
	LegacyProtocol  bool          `name:"legacy-protocol" help:"Talk protocol revision 2025-11-25 to a live server instead of negotiating."`
	Timeout         time.Duration `name:"timeout" default:"30m" help:"Give up on the whole pull after this long (0: never); skills not yet written are left as they were."`
	RequestTimeout  time.Duration `name:"request-timeout" default:"1m" help:"Give up on a live server's answer to one request after this long (0: never)."`
	MaxPages        int           `name:"max-pages" default:"1000" help:"Most skills/list pages to walk on a live server."`
	MaxDownload     int64         `name:"max-download-bytes" env:"SKILLS_MAX_DOWNLOAD_BYTES" default:"268435456" help:"Largest bundle to download over https; for a discovery site, the most bytes downloaded from it (index and artifacts together)."`
	Archive         ArchiveFlags  `embed:""`

	Registry RegistryFlags `embed:""`
	Cache    CacheFlag     `embed:""`

	ociResolved string // the digest an oci:// source resolved to, for the lock
}

// commandArgv is the server command line that followed `pull --command`,
// cut from the arguments before flag parsing (see splitCommand).
type commandArgv []string

// splitCommand cuts `pull … --command CMD ARGS…` so that CMD ARGS… reach the
// pull command untouched: they are the server's arguments, not ours. It
// leaves a bare --command flag in their place.
func splitCommand(args []string) ([]string, commandArgv) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		i++
	}
	if i == len(args) || args[i] != "pull" {
		return args, nil
	}
	for j := i + 1; j < len(args); j++ {
		if args[j] == "--" {
			break
		}
		if args[j] == "--command" {
			return args[: j+1 : j+1], commandArgv(args[j+1:])
		}
	}
	return args, nil
}

func (c *PullCmd) connectOptions(name, proto string) pull.ConnectOptions {
	rt := c.RequestTimeout
	if rt == 0 {
		rt = -1 // no request timeout
	}
	return pull.ConnectOptions{Name: name, ProtocolVersion: proto, Version: versionString(), RequestTimeout: rt, MaxPages: c.MaxPages, HTTPClient: outbound}
}

// header returns the headers of --header and SKILLS_PULL_TOKEN; an error
// names the flag, never the value.
func (c *PullCmd) header() (http.Header, error) {
	h := http.Header{}
	for i, kv := range c.Header {
		k, v, ok := strings.Cut(kv, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t\r\n") || strings.ContainsAny(v, "\r\n") {
			return nil, fmt.Errorf("pull: --header %d: want 'NAME: VALUE'", i+1)
		}
		h.Add(k, strings.TrimSpace(v))
	}
	if t := strings.TrimSpace(c.Token); t != "" {
		if strings.ContainsAny(t, " \t\r\n") {
			return nil, errors.New("pull: SKILLS_PULL_TOKEN holds white space")
		}
		h.Set("Authorization", "Bearer "+t)
	}
	return h, nil
}

func (c *PullCmd) open(ctx context.Context, argv commandArgv, trusted []manifest.TrustedKey) (*pull.Source, error) {
	proto := ""
	if c.LegacyProtocol {
		proto = pull.LegacyProtocol
	}
	switch {
	case c.URL != "":
		l := strings.ToLower(c.URL)
		if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
			return nil, fmt.Errorf("--url %q: want an http:// or https:// MCP endpoint", c.URL)
		}
		opt := c.connectOptions(c.URL, proto)
		h, err := c.header()
		if err != nil {
			return nil, err
		}
		opt.Header = h
		if c.OAuth {
			if h.Get("Authorization") != "" {
				return nil, &exitError{exitUsage, errors.New("--oauth signs in for a token: give no Authorization (--header or SKILLS_PULL_TOKEN) with it")}
			}
			wait := c.OAuthTimeout
			if wait <= 0 {
				wait = pull.DefaultSignInTimeout
			}
			opt.OAuth = &pull.OAuthOptions{ClientID: c.OAuthClientID, CallbackPort: c.OAuthPort, Timeout: wait,
				Open: signInPrompt(c.URL, c.NoBrowser, wait)}
		}
		return pull.ConnectHTTP(ctx, c.URL, opt)
	case c.Command:
		stderr := &tailBuffer{max: 4 << 10}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stderr = stderr
		src, err := pull.ConnectCommand(ctx, cmd, c.connectOptions(strings.Join(argv, " "), proto))
		if err != nil {
			if tail := strings.TrimSpace(stderr.String()); tail != "" {
				err = fmt.Errorf("%w\nserver stderr (last lines):\n%s", err, tail)
			}
			return nil, err
		}
		return src, nil
	case isHTTP(c.From) && pull.IsIndexURL(c.From):
		return c.cosignChecked(pull.OpenIndex(ctx, c.From, pull.IndexOptions{MaxBytes: c.MaxDownload, AllowUnverified: c.AllowUnverified, Client: outbound,
			CacheDir: cacheDir(c.Cache.CacheDir)}, c.ownKeys(trusted)))
	case isHTTP(c.From):
		return c.cosignChecked(pull.Download(ctx, c.From, pull.DownloadOptions{MaxBytes: c.MaxDownload, Client: outbound,
			TempDir: filepath.Join(cacheDir(c.Cache.CacheDir), "downloads")}, c.ownKeys(trusted)))
	case oci.IsRef(c.From):
		return c.openOCI(ctx, c.From, trusted)
	}
	fi, err := os.Stat(c.From)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return c.cosignChecked(pull.OpenExport(c.From, c.ownKeys(trusted)))
	}
	return c.cosignChecked(pull.OpenBundle(c.From, c.ownKeys(trusted)))
}

// ownKeys returns the keys a bundle, export or discovery source is opened
// with: trusted, or none under cosign trust (--trust cosign.pub,
// --trusted-root), which cosignChecked applies once it is open.
func (c *PullCmd) ownKeys(trusted []manifest.TrustedKey) []manifest.TrustedKey {
	if c.Registry.cosign != nil {
		return nil
	}
	return trusted
}

// cosignChecked applies cosign trust to a source opened without keys
// (ownKeys): a bundle, file or download, passes by the Sigstore signatures
// it carries (kept by a fetch from a registry), over the digest of the
// artifact it makes, as verify FILE.skb checks them; an export folder or a
// discovery site carries none, since cosign signs OCI artifacts, and is
// refused as unsigned (exit 3), saying so. Without cosign trust src and
// err are returned as they are.
func (c *PullCmd) cosignChecked(src *pull.Source, err error) (*pull.Source, error) {
	if err != nil || c.Registry.cosign == nil {
		return src, err
	}
	if src.Bundle() == nil {
		src.Close()
		what := map[string]string{"export": "an export folder", "index": "a discovery index"}[src.Kind]
		return nil, &exitError{exitUnsigned, fmt.Errorf("unsigned: %s: a cosign key or --trusted-root checks cosign signatures, which sign OCI artifacts, and %s carries none: pull the artifact (oci://HOST/REPO@sha256:…), or a bundle fetched from it", src.Name, what)}
	}
	who, _, err := checkCosign(src.Bundle(), c.Registry.cosign, "", "")
	if err != nil {
		src.Close()
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	src.Signed, src.SignedBy = true, who
	return src, nil
}

// tailBuffer keeps the last max bytes written to it: a server's stderr, to
// show when it fails to start.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// openOCI fetches an oci:// reference into the cache and opens the bundle,
// keeping the artifact's digest for the lock.
func (c *PullCmd) openOCI(ctx context.Context, ref string, trusted []manifest.TrustedKey) (*pull.Source, error) {
	o := c.Registry.bounded(c.MaxDownload, &c.Archive).options(c.Cache.CacheDir, trusted, stderrNote)
	o.Progress = progressOf("fetching", "layers")
	f, err := oci.Fetch(ctx, ref, o)
	if err != nil {
		return nil, err
	}
	c.ociResolved = f.Ref.Digest
	if c.Registry.cosign != nil && f.Signer != "" {
		// The fetch checked the Sigstore signatures over the digest.
		src, err := pull.OpenBundle(f.Path, nil)
		if err == nil {
			src.Signed, src.SignedBy = true, f.Signer
		}
		return src, err
	}
	return pull.OpenBundle(f.Path, trusted)
}
