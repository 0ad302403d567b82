package pull

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/fetch"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Source is where skills come from: a bundle file, a bundle downloaded over
// https, a folder written by export, or a live SEP-2640 server. Its listing
// is read and checked when it is opened; file contents are read by Pull.
// Close it when done.
type Source struct {
	Name     string   // what to call the source in messages: a path, a URL without query, or a command
	Kind     string   // "bundle", "export" or "server"
	ID       string   // bundle id ("sha256:…") for bundle and export sources
	Skills   []*Skill // every valid skill offered, sorted by URI
	Warnings []string // entries skipped as invalid, each with its reason
	// SignedBy names the trusted key that signed the manifest, when the
	// source was opened with trusted keys; it is empty otherwise.
	SignedBy string
	// Signed reports whether digests come from a signed manifest that was
	// checked against trusted keys. A live server's digests never are
	// (SEP-2640: "digests are unsigned").
	Signed bool
	// Unverified reports a v0.1.0 discovery index read with
	// AllowUnverified: it publishes no digests, so its files are unverified.
	Unverified bool

	index    manifest.Digest // a discovery site's index digest, for the lock
	back     backend
	refused  []refusal          // the entries behind Warnings, so that naming one explains why
	manifest *manifest.Manifest // what the skills were listed from, if a manifest (see Manifest)
	bundle   *manifest.Bundle   // the opened bundle of a bundle source (see Bundle)
}

// refusal is an entry skipped as invalid.
type refusal struct {
	uri string
	err error
}

// refuse records an invalid entry.
func (s *Source) refuse(uri string, err error) {
	s.Warnings = append(s.Warnings, err.Error())
	s.refused = append(s.refused, refusal{uri, err})
}

// backend reads the bytes of files a source lists.
type backend interface {
	// open returns a reader of the bytes the source holds for f. They are
	// untrusted: the caller checks size and digest.
	open(ctx context.Context, f *File) (io.ReadCloser, error)
	// get looks up a skill that the listing does not show (a live server's
	// skills/get); sources that list everything return ErrNotFound.
	get(ctx context.Context, uri string) (*Skill, error)
	close() error
}

// ErrNotFound is wrapped by lookups of a skill that a source does not offer.
var ErrNotFound = errors.New("not found")

// Close releases the source: the bundle file, the downloaded copy, or the
// server connection (and the server process for a command).
func (s *Source) Close() error {
	if s.back == nil {
		return nil
	}
	return s.back.close()
}

// verifyTrust checks a manifest's signatures against trusted keys, if any
// were given, and records the signer.
func (s *Source) verifyTrust(msg []byte, sigs []manifest.Signature, trusted []manifest.TrustedKey) error {
	if trusted == nil {
		return nil
	}
	k, err := manifest.VerifySignatures(msg, sigs, trusted)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	s.SignedBy, s.Signed = manifest.Signer(k), true
	return nil
}

// addManifest lists the skills of a parsed, canonical manifest. A skill
// whose entry fails the checks a live listing gets (the manifest may come
// from anyone) is skipped with a warning.
func (s *Source) addManifest(m *manifest.Manifest) {
	s.manifest = m
	for i := range m.Skills {
		ms := &m.Skills[i]
		sk, err := checkEntry(ms.Entry.URI, ms.Entry.Frontmatter, ms.Entry.Resources)
		if err == nil && sk.Path != ms.Path {
			err = fmt.Errorf("skill %s: manifest path %q does not match its uri", ms.Entry.URI, ms.Path)
		}
		for j := 0; err == nil && j < len(sk.Files); j++ {
			if sk.Files[j].Path != ms.Files[j].Path {
				err = fmt.Errorf("skill %s: manifest file path %q does not match its uri %q", ms.Entry.URI, ms.Files[j].Path, sk.Files[j].URI)
			}
		}
		if err != nil {
			s.refuse(ms.Entry.URI, err)
			continue
		}
		s.Skills = append(s.Skills, sk)
	}
}

// OpenBundle opens a bundle file. With trusted keys (from
// manifest.ParseTrust), it refuses a bundle without a valid signature by one
// of them, before anything else is read.
func OpenBundle(path string, trusted []manifest.TrustedKey) (*Source, error) {
	b, err := manifest.OpenFile(path)
	if err != nil {
		return nil, err
	}
	src, err := fromBundle(b, path, trusted)
	if err != nil {
		b.Close()
		return nil, err
	}
	return src, nil
}

func fromBundle(b *manifest.Bundle, name string, trusted []manifest.TrustedKey) (*Source, error) {
	src := &Source{Name: name, Kind: "bundle", ID: b.ID().String()}
	m, err := src.bundleManifest(b, trusted)
	if err != nil {
		return nil, err
	}
	src.addManifest(m)
	src.back, src.bundle = bundleBackend{b}, b
	return src, nil
}

// bundleManifest returns b's manifest. With trusted keys it is parsed from
// the very bytes whose signature was checked (for a mapped bundle, a copy
// hashed again), not read from the map a second time; without, there is
// nothing to check and no copy is made.
func (s *Source) bundleManifest(b *manifest.Bundle, trusted []manifest.TrustedKey) (*manifest.Manifest, error) {
	if trusted == nil {
		return b.Manifest()
	}
	msg, err := b.ManifestBytes()
	if err != nil {
		return nil, err
	}
	if err := s.verifyTrust(msg, b.Signatures(), trusted); err != nil {
		return nil, err
	}
	m, err := manifest.Parse(msg)
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w: %w", s.Name, err, manifest.ErrCorrupt)
	}
	return m, nil
}

type bundleBackend struct{ b *manifest.Bundle }

func (bb bundleBackend) open(_ context.Context, f *File) (io.ReadCloser, error) {
	r, err := bb.b.BlobReader(f.Digest)
	if err != nil {
		return nil, err
	}
	return io.NopCloser(r), nil
}

func (bb bundleBackend) get(context.Context, string) (*Skill, error) { return nil, ErrNotFound }
func (bb bundleBackend) close() error                                { return bb.b.Close() }

// Files of a folder written by export.
const (
	ExportManifest = manifest.ManifestFile
	ExportSSHSig   = manifest.SSHSigFile
	ExportMinisig  = manifest.MinisigFile
	ExportSums     = "SHA256SUMS"
	ExportBlobs    = "blobs/sha256"
)

// ExportSignatureFiles returns the file names under which export stores a
// bundle's signatures (manifest.SignatureFileNames).
func ExportSignatureFiles(sigs []manifest.Signature) []string {
	return manifest.SignatureFileNames(sigs)
}

// OpenExport opens a folder written by export: manifest.json, its
// signatures and blobs/sha256/<hex>. With trusted keys it refuses a manifest
// without a valid signature by one of them.
func OpenExport(dir string, trusted []manifest.TrustedKey) (*Source, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open export: %w", err)
	}
	src, err := fromExport(root, dir, trusted)
	if err != nil {
		root.Close()
		return nil, err
	}
	return src, nil
}

func fromExport(root *os.Root, dir string, trusted []manifest.TrustedKey) (*Source, error) {
	src := &Source{Name: dir, Kind: "export"}
	mb, err := readLimited(root, ExportManifest, 256<<20)
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", dir, err)
	}
	src.ID = manifest.Sum(mb).String()
	var sigs []manifest.Signature
	for _, k := range []struct {
		kind manifest.SignatureKind
		name string
	}{{manifest.SignatureSSH, ExportSSHSig}, {manifest.SignatureMinisign, ExportMinisig}} {
		for n := 1; ; n++ {
			name := k.name
			if n > 1 {
				name += "." + strconv.Itoa(n)
			}
			data, err := readLimited(root, name, 64<<10)
			if errors.Is(err, fs.ErrNotExist) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("export %s: %w", dir, err)
			}
			sigs = append(sigs, manifest.Signature{Kind: k.kind, Data: data})
		}
	}
	if err := src.verifyTrust(mb, sigs, trusted); err != nil {
		return nil, err
	}
	m, err := manifest.Parse(mb)
	if err != nil {
		return nil, fmt.Errorf("export %s: %s: %w", dir, ExportManifest, err)
	}
	src.addManifest(m)
	src.back = exportBackend{root}
	return src, nil
}

// readLimited reads a regular file below root, refusing one larger than max.
func readLimited(root *os.Root, name string, max int64) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, larger than %d", name, fi.Size(), max)
	}
	return io.ReadAll(io.LimitReader(f, max+1))
}

type exportBackend struct{ root *os.Root }

func (eb exportBackend) open(_ context.Context, f *File) (io.ReadCloser, error) {
	return eb.root.Open(ExportBlobs + "/" + f.Digest.Hex())
}

func (eb exportBackend) get(context.Context, string) (*Skill, error) { return nil, ErrNotFound }
func (eb exportBackend) close() error                                { return eb.root.Close() }

// DownloadTimeout bounds Download's request, body included.
const DownloadTimeout = 60 * time.Second

// DownloadOptions configure Download.
type DownloadOptions struct {
	// Client makes the requests; a fresh one if nil. Either way they are
	// bounded by internal/fetch (its idle time, DownloadTimeout, MaxBytes),
	// and its redirect policy is replaced: only https, at most 5 redirects.
	Client *http.Client
	// MaxBytes caps the download; 256 MiB if 0.
	MaxBytes int64
	// TempDir holds the downloaded bundle until Close (made if missing);
	// os.TempDir() if empty.
	TempDir string
}

// Download fetches a bundle over https and opens it. The URL must be https
// and should carry its sha256 pin as a fragment (…/x.skb#sha256=<hex>): the
// file is hashed while it streams to a temporary file, and a different
// digest is refused before the bundle is opened. Without a pin, trusted keys
// are required (the signature then vouches for the content). The temporary
// file is removed by Close.
func Download(ctx context.Context, rawURL string, opt DownloadOptions, trusted []manifest.TrustedKey) (*Source, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("bundle url: %w", err)
	}
	name := redact(u)
	if u.Scheme != "https" {
		return nil, fmt.Errorf("bundle url %s: only https is allowed", name)
	}
	var pin *manifest.Digest
	if u.Fragment != "" {
		hexPin, ok := strings.CutPrefix(u.Fragment, "sha256=")
		d, err := manifest.ParseDigest("sha256:" + hexPin)
		if !ok || err != nil {
			return nil, fmt.Errorf("bundle url %s: fragment must be #sha256=<64 lowercase hex>", name)
		}
		pin = &d
	}
	if pin == nil && trusted == nil {
		return nil, fmt.Errorf("bundle url %s: give its digest as #sha256=<hex>, or trusted keys with --trust", name)
	}
	u.Fragment = ""
	path, etag, err := downloadBundle(ctx, u, name, pin, opt)
	if err != nil {
		return nil, err
	}
	b, err := manifest.OpenFile(path)
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("bundle url %s: %w", name, err)
	}
	src, err := fromBundle(b, name, trusted)
	if err != nil {
		b.Close()
		os.Remove(path)
		return nil, err
	}
	src.back = tempBundle{bundleBackend{b}, path, etag}
	return src, nil
}

type tempBundle struct {
	bundleBackend
	path string
	etag string // the server's strong ETag for the file, if it gave one
}

func (t tempBundle) close() error {
	err := t.bundleBackend.close()
	return errors.Join(err, os.Remove(t.path))
}

// downloadClient is the bounded client of a bundle download: https only,
// at most 5 redirects, max bytes.
func downloadClient(opt DownloadOptions, max int64) *http.Client {
	return fetch.Client(opt.Client, fetch.Policy{Timeout: DownloadTimeout, MaxBytes: max, Redirects: 5,
		CheckURL: func(u *url.URL) error {
			if u.Scheme != "https" {
				return fmt.Errorf("redirect to %s: only https is allowed", redact(u))
			}
			return nil
		}})
}

// downloadMax is opt's byte cap, with its default.
func downloadMax(opt DownloadOptions) int64 {
	if opt.MaxBytes == 0 {
		return 256 << 20
	}
	return opt.MaxBytes
}

// downloadBundle downloads u into a temporary file, hashing it on the way, and
// checks the pin. It returns the server's ETag for the file when it is strong.
func downloadBundle(ctx context.Context, u *url.URL, name string, pin *manifest.Digest, opt DownloadOptions) (path, etag string, err error) {
	max := downloadMax(opt)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", "", fmt.Errorf("bundle url %s: %w", name, err)
	}
	resp, err := downloadClient(opt, max).Do(req)
	if fetch.RuleOf(err) == fetch.RuleTooLarge {
		return "", "", fmt.Errorf("bundle url %s: larger than the %d-byte limit (%w)", name, max, scrub(err))
	}
	if err != nil {
		return "", "", fmt.Errorf("bundle url %s: %w", name, scrub(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", "", fmt.Errorf("bundle url %s: %s", name, resp.Status)
	}
	if e := resp.Header.Get("ETag"); StrongETag(e) {
		etag = e
	}
	if resp.ContentLength > max {
		return "", "", fmt.Errorf("bundle url %s: %d bytes, larger than the %d-byte limit", name, resp.ContentLength, max)
	}
	if opt.TempDir != "" {
		if err := os.MkdirAll(opt.TempDir, 0o700); err != nil {
			return "", "", fmt.Errorf("bundle url %s: %w", name, err)
		}
	}
	f, err := os.CreateTemp(opt.TempDir, "skills-mcp-pull-*.skb")
	if err != nil {
		return "", "", fmt.Errorf("bundle url %s: %w", name, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("bundle url %s: %w", name, cerr)
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(resp.Body, max+1))
	if fetch.RuleOf(err) == fetch.RuleTooLarge {
		return "", "", fmt.Errorf("bundle url %s: larger than the %d-byte limit (%w)", name, max, err)
	}
	if err != nil {
		return "", "", fmt.Errorf("bundle url %s: download: %w", name, scrub(err))
	}
	if n > max {
		return "", "", fmt.Errorf("bundle url %s: larger than the %d-byte limit", name, max)
	}
	got := hex.EncodeToString(h.Sum(nil))
	if pin != nil && got != pin.Hex() {
		return "", "", fmt.Errorf("bundle url %s: sha256 mismatch: pinned %s, downloaded %s (%d bytes)", name, pin.Hex(), got, n)
	}
	return f.Name(), etag, nil
}

// Unchanged asks an https server with one HEAD whether the bundle at rawURL
// (its fragment ignored) is still the file it gave etag: pull --check of an
// unpinned https source with a recorded ETag downloads nothing when the
// answer is yes. A 304 (to If-None-Match) or a 200 with the same strong ETag
// is unchanged; any other success is changed; a failure is an error.
func Unchanged(ctx context.Context, rawURL, etag string, opt DownloadOptions) (bool, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false, fmt.Errorf("bundle url: %w", err)
	}
	name := redact(u)
	if u.Scheme != "https" {
		return false, fmt.Errorf("bundle url %s: only https is allowed", name)
	}
	u.Fragment = ""
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, u.String(), nil)
	if err != nil {
		return false, fmt.Errorf("bundle url %s: %w", name, err)
	}
	req.Header.Set("If-None-Match", etag)
	resp, err := downloadClient(opt, downloadMax(opt)).Do(req)
	if err != nil {
		return false, fmt.Errorf("bundle url %s: %w", name, scrub(err))
	}
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified:
		return true, nil
	case resp.StatusCode == http.StatusOK:
		return resp.Header.Get("ETag") == etag, nil
	}
	return false, fmt.Errorf("bundle url %s: %s", name, resp.Status)
}

// redact drops the query and fragment of a URL for messages: signed URLs
// carry credentials there.
func redact(u *url.URL) string {
	c := *u
	c.RawQuery, c.Fragment, c.RawFragment, c.User = "", "", "", nil
	return c.String()
}

// scrub removes the URL from a *url.Error, which would otherwise repeat it
// with its query.
func scrub(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
