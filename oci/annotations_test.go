package oci

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestAnnotations pushes the example library, built with a version, a
// source, a revision and SOURCE_DATE_EPOCH's time, to a real registry and
// reads the image manifest back as any client would: the four
// org.opencontainers.image annotations are there; a second push of the
// same bundle gives the same digest; a bundle of two libraries of two
// versions gets no version.
func TestAnnotations(t *testing.T) {
	r := startRegistry(t, false)
	lib := build.Library{Namespace: "acme", Root: "../testdata/example/acme", Version: "2026.12",
		Source: "https://git.example.com/acme/skills", Metadata: map[string]string{manifest.RevisionKey: "0123abcd"}}
	created := time.Unix(1764547200, 0).UTC()
	push := func(libs []build.Library, tag string) map[string]string {
		t.Helper()
		var buf bytes.Buffer
		if _, err := build.Build(build.Options{Libraries: libs, Created: created}, &buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "b.skb")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := manifest.OpenFile(p)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		ref, err := ParseRef(r.ref("skills/acme:" + tag))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Push(context.Background(), b, ref, nil, testOptions(t))
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodGet, "http://"+r.Host+"/v2/skills/acme/manifests/"+tag, nil)
		req.Header.Set("Accept", ocispec.MediaTypeImageManifest)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var im ocispec.Manifest
		if err := json.NewDecoder(resp.Body).Decode(&im); err != nil {
			t.Fatal(err)
		}
		if got := resp.Header.Get("Docker-Content-Digest"); got != res.Digest {
			t.Fatalf("registry serves %s for the digest %s", got, res.Digest)
		}
		im.Annotations["digest"] = res.Digest
		return im.Annotations
	}
	a := push([]build.Library{lib}, "v1")
	for k, want := range map[string]string{
		ocispec.AnnotationVersion:  "2026.12",
		ocispec.AnnotationSource:   "https://git.example.com/acme/skills",
		ocispec.AnnotationRevision: "0123abcd",
		ocispec.AnnotationCreated:  "2025-12-01T00:00:00Z",
	} {
		if a[k] != want {
			t.Errorf("%s = %q, want %q", k, a[k], want)
		}
	}
	if again := push([]build.Library{lib}, "v1-again"); again["digest"] != a["digest"] {
		t.Errorf("the same bundle pushed twice: %s, then %s", a["digest"], again["digest"])
	}
	other := build.Library{Namespace: "community", Root: "../testdata/example/community", Version: "1.0"}
	two := push([]build.Library{lib, other}, "two")
	if _, ok := two[ocispec.AnnotationVersion]; ok || two[ocispec.AnnotationSource] != lib.Source {
		t.Errorf("two libraries of two versions: %v", two)
	}
}
