package serve

// A Server made and kept: New wires every handler into the SDK server,
// Swap installs new bundles, ServeStdio serves one session.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve/answers"
	"github.com/skills-mcp/skills-mcp/serve/wire"
)

// New returns a server for bundles, which it serves together: a skill URI
// served by two bundles (or a skill folder of one bundle inside a skill
// folder of another) is an error naming both bundles. The caller keeps
// ownership of the bundles and closes them after the server is done.
//
// The bundles may still be checking their manifest's digest
// (manifest.OpenFileUnverified): the server prepares from them meanwhile,
// and serves nothing before Verified returns nil.
func New(bundles []*manifest.Bundle, opt Options) (*Server, error) {
	if opt.PageSize < 0 {
		return nil, fmt.Errorf("serve: page size %d is negative", opt.PageSize)
	}
	snap, err := newSnapshot(bundles, opt.ShowDisabled)
	if err != nil {
		return nil, err
	}
	s := &Server{log: opt.Logger, pageSize: opt.PageSize, show: opt.ShowDisabled, subs: map[string]struct{}{}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.pageSize == 0 {
		s.pageSize = DefaultPageSize
	}
	s.sdkLog = slog.New(warnOnly{s.log.Handler()})
	s.snap.Store(snap)
	s.answers = answers.New[*Snapshot](answerHost{s}, opt.AnswerBytes, snap)
	impl := &mcp.Implementation{Name: opt.Name, Title: opt.Title, Version: opt.Version}
	if impl.Name == "" {
		impl.Name = DefaultName
	}
	if impl.Version == "" {
		impl.Version = "dev"
	}
	// The tools change only where toolsChange says, the prompts only where
	// promptsChange says.
	caps := &mcp.ServerCapabilities{
		Resources: &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
		Tools:     &mcp.ToolCapabilities{ListChanged: toolsChange(opt)},
		Prompts:   &mcp.PromptCapabilities{ListChanged: promptsChange(opt)},
	}
	caps.AddExtension(manifest.ExtensionName, map[string]any{"directoryRead": true})
	s.mcp = mcp.NewServer(impl, &mcp.ServerOptions{
		Instructions:       opt.Instructions,
		Logger:             s.sdkLog,
		Capabilities:       caps,
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
		SetCacheable: func(ctx context.Context, _ mcp.Request, c *mcp.Cacheable) {
			*c = s.cacheableFor(ctx)
		},
	})
	if err := registerDiscovery(s, opt, impl); err != nil { // tools.go
		return nil, err
	}
	s.mcp.AddReceivingMiddleware(s.logMiddleware, s.resourceMiddleware)
	s.mcp.AddReceivingMiddleware(s.usageMiddleware)  // sees the reads resourceMiddleware answers
	s.mcp.AddReceivingMiddleware(s.accessMiddleware) // outermost: every handler sees the caller's access
	s.mcp.AddResourceTemplate(skillTemplate, s.readTemplate)
	s.mcp.AddResourceTemplate(fileTemplate, s.readTemplate)
	for _, err := range []error{
		mcp.AddReceivingCustomMethod(s.mcp, MethodListSkills, s.listSkills),
		mcp.AddReceivingCustomMethod(s.mcp, MethodGetSkill, s.getSkill),
		mcp.AddReceivingCustomMethod(s.mcp, MethodReadDirectory, s.readDirectory),
	} {
		if err != nil {
			return nil, fmt.Errorf("serve: %w", err)
		}
	}
	// Once verified, the server keeps no reference to the bundles of New:
	// a Swap lets them go.
	s.verify.pending = slices.Clone(bundles)
	n, nb, id := snap.Len(), len(bundles), snap.ID().String()[:19]
	s.verify.served = func() { s.log.Info("serving skills", "skills", n, "bundles", nb, "catalog", id) }
	return s, nil
}

// Verified waits until every bundle New was given has passed the check of
// its manifest's digest, and returns the first failure. ServeStdio writes
// nothing before, and teamserver serves nothing before; Swap waits for the
// bundles it is given itself.
func (s *Server) Verified() error {
	v := &s.verify
	v.once.Do(func() {
		for _, b := range v.pending {
			if v.err = b.Verified(); v.err != nil {
				break
			}
		}
		if v.err == nil {
			v.served()
		}
		v.pending, v.served = nil, nil
	})
	return v.err
}

// Swap replaces the served bundles. Requests in flight finish on the catalog
// they started with; later ones see the new one. If the catalog changed,
// clients get notifications/resources/list_changed, and
// notifications/resources/updated for each subscribed resource whose bytes
// changed or that is gone. On error nothing changes. Swap does not close the
// old bundles: the caller closes them once requests in flight are done.
func (s *Server) Swap(bundles []*manifest.Bundle) error {
	for _, b := range bundles {
		if err := b.Verified(); err != nil {
			return err
		}
	}
	next, err := newSnapshot(bundles, s.show)
	if err != nil {
		return err
	}
	s.swapMu.Lock()
	defer s.swapMu.Unlock()
	old := s.snap.Swap(next)
	s.views.reset()
	if s.answers != nil {
		s.answers.Reset(next) // they are of old, by pointer, whatever its id
	}
	if old.ID() == next.ID() {
		return nil
	}
	s.log.Info("catalog swapped", "skills", next.Len(), "bundles", len(bundles), "catalog", next.ID().String()[:19])
	// Re-adding an identical template is how the SDK is asked to send
	// notifications/resources/list_changed (debounced) to every session.
	s.mcp.AddResourceTemplate(skillTemplate, s.readTemplate)
	s.subsMu.Lock()
	var changed []string
	for uri := range s.subs {
		_, of, _ := old.resource(uri)
		_, nf, err := next.resource(uri)
		if err != nil {
			delete(s.subs, uri)
		}
		if of == nil || nf == nil || of.digest != nf.digest {
			changed = append(changed, uri)
		}
	}
	s.subsMu.Unlock()
	for _, uri := range changed {
		_ = s.mcp.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
	}
	for _, f := range s.afterSwap {
		f(old, next)
	}
	return nil
}

// ServeStdio serves one session over stdin and stdout until the client
// closes stdin or ctx is cancelled. Logs must go elsewhere (stderr). A line
// that is not a JSON-RPC message is answered with an error and the session
// goes on; at the end of stdin every request read is answered before
// ServeStdio returns (see wire.NewStdio).
//
// Requests are read and handled while the bundles are still being verified
// (see New), but nothing is written before Verified returns nil; if it
// fails, the session ends with nothing written and ServeStdio returns its
// error.
func (s *Server) ServeStdio(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		if err := s.Verified(); err != nil {
			cancel(err)
		}
	}()
	out := verifiedWriter{os.Stdout, s}
	var err error
	if s.answers != nil {
		err = s.answers.ServeStdio(ctx, s.mcp, os.Stdin, out)
	} else {
		err = s.mcp.Run(ctx, wire.NewStdio(os.Stdin, out, nil))
	}
	if verr := s.Verified(); verr != nil {
		return verr
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// verifiedWriter writes to w once the server's bundles are verified, and
// nothing if they are not.
type verifiedWriter struct {
	w io.Writer
	s *Server
}

func (v verifiedWriter) Write(p []byte) (int, error) {
	if err := v.s.Verified(); err != nil {
		return 0, err
	}
	return v.w.Write(p)
}
