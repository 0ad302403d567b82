package oci

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"golang.org/x/sync/errgroup"
	"oras.land/oras-go/v2/registry/remote"
)

// PushResult says what a push stored and what it sent.
type PushResult struct {
	Ref        Ref    // the reference pinned to the artifact's digest
	Digest     string // the image manifest's digest
	Tags       []string
	Signatures string // the digest of the signatures' referrer, if any
	// Cosign lists the cosign signature's tag and the digests of the
	// Sigstore bundle referrers pushed (signature, then attestation).
	Cosign []string
	Layers int // blob and pack layers of the artifact
	// Sent and SentBytes count the blobs and manifests uploaded; Skipped and
	// SkippedBytes the blobs the registry already held; Mounted and
	// MountedBytes the blobs it took from Options.MountFrom.
	Sent, Skipped, Mounted                int
	SentBytes, SkippedBytes, MountedBytes int64
}

// pushConcurrency is how many blobs a push uploads at once.
const pushConcurrency = 8

// upload is one blob to send, with a way to read it.
type upload struct {
	desc ocispec.Descriptor
	open func() (io.Reader, error)
}

// pusher sends an artifact's parts and counts them.
type pusher struct {
	repo *remote.Repository
	res  *PushResult
	o    *Options

	mu    sync.Mutex
	done  int // blobs handled, for o.Progress
	total int // blobs to handle in all
}

// How a blob reached the registry.
const (
	wasSent = iota
	wasThere
	wasMounted
)

func (p *pusher) count(how int, n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch how {
	case wasSent:
		p.res.Sent++
		p.res.SentBytes += n
	case wasThere:
		p.res.Skipped++
		p.res.SkippedBytes += n
	case wasMounted:
		p.res.Mounted++
		p.res.MountedBytes += n
	}
}

// step counts one more blob handled and reports it to o.Progress: one call
// at a time, done rising.
func (p *pusher) step() {
	if p.o.Progress == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.o.Progress(p.done, p.total)
}

// blobs sends each upload the registry does not hold yet (a HEAD request
// tells), pushConcurrency at a time.
func (p *pusher) blobs(ctx context.Context, ups []upload) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(pushConcurrency)
	for _, u := range ups {
		g.Go(func() error {
			defer p.step()
			ok, err := p.repo.Exists(ctx, u.desc)
			if err != nil {
				return fmt.Errorf("blob %s: %w", u.desc.Digest, err)
			}
			if ok {
				p.count(wasThere, u.desc.Size)
				return nil
			}
			if from := p.o.MountFrom; from != "" && from != p.repo.Reference.Repository {
				read := false
				err := p.repo.Mount(ctx, u.desc, from, func() (io.ReadCloser, error) {
					read = true
					r, err := u.open()
					return io.NopCloser(r), err
				})
				if err != nil {
					return fmt.Errorf("blob %s: mount from %s: %w", u.desc.Digest, from, err)
				}
				if read {
					p.count(wasSent, u.desc.Size)
				} else {
					p.count(wasMounted, u.desc.Size)
				}
				return nil
			}
			r, err := u.open()
			if err != nil {
				return err
			}
			if err := p.repo.Push(ctx, u.desc, r); err != nil {
				return fmt.Errorf("blob %s: %w", u.desc.Digest, err)
			}
			p.count(wasSent, u.desc.Size)
			return nil
		})
	}
	return g.Wait()
}

// manifest sends an image manifest under its first tag (or untagged) and
// adds the other tags.
func (p *pusher) manifest(ctx context.Context, desc ocispec.Descriptor, body []byte, tags []string) error {
	var err error
	if len(tags) == 0 {
		err = p.repo.Push(ctx, desc, bytes.NewReader(body))
	} else {
		err = p.repo.PushReference(ctx, desc, bytes.NewReader(body), tags[0])
	}
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	p.count(wasSent, desc.Size)
	for i := 1; i < len(tags); i++ {
		t := tags[i]
		if err := p.repo.Tag(ctx, desc, t); err != nil {
			return fmt.Errorf("tag %s: %w", t, err)
		}
	}
	return nil
}
