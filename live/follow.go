package live

// Following releases: a server whose bundles come from references that can
// move (an OCI tag) checks them every interval and swaps a new release in
// through Swap, the one place a catalog changes, as live libraries do.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve"
)

// Reasons a release is refused (FollowRefusal, FollowObserver.FollowRefused).
// ReasonUnreachable and ReasonSignature are tried again at the next check
// (a registry comes back; a pusher attaches signatures after it moved the
// tag); a release refused for any other reason is remembered by its digest
// and not fetched again until Follower.Check is asked to retry
// (catalog_status refresh=true, SIGHUP) or the reference moves on.
const (
	ReasonUnreachable = "unreachable" // the reference did not resolve or the fetch failed (registry down, stalled, flapping)
	ReasonRefused     = "refused"     // the registry's answer broke a rule: a digest or size that lies, an artifact of another type
	ReasonSignature   = "signature"   // no valid signature by a trusted key (--trust)
	ReasonInvalid     = "invalid"     // the artifact is no bundle that opens
	ReasonConflict    = "conflict"    // with the other bundles it would serve one URI twice
)

// FollowRefusal wraps err with the reason a release was refused, for
// FollowSource.Open.
func FollowRefusal(reason string, err error) error { return &refusal{reason, err} }

type refusal struct {
	reason string
	err    error
}

func (r *refusal) Error() string { return r.err.Error() }
func (r *refusal) Unwrap() error { return r.err }

// reasonOf is the reason of a refusal; an error without one is
// ReasonUnreachable.
func reasonOf(err error) string {
	var r *refusal
	if errors.As(err, &r) {
		return r.reason
	}
	return ReasonUnreachable
}

// FollowSource is a reference that names a release and may move to
// another: an OCI tag.
type FollowSource interface {
	// Name names the source in logs and metrics, without credentials.
	Name() string
	// Resolve returns the digest the reference names now, as cheaply as
	// the source allows (for a tag, one manifest HEAD).
	Resolve(ctx context.Context) (string, error)
	// Open fetches the release of that digest, verifies it and opens it.
	// The bundle must not need closing (it lives in memory): a swapped-out
	// bundle is left to requests in flight and then to the collector. Its
	// errors carry a reason (FollowRefusal); one without is taken for
	// ReasonUnreachable.
	Open(ctx context.Context, digest string) (*manifest.Bundle, error)
}

// Release is what one source serves: the digest it resolved to and the
// bundle opened from it.
type Release struct {
	Digest string
	Bundle *manifest.Bundle
}

// FollowObserver learns what following does, for metrics (package
// teamserver implements it). Its methods must not block.
type FollowObserver interface {
	// FollowChecked is called after each check of a source, with its
	// outcome: "unchanged", "updated", "refused" or "error".
	FollowChecked(source, outcome string)
	// FollowRefused is called for each new refusal: once per source,
	// reason and digest (for a check that failed, no digest) between two
	// updates, as it is logged. FollowChecked counts every check.
	FollowRefused(source, reason string)
	// FollowServed is called when a source's release is served: at start
	// and after each update, with when it began to be served.
	FollowServed(source, digest string, since time.Time)
}

// FollowOptions configure a Follower.
type FollowOptions struct {
	// Interval is the time between checks.
	Interval time.Duration
	// Jitter is the most added to each interval, at random, so that
	// replicas started together do not ask the registry together;
	// Interval/10 if 0, none if negative.
	Jitter time.Duration
	// Sources are the references followed, and Served what each served at
	// start (the same length, in the same order).
	Sources []FollowSource
	Served  []Release
	// Fixed are bundles served beside the followed ones, never changed.
	Fixed []*manifest.Bundle
	// Observer, if set, learns of every check, refusal and update.
	Observer FollowObserver
	// Logger is where the follower logs; the server's if nil.
	Logger *slog.Logger
}

// Follower keeps a serve.Server on the newest release of each of its sources:
// every interval (plus jitter) it resolves each source, and when one names
// a new digest it opens that release and swaps it in with Server.Swap, so
// requests in flight finish on the old catalog, subscribed clients get
// notifications/resources/list_changed (and prompts/list_changed), and the
// server never stops answering.
//
// A release that cannot be fetched, fails verification, does not open or
// would serve one URI twice is refused: the previous release keeps serving,
// the refusal is logged once per new reason and digest (not at every
// check) and counted. A source that cannot be resolved is tried again at
// the next check.
type Follower struct {
	opt FollowOptions
	srv *serve.Server
	log *slog.Logger

	mu      sync.Mutex // serializes checks; guards the fields below
	served  []Release
	refused map[string]string // digest → reason, of releases not to fetch again
	logged  map[string]bool   // source, reason and digest of refusals logged since the last update

	rel *releaser // returns a swapped-out release's memory while Run runs
}

// NewFollower returns a follower of opt.Sources for srv, which must be
// serving opt.Fixed and opt.Served's bundles (in that order); Run starts it.
func NewFollower(srv *serve.Server, opt FollowOptions) (*Follower, error) {
	if opt.Interval <= 0 {
		return nil, fmt.Errorf("live: follow interval %v: give a positive duration", opt.Interval)
	}
	if len(opt.Sources) == 0 || len(opt.Served) != len(opt.Sources) {
		return nil, fmt.Errorf("live: follow: %d sources, %d releases served", len(opt.Sources), len(opt.Served))
	}
	if opt.Jitter == 0 {
		opt.Jitter = opt.Interval / 10
	}
	f := &Follower{opt: opt, srv: srv, log: opt.Logger, served: slices.Clone(opt.Served), refused: map[string]string{}, logged: map[string]bool{}, rel: newReleaser()}
	if f.log == nil {
		f.log = srv.Logger()
	}
	now := time.Now()
	for i, r := range f.served {
		if o := opt.Observer; o != nil {
			o.FollowServed(opt.Sources[i].Name(), r.Digest, now)
		}
		f.log.Info("following", "source", opt.Sources[i].Name(), "digest", r.Digest, "every", opt.Interval)
	}
	return f, nil
}

// Run checks every source every interval plus jitter until ctx is
// cancelled; it returns nil then. A while after each update it returns
// the memory the previous release held to the system.
func (f *Follower) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer f.rel.start(ctx)()
	defer cancel()
	t := time.NewTimer(f.next())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			_ = f.check(ctx, false)
			t.Reset(f.next())
		}
	}
}

// next is the time until the next check.
func (f *Follower) next() time.Duration {
	d := f.opt.Interval
	if f.opt.Jitter > 0 {
		d += rand.N(f.opt.Jitter + 1)
	}
	return d
}

// Check checks every source now, retrying releases refused before, and
// returns why any could not be brought up to date (the previous release
// of each keeps serving). It is catalog_status refresh=true's and SIGHUP's.
func (f *Follower) Check(ctx context.Context) error { return f.check(ctx, true) }

// Served returns what each source serves now.
func (f *Follower) Served() []Release {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.served)
}

func (f *Follower) check(ctx context.Context, retry bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if retry {
		clear(f.refused)
	}
	var errs []error
	for i, src := range f.opt.Sources {
		outcome, err := f.checkOne(ctx, i, src)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if o := f.opt.Observer; o != nil {
			o.FollowChecked(src.Name(), outcome)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// checkOne brings source i up to date, and says how it went.
func (f *Follower) checkOne(ctx context.Context, i int, src FollowSource) (string, error) {
	d, err := src.Resolve(ctx)
	if err != nil {
		return "error", f.refuse(ctx, i, "", ReasonUnreachable, err)
	}
	if d == f.served[i].Digest {
		return "unchanged", nil
	}
	if reason, ok := f.refused[d]; ok {
		return "refused", fmt.Errorf("%s: %s: refused before (%s)", src.Name(), d, reason)
	}
	start := time.Now()
	b, err := src.Open(ctx, d)
	if err != nil {
		reason := reasonOf(err)
		if reason == ReasonUnreachable {
			return "error", f.refuse(ctx, i, d, reason, err)
		}
		return "refused", f.refuse(ctx, i, d, reason, err)
	}
	next := slices.Clone(f.served)
	next[i] = Release{Digest: d, Bundle: b}
	if err := f.srv.Swap(f.bundles(next)); err != nil {
		return "refused", f.refuse(ctx, i, d, ReasonConflict, fmt.Errorf("%s: %s: %w", src.Name(), d, err))
	}
	f.served = next
	f.rel.swapped()
	clear(f.logged)
	f.log.Info("release served", "source", src.Name(), "digest", d, "bundle", b.ID().String(), "catalog", f.srv.Snapshot().ID().String(),
		"took", time.Since(start).Round(time.Millisecond))
	if o := f.opt.Observer; o != nil {
		o.FollowServed(src.Name(), d, time.Now())
	}
	return "updated", nil
}

// refuse records a refusal of the release digest (or of the source, when
// digest is empty): remembered unless it may pass next time, logged and
// counted once per source, reason and digest since the last update.
func (f *Follower) refuse(ctx context.Context, i int, digest, reason string, err error) error {
	src := f.opt.Sources[i]
	if ctx.Err() != nil {
		return err // cancelled: nobody's fault
	}
	if reason != ReasonUnreachable && reason != ReasonSignature {
		f.refused[digest] = reason
	}
	key := src.Name() + "\x00" + reason + "\x00" + digest
	if !f.logged[key] {
		f.logged[key] = true
		if o := f.opt.Observer; o != nil {
			o.FollowRefused(src.Name(), reason)
		}
		msg := "release refused, serving the previous release"
		if reason == ReasonUnreachable {
			msg = "release check failed, serving the previous release"
		}
		f.log.Warn(msg, "source", src.Name(), "digest", digest, "reason", reason, "serving", f.served[i].Digest, "err", err)
	}
	return err
}

// bundles are the fixed bundles, then each source's release.
func (f *Follower) bundles(rs []Release) []*manifest.Bundle {
	out := slices.Clone(f.opt.Fixed)
	for _, r := range rs {
		out = append(out, r.Bundle)
	}
	return out
}
