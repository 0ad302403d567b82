package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/skills-mcp/skills-mcp/teamserver"
)

// HTTPFlags are the flags of serve --http: authorization, limits and
// operations.
type HTTPFlags struct {
	AuthTokens      string `name:"auth-tokens" env:"SKILLS_AUTH_TOKENS" type:"path" placeholder:"FILE" help:"Require a bearer token from this file (lines: NAME sha256:HEX NAMESPACE,...); re-read on SIGHUP."`
	OAuthIssuer     string `name:"oauth-issuer" env:"SKILLS_OAUTH_ISSUER" placeholder:"URL" help:"Accept JWT access tokens (RFC 9068) of this OAuth issuer, its keys found through its metadata."`
	OAuthAudience   string `name:"oauth-audience" env:"SKILLS_OAUTH_AUDIENCE" placeholder:"URI" help:"The aud an access token must carry: this server's resource identifier (its /mcp URL)."`
	NamespacesClaim string `name:"oauth-namespaces-claim" env:"SKILLS_OAUTH_NAMESPACES_CLAIM" default:"scope" placeholder:"CLAIM" help:"The claim listing the namespaces a token may read; with scope, its values skills:NS (skills:* for all)."`
	NoAuth          bool   `name:"no-auth" env:"SKILLS_NO_AUTH" help:"Serve a non-loopback --http address without authorization (the network in front authorizes)."`
	TLSCert         string `name:"tls-cert" env:"SKILLS_TLS_CERT" type:"path" placeholder:"FILE" help:"Serve --http over TLS (HTTP/2 and HTTP/1.1, by ALPN) with this PEM certificate chain; with --tls-key; both re-read on SIGHUP."`
	TLSKey          string `name:"tls-key" env:"SKILLS_TLS_KEY" type:"path" placeholder:"FILE" help:"The PEM private key of --tls-cert."`

	ReadHeaderTimeout time.Duration `name:"read-header-timeout" env:"SKILLS_READ_HEADER_TIMEOUT" default:"10s" help:"Most time to read a request's headers (0: none)."`
	ReadTimeout       time.Duration `name:"read-timeout" env:"SKILLS_READ_TIMEOUT" default:"30s" help:"Most time to read a whole request, body included (0: none)."`
	IdleTimeout       time.Duration `name:"idle-timeout" env:"SKILLS_IDLE_TIMEOUT" default:"120s" help:"Most time a kept-alive connection waits for its next request (0: none)."`
	MaxConns          int           `name:"max-conns" env:"SKILLS_MAX_CONNS" default:"4096" help:"Most open connections; more are closed at once (0: no cap)."`
	MaxConnsPerClient int           `name:"max-conns-per-client" env:"SKILLS_MAX_CONNS_PER_CLIENT" default:"256" help:"Most open connections from one client address (0: no cap)."`
	TrustedProxies    []string      `name:"trusted-proxies" env:"SKILLS_TRUSTED_PROXIES" placeholder:"CIDR,..." help:"Peers (CIDR prefixes or addresses) whose X-Forwarded-For or Forwarded header names the client; their connections count towards --max-conns only. None by default."`
	MaxBodyBytes      int64         `name:"max-body-bytes" env:"SKILLS_MAX_BODY_BYTES" default:"1048576" help:"Largest request body; larger ones get 413 (0: none)."`
	LargeBodyBudget   int64         `name:"large-body-budget" env:"SKILLS_LARGE_BODY_BUDGET" default:"16777216" help:"Body bytes all requests over 64 KiB may hold at once; past it 503 (0: none)."`
	Rate              float64       `name:"rate" env:"SKILLS_RATE" default:"100" help:"Requests per second of one token; past it 429 (0: none)."`
	Burst             int           `name:"burst" env:"SKILLS_BURST" default:"200" help:"Requests one token may make at once above --rate."`
	ShutdownTimeout   time.Duration `name:"shutdown-timeout" env:"SKILLS_SHUTDOWN_TIMEOUT" default:"10s" help:"On SIGTERM or SIGINT: /readyz answers 503 at once, no connection is accepted, and requests in flight get this long to finish before their connections close; then exit 0."`
	MetricsAddr       string        `name:"metrics-addr" env:"SKILLS_METRICS_ADDR" placeholder:"[HOST:]PORT" help:"Serve /metrics (and /healthz, /readyz) on this address, without authorization, instead of on --http behind it."`

	metrics *teamserver.Metrics // made by Run when serving HTTP
}

// limits returns the flags' limits; a flag at 0 turns its limit off.
func (f *HTTPFlags) limits() teamserver.Limits {
	none := func(v int64) int64 {
		if v == 0 {
			return -1
		}
		return v
	}
	rate := f.Rate
	if rate == 0 {
		rate = -1
	}
	return teamserver.Limits{
		ReadHeaderTimeout: time.Duration(none(int64(f.ReadHeaderTimeout))),
		ReadTimeout:       time.Duration(none(int64(f.ReadTimeout))),
		IdleTimeout:       time.Duration(none(int64(f.IdleTimeout))),
		MaxConns:          int(none(int64(f.MaxConns))),
		MaxConnsPerClient: int(none(int64(f.MaxConnsPerClient))),
		MaxBodyBytes:      none(f.MaxBodyBytes),
		MaxHeaderBytes:    teamserver.DefaultLimits.MaxHeaderBytes,
		LargeBodyBudget:   none(f.LargeBodyBudget),
		Rate:              rate,
		Burst:             f.Burst,
	}
}

// options returns the teamserver.Options of the flags, and starts re-reading
// the token file and the TLS certificate on SIGHUP until ctx ends.
func (f *HTTPFlags) options(ctx context.Context, log *slog.Logger, allowed []string) (teamserver.Options, error) {
	opt := teamserver.Options{AllowedHosts: allowed, NoAuth: f.NoAuth, Limits: f.limits(), Metrics: f.metrics, MetricsAddr: f.MetricsAddr,
		ShutdownTimeout: f.ShutdownTimeout}
	if f.ShutdownTimeout == 0 {
		opt.ShutdownTimeout = -1 // 0: do not wait
	}
	proxies, err := teamserver.ParseTrustedProxies(f.TrustedProxies)
	if err != nil {
		return opt, fmt.Errorf("--trusted-proxies: %w", err)
	}
	opt.Limits.TrustedProxies = proxies
	var reload []func() // what SIGHUP reads again
	if (f.TLSCert == "") != (f.TLSKey == "") {
		return opt, fmt.Errorf("--tls-cert and --tls-key go together: give both or neither")
	}
	if f.TLSCert != "" {
		if opt.TLS, err = teamserver.NewCertificate(f.TLSCert, f.TLSKey); err != nil {
			return opt, err
		}
		reload = append(reload, func() {
			if err := opt.TLS.Reload(); err != nil {
				log.Error("SIGHUP: tls certificate not reloaded", "err", err)
			}
		})
	}
	if f.AuthTokens != "" || f.OAuthIssuer != "" {
		a, err := teamserver.NewAuthorizer(ctx, teamserver.AuthOptions{
			TokenFile: f.AuthTokens, Issuer: f.OAuthIssuer, Audience: f.OAuthAudience,
			NamespacesClaim: f.NamespacesClaim, Logger: log, HTTPClient: outbound,
		})
		if err != nil {
			return opt, err
		}
		opt.Auth = a
		if f.AuthTokens != "" {
			reload = append(reload, func() {
				if err := a.ReloadTokens(); err != nil {
					log.Error("SIGHUP: token file not reloaded", "err", err)
				}
			})
		}
	}
	if len(reload) > 0 {
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		go func() {
			defer signal.Stop(hup)
			for {
				select {
				case <-ctx.Done():
					return
				case <-hup:
					for _, f := range reload {
						f()
					}
				}
			}
		}()
	}
	return opt, nil
}
