package teamserver

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

func get(t testing.TB, method, u string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

func TestWellKnownEndpoint(t *testing.T) {
	b := exampleBuilt(t)
	s := newServer(t, serve.Options{}, b)
	ts := httptest.NewServer(httpHandler(s, "skills.example.com"))
	defer ts.Close()
	indexURL := ts.URL + wellknown.IndexPath

	resp, body := get(t, "GET", indexURL)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != wellknown.IndexMIME || resp.Header.Get("Cache-Control") != IndexCacheControl {
		t.Fatalf("index: %s %v", resp.Status, resp.Header)
	}
	etag := resp.Header.Get("ETag")
	if etag != `"`+manifest.Sum(body).String()+`"` {
		t.Fatalf("index ETag %s is not the quoted digest of its bytes", etag)
	}
	// The served site is the one export writes: the same function.
	want, _ := wellknown.NewSite([]*manifest.Bundle{b}, wellknown.SiteOptions{})
	wantIdx, _ := want.Index().Bytes()
	if !bytes.Equal(body, wantIdx) {
		t.Fatalf("served index differs from the exported one")
	}
	p, err := wellknown.ParseIndex(body)
	if err != nil || len(p.Refused) > 0 || len(p.Entries) != 10 {
		t.Fatalf("index: %v %v, %d entries", err, p.Refused, len(p.Entries))
	}
	for _, e := range p.Entries {
		if e.Name == "deploy-production" {
			t.Errorf("hidden skill %s listed without --show-disabled", e.Name)
		}
		base, _ := url.Parse(indexURL)
		ref, _ := url.Parse(e.URL)
		u := base.ResolveReference(ref).String()
		resp, data := get(t, "GET", u)
		ctype := wellknown.SkillMDMIME
		if e.Type == wellknown.TypeArchive {
			ctype = wellknown.ArchiveMIME
		}
		switch {
		case resp.StatusCode != 200:
			t.Fatalf("%s: %s", u, resp.Status)
		case manifest.Sum(data).String() != e.Digest:
			t.Errorf("%s: bytes do not hash to the entry's digest", u)
		case resp.Header.Get("ETag") != `"`+e.Digest+`"`:
			t.Errorf("%s: ETag %s", u, resp.Header.Get("ETag"))
		case resp.Header.Get("Cache-Control") != ArtifactCacheControl:
			t.Errorf("%s: Cache-Control %s", u, resp.Header.Get("Cache-Control"))
		case resp.Header.Get("Content-Type") != ctype:
			t.Errorf("%s: Content-Type %s, want %s", u, resp.Header.Get("Content-Type"), ctype)
		}
		// HEAD: the same headers, no body.
		hresp, hbody := get(t, "HEAD", u)
		if hresp.StatusCode != 200 || len(hbody) != 0 || hresp.Header.Get("ETag") != resp.Header.Get("ETag") || hresp.ContentLength != int64(len(data)) {
			t.Errorf("HEAD %s: %s, %d bytes, length %d", u, hresp.Status, len(hbody), hresp.ContentLength)
		}
		// If-None-Match with the ETag (alone or in a list) → 304; another → 200.
		for _, inm := range []string{resp.Header.Get("ETag"), `"x", ` + resp.Header.Get("ETag"), "*"} {
			if r, b := get(t, "GET", u, "If-None-Match", inm); r.StatusCode != 304 || len(b) != 0 {
				t.Errorf("%s If-None-Match %s: %s", u, inm, r.Status)
			}
		}
		if r, _ := get(t, "GET", u, "If-None-Match", `"sha256:other"`); r.StatusCode != 200 {
			t.Errorf("%s with a stale ETag: %s", u, r.Status)
		}
	}
	if r, _ := get(t, "GET", indexURL, "If-None-Match", etag); r.StatusCode != 304 {
		t.Errorf("index If-None-Match: %s", r.Status)
	}
	for _, tc := range []struct {
		method, path string
		hdr          []string
		want         int
	}{
		{"POST", wellknown.IndexPath, nil, 405},
		{"PUT", wellknown.IndexPath, nil, 405},
		{"GET", wellknown.Dir + "nope/SKILL.md", nil, 404},
		{"GET", wellknown.Dir, nil, 404},
		{"GET", wellknown.Dir + "manifest.json", nil, 404}, // unsigned: no manifest
		{"GET", wellknown.Dir + "../mcp", nil, 404},
		{"GET", "/.well-known/skills/index.json", nil, 404},
		// The same Host and Origin rules as /mcp.
		{"GET", wellknown.IndexPath, []string{"Host", "evil.example.com"}, 403},
		{"GET", wellknown.IndexPath, []string{"Origin", "https://evil.example.com"}, 403},
		{"GET", wellknown.IndexPath, []string{"Host", "skills.example.com", "Origin", "https://skills.example.com"}, 200},
	} {
		if r, _ := get(t, tc.method, ts.URL+tc.path, tc.hdr...); r.StatusCode != tc.want {
			t.Errorf("%s %s %q: %s, want %d", tc.method, tc.path, tc.hdr, r.Status, tc.want)
		}
	}

	// --show-disabled lists the hidden skill; a swap serves the new site.
	s2 := newServer(t, serve.Options{ShowDisabled: true}, b)
	ts2 := httptest.NewServer(httpHandler(s2))
	defer ts2.Close()
	if _, body := get(t, "GET", ts2.URL+wellknown.IndexPath); !strings.Contains(string(body), `"name": "deploy-production"`) {
		t.Errorf("--show-disabled: hidden skill not listed")
	}
	other, _ := memBundle(t, exampleFixture())
	if err := s.Swap([]*manifest.Bundle{other}); err != nil {
		t.Fatal(err)
	}
	if r, _ := get(t, "GET", indexURL, "If-None-Match", etag); r.StatusCode != 200 {
		t.Errorf("after a swap, the old index ETag still matches: %s", r.Status)
	}
}

// TestWellKnownSigned serves a signed bundle's manifest and signatures next
// to the index.
func TestWellKnownSigned(t *testing.T) {
	b := exampleBuilt(t)
	signed := signBundle(t, b)
	s := newServer(t, serve.Options{}, signed)
	ts := httptest.NewServer(httpHandler(s))
	defer ts.Close()
	_, body := get(t, "GET", ts.URL+wellknown.IndexPath)
	p, err := wellknown.ParseIndex(body)
	if err != nil || p.Extra == nil || p.Extra.Manifest != manifest.ManifestFile || len(p.Extra.Signatures) != 2 {
		t.Fatalf("signed index extra: %+v %v", p.Extra, err)
	}
	resp, msg := get(t, "GET", ts.URL+wellknown.Dir+p.Extra.Manifest)
	want, _ := signed.ManifestBytes()
	if resp.StatusCode != 200 || !bytes.Equal(msg, want) || resp.Header.Get("Cache-Control") != IndexCacheControl {
		t.Fatalf("manifest: %s", resp.Status)
	}
	for i, name := range p.Extra.Signatures {
		if resp, sig := get(t, "GET", ts.URL+wellknown.Dir+name); resp.StatusCode != 200 || !bytes.Equal(sig, signed.Signatures()[i].Data) {
			t.Errorf("%s: %s", name, resp.Status)
		}
	}
}

// BenchmarkWellKnownArtifact compares a GET of a skill's artifact with a
// resources/read of the same bytes (its SKILL.md), one client over HTTP.
func BenchmarkWellKnownArtifact(b *testing.B) {
	bu := exampleBuilt(b)
	s := newServer(b, serve.Options{}, bu)
	ts := httptest.NewServer(httpHandler(s))
	defer ts.Close()
	site, err := s.Snapshot().Site()
	if err != nil {
		b.Fatal(err)
	}
	var md, archive *wellknown.SiteFile
	for _, f := range site.Files {
		if f.ContentType == wellknown.SkillMDMIME && md == nil {
			md = f
		}
		if f.ContentType == wellknown.ArchiveMIME && archive == nil {
			archive = f
		}
	}
	hc := &http.Client{Transport: &http.Transport{}}
	fetch := func(b *testing.B, f *wellknown.SiteFile) {
		u := ts.URL + wellknown.Dir + f.Path
		b.SetBytes(f.Size)
		for b.Loop() {
			resp, err := hc.Get(u)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	b.Run("artifact-skill-md", func(b *testing.B) { fetch(b, md) })
	b.Run("artifact-archive", func(b *testing.B) { fetch(b, archive) })
	b.Run("resources-read", func(b *testing.B) {
		post := httpPoster(hc, ts.URL+Endpoint)
		m, _ := bu.Manifest()
		var uri string
		for _, sk := range m.Skills {
			if sk.Entry.Resources[0].Digest == md.Digest {
				uri = sk.Entry.URI
			}
		}
		b.SetBytes(md.Size)
		i := 0
		for b.Loop() {
			i++
			if err := rawRead(post, i, uri); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// signBundle returns b signed with a fresh key, SSHSIG and minisign.
func signBundle(t testing.TB, b *manifest.Bundle) *manifest.Bundle {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := b.ManifestBytes()
	mini, err := manifest.SignMinisign(key, msg, "skills bundle "+b.ID().String())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := b.WriteSigned(&buf, []manifest.Signature{{Kind: manifest.SignatureSSH, Data: manifest.SignSSH(key, msg)}, {Kind: manifest.SignatureMinisign, Data: mini}}); err != nil {
		t.Fatal(err)
	}
	return bundletest.Open(t, buf.Bytes())
}
