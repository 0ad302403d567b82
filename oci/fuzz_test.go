package oci

import (
	"archive/tar"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseRef: any string parses to a reference that prints back to
// itself, or is an error; a parsed reference never carries credentials,
// a query or a fragment.
func FuzzParseRef(f *testing.F) {
	for _, s := range []string{
		"oci://127.0.0.1:5000/skills/acme:v1", "oci://ghcr.io/acme/skills@sha256:" + strings.Repeat("a", 64),
		"oci://user:pw@host/repo:tag", "oci://host/repo?x=1", "oci://host", "oci://host/Repo:tag", "oci://[::1]:5000/r:t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRef(s)
		if err != nil {
			return
		}
		if strings.ContainsAny(r.Host, "@?#/") || strings.ContainsAny(r.Repository, "@?#:") {
			t.Fatalf("%q parsed to %+v", s, r)
		}
		r2, err := ParseRef(r.String())
		if err != nil || r2 != r {
			t.Fatalf("%q: %+v prints as %q, which parses to %+v, %v", s, r, r.String(), r2, err)
		}
	})
}

// FuzzUnpackSkill: a ToolHive layer of any bytes unpacks or is refused,
// and never writes outside the folder it is given.
func FuzzUnpackSkill(f *testing.F) {
	f.Add(toolHiveLayer(f, []tar.Header{{Name: "SKILL.md"}, {Name: "a/b.txt"}}, []string{"---\nname: x\n---\n", "b"}))
	f.Add(toolHiveLayer(f, []tar.Header{{Name: "../x"}}, []string{"x"}))
	f.Add([]byte("\x1f\x8b\x08\x00garbage"))
	f.Fuzz(func(t *testing.T, layer []byte) {
		base := t.TempDir()
		dir := filepath.Join(base, "in", "skill")
		_ = unpackSkill(layer, dir)
		filepath.Walk(base, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !strings.HasPrefix(p, filepath.Join(base, "in")) && p != base {
				t.Fatalf("wrote %s outside %s", p, dir)
			}
			if err == nil && fi.Mode()&os.ModeSymlink != 0 {
				t.Fatalf("made a symlink %s", p)
			}
			return nil
		})
	})
}

// TestPlainHTTPRule: plain http reaches loopback registries, and others
// only when named in Insecure (as HOST or HOST:PORT).
func TestPlainHTTPRule(t *testing.T) {
	for _, c := range []struct {
		host     string
		insecure []string
		ok       bool
	}{
		{"127.0.0.1:5000", nil, true},
		{"localhost:5000", nil, true},
		{"[::1]:5000", nil, true},
		{"127.1.2.3", nil, true},
		{"registry.internal:5000", nil, false},
		{"registry.internal:5000", []string{"registry.internal"}, true},
		{"registry.internal:5000", []string{"registry.internal:5000"}, true},
		{"registry.internal:5000", []string{"registry.internal:5001"}, false},
		{"10.0.0.1", nil, false},
		{"localhost.evil.example", nil, false},
	} {
		o := Options{PlainHTTP: true, Insecure: c.insecure}
		if err := o.checkPlainHTTP(c.host); (err == nil) != c.ok {
			t.Errorf("%s with insecure %v: %v, want ok=%v", c.host, c.insecure, err, c.ok)
		}
	}
}
