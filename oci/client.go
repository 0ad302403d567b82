package oci

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/fetch"
	"github.com/skills-mcp/skills-mcp/manifest"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/credentials"
)

// Options say how to reach registries, what to accept from them and where to
// keep what was fetched. The zero value talks https with the credentials of
// the docker config, and caches nothing (Fetch needs CacheDir).
type Options struct {
	// CacheDir holds fetched bundles by digest (CacheDir/oci/sha256/<hex>.skb).
	CacheDir string
	// PlainHTTP talks http instead of https. It is refused for any host that
	// is neither loopback nor listed in Insecure.
	PlainHTTP bool
	// Insecure lists the hosts (HOST or HOST:PORT) that PlainHTTP may reach
	// besides loopback ones.
	Insecure []string
	// Trusted, when not nil, makes Fetch require a valid signature by one of
	// these keys among the artifact's referrers before it writes anything.
	Trusted []manifest.TrustedKey
	// MaxBytes caps the bytes a fetched bundle may hold (blobs and
	// manifest); 0 means DefaultMaxBytes.
	MaxBytes int64
	// Archive bounds the layer of a ToolHive skill as build bounds an
	// archive library (--max-archive-entries, --max-archive-bytes), and
	// MaxFileBytes each file in it (--max-file-bytes); zero fields take
	// build's defaults. The skill in it keeps the SEP-2640 limits
	// (manifest.CheckSkillLimits) as every skill does.
	Archive      build.ArchiveLimits
	MaxFileBytes int64
	// Client sends the requests; nil means a fresh one. Either way each
	// request is bounded by internal/fetch: an idle time (fetch.DefaultIdle
	// unless Client is a fetch client with its own), RequestTimeout, the
	// MaxBytes cap, and bounded retries.
	Client *http.Client
	// Logf receives notes (a tag resolved, a cache hit); nil drops them.
	Logf func(format string, args ...any)
	// Progress, when not nil, is called as blobs are sent (Push: the
	// artifact's and its signatures', one count) or layers fetched (Fetch):
	// one call at a time, done rising to total.
	Progress func(done, total int)
	// MountFrom names another repository of the same registry that Push
	// asks the registry to take blobs from (a cross-repository mount)
	// before sending them itself.
	MountFrom string
	// Cosign, when not nil, makes Fetch require a valid signature in a
	// Sigstore format (cosign's .sig tag, or a Sigstore bundle referrer)
	// that it accepts, over the artifact's digest, unless one of Trusted
	// signed: either kind of trust is met by either kind of signature it
	// checks.
	Cosign CosignVerifier
	// RequireAttestation, when set, makes Fetch also require an
	// attestation of this predicate type that Cosign accepts.
	RequireAttestation string
	// CosignSigner, when not nil, makes Push sign the artifact in cosign's
	// formats; with AttestationType and Attestation, it also attaches an
	// attestation Statement of that predicate type.
	CosignSigner    CosignSigner
	AttestationType string
	Attestation     json.RawMessage
}

// DefaultMaxBytes is the default of Options.MaxBytes.
const DefaultMaxBytes = 256 << 20

// Variables that carry registry credentials, for CI jobs.
const (
	EnvUser     = "SKILLS_REGISTRY_USER"
	EnvPassword = "SKILLS_REGISTRY_PASSWORD"
)

func (o *Options) logf(format string, args ...any) {
	if o.Logf != nil {
		o.Logf(format, args...)
	}
}

func (o *Options) maxBytes() int64 {
	if o.MaxBytes > 0 {
		return o.MaxBytes
	}
	return DefaultMaxBytes
}

// checkPlainHTTP applies the plain-http rule to host.
func (o *Options) checkPlainHTTP(host string) error {
	if !o.PlainHTTP || isLoopback(host) {
		return nil
	}
	hostOnly := host
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		hostOnly = host[:i]
	}
	if slices.ContainsFunc(o.Insecure, func(h string) bool {
		return strings.EqualFold(h, host) || strings.EqualFold(h, hostOnly)
	}) {
		return nil
	}
	return fmt.Errorf("registry %s: --plain-http is only for a loopback registry, or a host named in --insecure-registry", host)
}

// RequestTimeout bounds each request to a registry, body included: a blob
// of the largest bundle over a slow link fits; a registry that stalls is
// given up on far sooner, after fetch's idle time.
const RequestTimeout = 5 * time.Minute

// client is the HTTP client of the registry at host: Options.Client (or a
// fresh one) under fetch's bounds (idle time, deadline, the bundle's byte
// cap per answer, bounded retries of a request no answer came to), whose
// redirects may go to https, or to plain http where the plain-http rule
// allows the host.
func (o *Options) client() *http.Client {
	c := fetch.Client(o.Client, fetch.Policy{
		Timeout: RequestTimeout, MaxBytes: o.maxBytes(),
		CheckURL: func(u *url.URL) error {
			if u.Scheme == "https" || u.Scheme == "http" && o.PlainHTTP && o.checkPlainHTTP(u.Host) == nil {
				return nil
			}
			return fmt.Errorf("redirect to %s: only https is allowed", fetch.Redact(u))
		},
	})
	if !o.PlainHTTP {
		c.Transport = plainHTTPHint{c.Transport}
	}
	return c
}

// plainHTTPHint names --plain-http in the error of a registry that answered
// https with plain http, as one on loopback often does: Go's own message,
// "server gave HTTP response to HTTPS client", does not say what to do.
type plainHTTPHint struct{ next http.RoundTripper }

func (h plainHTTPHint) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := h.next.RoundTrip(req)
	// The transport's error is TLS's; http.Client turns it into
	// ErrSchemeMismatch only when it is returned unwrapped.
	if rh := (tls.RecordHeaderError{}); errors.As(err, &rh) && string(rh.RecordHeader[:]) == "HTTP/" {
		err = fmt.Errorf("%w: the registry %s speaks plain http; give --plain-http (loopback, or a host named in --insecure-registry)", http.ErrSchemeMismatch, req.URL.Host)
	}
	return resp, err
}

// repository returns oras-go's client of the repository ref names, with
// credentials from the environment or the docker config.
func (o *Options) repository(ref Ref) (*remote.Repository, error) {
	if err := o.checkPlainHTTP(ref.Host); err != nil {
		return nil, err
	}
	repo, err := remote.NewRepository(ref.repo())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	repo.PlainHTTP = o.PlainHTTP
	hc := o.client()
	cred, err := credentialFunc()
	if err != nil {
		return nil, err
	}
	repo.Client = &auth.Client{Client: hc, Cache: auth.NewCache(), Credential: cred, Header: http.Header{"User-Agent": {"skills-mcp"}}}
	return repo, nil
}

// credentialFunc finds credentials as registry users keep them:
// SKILLS_REGISTRY_USER and SKILLS_REGISTRY_PASSWORD first (CI), then the
// docker config (DOCKER_CONFIG, or ~/.docker/config.json, with its
// credential helpers), then Podman's auth file (REGISTRY_AUTH_FILE, or
// $XDG_RUNTIME_DIR/containers/auth.json).
func credentialFunc() (auth.CredentialFunc, error) {
	user, pass := os.Getenv(EnvUser), os.Getenv(EnvPassword)
	if user != "" || pass != "" {
		if user == "" || pass == "" {
			return nil, fmt.Errorf("registry credentials: set both %s and %s, or neither", EnvUser, EnvPassword)
		}
		c := auth.Credential{Username: user, Password: pass}
		return func(context.Context, string) (auth.Credential, error) { return c, nil }, nil
	}
	var stores []credentials.Store
	docker, err := credentials.NewStoreFromDocker(credentials.StoreOptions{})
	if err != nil {
		return nil, fmt.Errorf("registry credentials: docker config: %w", err)
	}
	stores = append(stores, docker)
	podman := os.Getenv("REGISTRY_AUTH_FILE")
	if podman == "" && os.Getenv("XDG_RUNTIME_DIR") != "" {
		podman = filepath.Join(os.Getenv("XDG_RUNTIME_DIR"), "containers", "auth.json")
	}
	if podman != "" {
		if _, err := os.Stat(podman); err == nil {
			s, err := credentials.NewStore(podman, credentials.StoreOptions{})
			if err != nil {
				return nil, fmt.Errorf("registry credentials: %s: %w", podman, err)
			}
			stores = append(stores, s)
		}
	}
	store := credentials.NewStoreWithFallbacks(stores[0], stores[1:]...)
	get := credentials.Credential(store)
	return func(ctx context.Context, host string) (auth.Credential, error) {
		c, err := get(ctx, host)
		if err != nil {
			// A helper's message is its own; never pass on what it printed.
			return auth.EmptyCredential, fmt.Errorf("registry %s: reading stored credentials failed", host)
		}
		return c, nil
	}, nil
}
