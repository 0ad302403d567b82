package oci_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/cosign"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

// TestToolHiveDerived: a ToolHive skill fetched under cosign trust leaves
// in the cache a record of the bundle it built into, and a warm start by
// that record needs neither the analyser nor the artifact's blobs; but the
// signatures are still checked (another key is refused), a bundle that is
// not the one recorded is rebuilt, a record that does not parse is not
// trusted, and a record another analyser wrote is not used.
func TestToolHiveDerived(t *testing.T) {
	ctx := context.Background()
	d, o, online := fetchedToolHive(t)
	offline := oci.Scheme + "127.0.0.1:1/toolhive/notes@" + d
	records := func() []string {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(o.CacheDir, "oci", "derived", "sha256", "*"))
		return m
	}
	if len(records()) != 1 {
		t.Fatalf("records after the fetch: %v, want one", records())
	}
	cached, err := manifest.OpenFile(online.Path)
	if err != nil {
		t.Fatal(err)
	}
	want, sigs := cached.ID(), cached.Signatures()
	m, err := cached.Manifest()
	cached.Close()
	if err != nil || len(m.Libraries) != 1 {
		t.Fatal(err)
	}
	signed := build.Library{Source: m.Libraries[0].Source, Version: m.Libraries[0].Version}
	blobs := filepath.Join(o.CacheDir, "oci", "blobs")
	hideBlobs := func() (restore func()) {
		t.Helper()
		if err := os.Rename(blobs, blobs+".aside"); err != nil {
			t.Fatal(err)
		}
		return func() {
			if err := os.Rename(blobs+".aside", blobs); err != nil {
				t.Fatal(err)
			}
		}
	}
	warm := func(o oci.Options) (*oci.Fetched, error) {
		t.Helper()
		return oci.Fetch(ctx, offline, o)
	}
	isSigned := func() {
		t.Helper()
		b, err := manifest.OpenFile(online.Path)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if b.ID() != want {
			t.Errorf("the cached bundle is %s, want the signed artifact's %s", b.ID(), want)
		}
	}

	t.Run("the record vouches, not a rebuild", func(t *testing.T) {
		defer hideBlobs()()
		if f, err := warm(o); err != nil || !f.Cached || f.Signer != online.Signer {
			t.Fatalf("warm start with the record and no blobs: %+v, %v", f, err)
		}
	})
	t.Run("another key is checked again", func(t *testing.T) {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		other, err := cosign.NewKeyVerifier([]crypto.PublicKey{&k.PublicKey})
		if err != nil {
			t.Fatal(err)
		}
		oo := o
		oo.Cosign = other
		if f, err := warm(oo); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
			t.Fatalf("warm start trusting another key: %+v, %v; want the registry asked", f, err)
		}
	})
	t.Run("a bundle not the one recorded is rebuilt", func(t *testing.T) {
		md := "---\nname: notes\ndescription: Take notes.\nversion: 0.3.0\n---\nWrite it dawn.\n"
		plant(t, online.Path, sigs, map[string]string{"notes/SKILL.md": md}, signed)
		if f, err := warm(o); err != nil || !f.Cached || f.Signer != online.Signer {
			t.Fatalf("warm start, planted: %+v, %v", f, err)
		}
		isSigned()
		// And flipped a byte of its manifest: not a bundle any more.
		data, err := os.ReadFile(online.Path)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(data), "Take notes.")
		if i < 0 {
			t.Fatal("no description in the bundle")
		}
		data[i] ^= 0x20
		if err := os.WriteFile(online.Path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if f, err := warm(o); err != nil || !f.Cached {
			t.Fatalf("warm start, corrupted: %+v, %v", f, err)
		}
		isSigned()
	})
	t.Run("a record that does not parse is not trusted", func(t *testing.T) {
		r := records()
		if len(r) != 1 {
			t.Fatalf("records: %v", r)
		}
		good, err := os.ReadFile(r[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"", "garbage\n", strings.Replace(string(good), "sha256:", "sha256:0", 1), strings.Replace(string(good), "v1", "v2", 1), string(good) + "more\n"} {
			if err := os.WriteFile(r[0], []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			restore := hideBlobs()
			if f, err := warm(o); err == nil {
				t.Errorf("warm start by the record %q with no blobs: %+v; want the registry asked", bad, f)
			}
			restore()
		}
		if f, err := warm(o); err != nil || !f.Cached {
			t.Fatalf("warm start with the blobs: %+v, %v", f, err)
		}
		if got, err := os.ReadFile(r[0]); err != nil || string(got) != string(good) {
			t.Errorf("the record is %q after a rebuild, want %q (%v)", got, good, err)
		}
	})
	t.Run("another analyser does not use the record", func(t *testing.T) {
		defer oci.SetAnalyserVersion("another analyser")()
		restore := hideBlobs()
		if f, err := warm(o); err == nil {
			t.Errorf("warm start by another analyser with no blobs: %+v; want the registry asked", f)
		}
		restore()
		if f, err := warm(o); err != nil || !f.Cached {
			t.Fatalf("warm start by another analyser: %+v, %v", f, err)
		}
		isSigned()
		if len(records()) != 2 {
			t.Errorf("records: %v, want one for each analyser", records())
		}
		defer hideBlobs()()
		if f, err := warm(o); err != nil || !f.Cached {
			t.Errorf("warm start by its own record: %+v, %v", f, err)
		}
	})
}
