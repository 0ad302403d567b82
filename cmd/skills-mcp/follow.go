package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/fetch"
	"github.com/skills-mcp/skills-mcp/live"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// following is what serve --follow follows: a source for each oci://…:TAG
// argument and the release each served at start.
type following struct {
	sources []live.FollowSource
	served  []live.Release
	signers *signerMap
}

// signerMap remembers who signed each followed bundle, for catalog_status
// (serve.Options.SignedBy); bundles arrive while serving. It is keyed by
// the bundle's manifest digest, which the signatures cover, not by the
// bundle: a bundle in memory that a swap left behind must not be kept
// alive, bytes and all, for as long as the server follows.
type signerMap struct {
	mu sync.Mutex
	m  map[manifest.Digest][]string
}

func (s *signerMap) set(b *manifest.Bundle, who string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[manifest.Digest][]string{}
	}
	s.m[b.ID()] = []string{who}
}

func (s *signerMap) get(b *manifest.Bundle) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[b.ID()]
}

// ociSource follows one oci://HOST/REPO:TAG: a manifest HEAD a check, and a
// fetch into the cache of each new digest, checked against --trust.
type ociSource struct {
	tag     *oci.Tag
	opt     oci.Options
	trusted []manifest.TrustedKey
	signers *signerMap
}

func (s *ociSource) Name() string { return s.tag.Ref().String() }

func (s *ociSource) Resolve(ctx context.Context) (string, error) {
	r, err := s.tag.Resolve(ctx)
	if err != nil {
		return "", err
	}
	return r.Digest, nil
}

// Open fetches the release into the cache (oci.Fetch: every byte checked
// against its digest, signatures against --trust before any blob) and
// reads it into memory, where it can outlive its swap without a mapping to
// close under a request in flight.
func (s *ociSource) Open(ctx context.Context, digest string) (*manifest.Bundle, error) {
	pinned := s.tag.Ref().WithDigest(digest).String()
	f, err := oci.Fetch(ctx, pinned, s.opt)
	switch {
	case errors.Is(err, manifest.ErrUnsigned), errors.Is(err, manifest.ErrUntrusted), errors.Is(err, manifest.ErrBadSignature):
		return nil, live.FollowRefusal(live.ReasonSignature, err)
	case errors.Is(err, oci.ErrRefused):
		return nil, live.FollowRefusal(live.ReasonRefused, err)
	case err != nil:
		return nil, err
	}
	data, err := os.ReadFile(f.Path)
	if err != nil {
		return nil, fmt.Errorf("%s: cache: %w", pinned, err)
	}
	b, err := manifest.Open(bytes.NewReader(data), int64(len(data)))
	if err == nil {
		err = b.Verify()
	}
	if err != nil {
		return nil, live.FollowRefusal(live.ReasonInvalid, fmt.Errorf("%s: %w", pinned, err))
	}
	if s.opt.Cosign != nil && f.Signer != "" {
		s.signers.set(b, f.Signer) // the fetch checked the Sigstore signatures over the digest
	} else if s.trusted != nil {
		mb, err := b.ManifestBytes()
		if err != nil {
			return nil, live.FollowRefusal(live.ReasonInvalid, fmt.Errorf("%s: %w", pinned, err))
		}
		k, err := manifest.VerifySignatures(mb, b.Signatures(), s.trusted)
		if err != nil {
			return nil, live.FollowRefusal(live.ReasonSignature, fmt.Errorf("%s: %w", pinned, err))
		}
		s.signers.set(b, manifest.Signer(k))
	}
	return b, nil
}

// startFollow takes the arguments that can move out of files (oci://…:TAG
// references, https bundle URLs and discovery sites), opens the release
// each names now and returns them with the files left. A digest reference
// stays in files, served as it is: it never moves. With nothing to follow
// it is an error.
func (c *ServeCmd) startFollow(ctx context.Context, log *slog.Logger, files []string, spec trustSpec) (*following, []string, error) {
	fw := &following{signers: &signerMap{}}
	var rest []string
	for _, p := range files {
		src, err := c.followSource(log, p, spec, fw.signers)
		if err != nil {
			return nil, nil, err
		}
		if src == nil {
			rest = append(rest, p)
			continue
		}
		d, err := src.Resolve(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("serve: %w", err)
		}
		b, err := src.Open(ctx, d)
		if err != nil {
			return nil, nil, trustExit(fmt.Errorf("serve: %w", err), exitFailed)
		}
		if who := fw.signers.get(b); who != nil {
			log.Info("bundle signature verified", "bundle", src.Name(), "id", b.ID().String(), "signer", who[0])
		}
		fw.sources = append(fw.sources, src)
		fw.served = append(fw.served, live.Release{Digest: d, Bundle: b})
	}
	if len(fw.sources) == 0 {
		return nil, nil, &exitError{exitUsage, errors.New("serve: --follow: nothing to follow: give an oci://HOST/REPO:TAG reference (a digest never moves), an https bundle URL or a discovery site")}
	}
	return fw, rest, nil
}

// followSource is the source of argument p, or nil for one that never
// moves (a file, an oci:// digest).
func (c *ServeCmd) followSource(log *slog.Logger, p string, spec trustSpec, signers *signerMap) (live.FollowSource, error) {
	trusted := spec.keys
	if isURL(p) {
		if spec.cosign != nil {
			return nil, &exitError{exitUsage, fmt.Errorf("serve: follow %s: cosign keys and keyless signers (--trust PEM, --trusted-root) check artifacts in a registry; a URL is checked against ssh or minisign keys: follow the release's oci:// tag, or give those keys", redactArg(p))}
		}
		uopt := live.URLOptions{Client: outbound, MaxBytes: c.Lib.MaxDownload, Timeout: time.Duration(c.Lib.FetchTimeoutMS) * time.Millisecond,
			Trusted: trusted, Signed: func(b *manifest.Bundle, who string) { signers.set(b, who) }}
		var src live.FollowSource
		var err error
		if wellknown.IsIndexURL(p) {
			var opt build.Options
			if opt, err = c.Lib.policy(log); err == nil {
				src, err = live.NewSite(p, "", uopt, opt)
			}
		} else {
			src, err = live.NewBundleURL(p, uopt)
		}
		if err != nil {
			return nil, &exitError{exitUsage, fmt.Errorf("serve: %w", err)}
		}
		return src, nil
	}
	ref, err := oci.ParseRef(p)
	if err != nil || ref.Digest != "" {
		if err == nil {
			log.Info("not followed: a digest never moves", "ref", p)
		}
		return nil, nil
	}
	opt := c.Registry.withLibrary(&c.Lib).options(c.Lib.CacheDir, trusted, func(format string, args ...any) { log.Debug(fmt.Sprintf(format, args...)) })
	tag, err := oci.NewTag(p, opt)
	if err != nil {
		return nil, &exitError{exitUsage, fmt.Errorf("serve: %w", err)}
	}
	return &ociSource{tag: tag, opt: opt, trusted: trusted, signers: signers}, nil
}

// isURL reports whether a serve argument is an http(s) URL (followed, not
// a file).
func isURL(a string) bool {
	return strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "http://")
}

// redactArg is a URL argument without its query, fragment or user info,
// for messages.
func redactArg(a string) string {
	if u, err := url.Parse(a); err == nil {
		return fetch.Redact(u)
	}
	return "the URL argument"
}

// bundles are the releases served at start.
func (fw *following) bundles() []*manifest.Bundle {
	out := make([]*manifest.Bundle, len(fw.served))
	for i, r := range fw.served {
		out[i] = r.Bundle
	}
	return out
}

// run starts the follower of srv, which serves fixed and the followed
// releases, and checks at once on SIGHUP; stop ends both.
func (fw *following) run(ctx context.Context, c *ServeCmd, log *slog.Logger, srv *serve.Server, fixed []*manifest.Bundle, check *func(context.Context) error) (stop func(), err error) {
	opt := live.FollowOptions{Interval: c.Follow, Sources: fw.sources, Served: fw.served, Fixed: fixed, Logger: log}
	if c.Web.metrics != nil {
		opt.Observer = c.Web.metrics
	}
	f, err := live.NewFollower(srv, opt)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	*check = f.Check
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{}, 2)
	go func() {
		defer func() { done <- struct{}{} }()
		_ = f.Run(runCtx)
	}()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer func() { done <- struct{}{} }()
		for {
			select {
			case <-runCtx.Done():
				return
			case <-hup:
				log.Info("SIGHUP: checking the followed references now")
				if err := f.Check(runCtx); err != nil {
					log.Warn("follow check incomplete", "err", err)
				}
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		cancel()
		<-done
		<-done
	}, nil
}
