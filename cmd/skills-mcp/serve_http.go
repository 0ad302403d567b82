package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/skills-mcp/skills-mcp/serve"
)

// HTTPFlags are the flags of serve --http: authorization, limits and
// operations.
type HTTPFlags struct {
	AuthTokens      string `name:"auth-tokens" env:"SKILLS_AUTH_TOKENS" type:"path" placeholder:"FILE" help:"Require a bearer token from this file (lines: NAME sha256:HEX NAMESPACE,...); re-read on SIGHUP."`
	OAuthIssuer     string `name:"oauth-issuer" env:"SKILLS_OAUTH_ISSUER" placeholder:"URL" help:"Accept JWT access tokens (RFC 9068) of this OAuth issuer, its keys found through its metadata."`
	OAuthAudience   string `name:"oauth-audience" env:"SKILLS_OAUTH_AUDIENCE" placeholder:"URI" help:"The aud an access token must carry: this server's resource identifier (its /mcp URL)."`
	NamespacesClaim string `name:"oauth-namespaces-claim" env:"SKILLS_OAUTH_NAMESPACES_CLAIM" default:"scope" placeholder:"CLAIM" help:"The claim listing the namespaces a token may read; with scope, its values skills:NS (skills:* for all)."`
	NoAuth          bool   `name:"no-auth" env:"SKILLS_NO_AUTH" help:"Serve a non-loopback --http address without authorization (the network in front authorizes)."`
}

// options returns the serve.HTTPOptions of the flags, and starts re-reading
// the token file on SIGHUP until ctx ends.
func (f *HTTPFlags) options(ctx context.Context, log *slog.Logger, allowed []string) (serve.HTTPOptions, error) {
	opt := serve.HTTPOptions{AllowedHosts: allowed, NoAuth: f.NoAuth}
	if f.AuthTokens == "" && f.OAuthIssuer == "" {
		return opt, nil
	}
	a, err := serve.NewAuthorizer(ctx, serve.AuthOptions{
		TokenFile: f.AuthTokens, Issuer: f.OAuthIssuer, Audience: f.OAuthAudience,
		NamespacesClaim: f.NamespacesClaim, Logger: log,
	})
	if err != nil {
		return opt, err
	}
	opt.Auth = a
	if f.AuthTokens != "" {
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		go func() {
			defer signal.Stop(hup)
			for {
				select {
				case <-ctx.Done():
					return
				case <-hup:
					if err := a.ReloadTokens(); err != nil {
						log.Error("SIGHUP: token file not reloaded", "err", err)
					}
				}
			}
		}()
	}
	return opt, nil
}
