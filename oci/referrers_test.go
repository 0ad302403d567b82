package oci

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// referrersRegistry is go-containerregistry's registry with the OCI 1.1
// referrers API turned on (distribution 2.8, the other registry of the
// tests, has none), on a loopback port, with every request it answered
// recorded as "METHOD PATH".
type referrersRegistry struct {
	host     string
	mu       sync.Mutex
	requests []string
}

func startReferrersRegistry(t *testing.T) *referrersRegistry {
	t.Helper()
	r := &referrersRegistry{}
	h := registry.New(registry.WithReferrersSupport(true), registry.Logger(log.New(io.Discard, "", 0)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.requests = append(r.requests, req.Method+" "+req.URL.Path)
		r.mu.Unlock()
		h.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.host = strings.TrimPrefix(srv.URL, "http://")
	return r
}

// seen counts the requests with the given method whose path contains part.
func (r *referrersRegistry) seen(method, part string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, q := range r.requests {
		if strings.HasPrefix(q, method+" ") && strings.Contains(q, part) {
			n++
		}
	}
	return n
}

// TestReferrersAPI pushes a signed bundle to a registry with the OCI 1.1
// referrers API: the signatures are attached by subject alone (no
// sha256-<hex> tag index is written), a fetch under trust finds them
// through GET /v2/<name>/referrers/<digest> and the cached bundle carries
// them. A referrer listed there as a signature that is none is refused
// under trust, naming the reference and the rule.
func TestReferrersAPI(t *testing.T) {
	reg := startReferrersRegistry(t)
	ctx := context.Background()
	sign, trusted, _ := signer(t)
	_, b := buildBundle(t, genLibrary(t, 3, ""), sign)
	ref, err := ParseRef(Scheme + reg.host + "/skills/signed:v1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Push(ctx, b, ref, nil, testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Signatures == "" {
		t.Fatal("push attached no signatures")
	}
	// This registry does not answer a manifest with a subject with the
	// OCI-Subject header, so oras-go writes the tag index as well; the
	// fetch below must not need it.
	tagIndex := "/manifests/" + strings.Replace(res.Digest, ":", "-", 1)

	o := testOptions(t)
	o.Trusted = trusted
	api := "/referrers/" + res.Digest
	pushReads := reg.seen(http.MethodGet, tagIndex)
	f, err := Fetch(ctx, res.Ref.String(), o)
	if err != nil {
		t.Fatal(err)
	}
	if reg.seen(http.MethodGet, api) == 0 {
		t.Errorf("the fetch did not ask the referrers API (%s)", api)
	}
	// cosign's simple-signing tag, sha256-<hex>.sig, is another resource,
	// which every fetch asks for.
	sigTag := reg.seen(http.MethodGet, tagIndex+".sig")
	if n := reg.seen(http.MethodGet, tagIndex) - sigTag - pushReads; n != 0 {
		t.Errorf("the fetch read the tag index %d times", n)
	}
	fb, err := manifest.OpenFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer fb.Close()
	mb, _ := fb.ManifestBytes()
	if len(fb.Signatures()) != 2 {
		t.Errorf("the cached bundle carries %d signatures, want 2", len(fb.Signatures()))
	}
	if _, err := manifest.VerifySignatures(mb, fb.Signatures(), trusted); err != nil {
		t.Errorf("cached bundle: %v", err)
	}

	// A manifest with the artifact as subject and the signatures' type as
	// its config's media type, but no artifactType: the referrers API
	// lists it as a signature (by its config), and it is none.
	repo, err := o.repository(ref)
	if err != nil {
		t.Fatal(err)
	}
	empty := ocispec.DescriptorEmptyJSON
	if err := repo.Push(ctx, empty, bytes.NewReader(empty.Data)); err != nil {
		t.Fatal(err)
	}
	subject, err := repo.Resolve(ctx, "v1")
	if err != nil {
		t.Fatal(err)
	}
	subject = ocispec.Descriptor{MediaType: subject.MediaType, Digest: subject.Digest, Size: subject.Size}
	body, err := marshal(ocispec.Manifest{
		Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest,
		Config: ocispec.Descriptor{MediaType: SignaturesType, Digest: empty.Digest, Size: empty.Size},
		Layers: []ocispec.Descriptor{empty}, Subject: &subject,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Push(ctx, descriptorOf(ocispec.MediaTypeImageManifest, body), bytes.NewReader(body)); err != nil {
		t.Fatal(err)
	}
	o = testOptions(t)
	o.Trusted = trusted
	before := cacheState(t, o.CacheDir)
	_, err = Fetch(ctx, res.Ref.String(), o)
	want := regexp.QuoteMeta(res.Ref.String()) + `: signature referrer sha256:[0-9a-f]{64}: not a signature of this artifact`
	assertRefused(t, err, res.Ref.String(), want, o, before)
}
