package oci

import (
	"archive/tar"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/manifest"
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

// FuzzReadSkillLayer: a ToolHive layer of any bytes is read or refused;
// what is read holds only files under the skill's folder, each path one
// manifest.CheckPath passes, within the file and skill limits.
func FuzzReadSkillLayer(f *testing.F) {
	f.Add(toolHiveLayer(f, []tar.Header{{Name: "SKILL.md"}, {Name: "a/b.txt"}}, []string{"---\nname: x\n---\n", "b"}))
	f.Add(toolHiveLayer(f, []tar.Header{{Name: "../x"}}, []string{"x"}))
	f.Add([]byte("\x1f\x8b\x08\x00garbage"))
	f.Fuzz(func(t *testing.T, layer []byte) {
		tree, err := readSkillLayer(layer, "skill", build.DefaultArchiveLimits(), build.DefaultMaxFileBytes)
		if err != nil {
			return
		}
		var total int64
		files := 0
		err = fs.WalkDir(tree, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rest, ok := strings.CutPrefix(p, "skill/")
			if !ok || manifest.CheckPath(rest) != nil {
				t.Fatalf("read %q: not a path under the skill's folder", p)
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if !info.Mode().IsRegular() || info.Size() > build.DefaultMaxFileBytes {
				t.Fatalf("read %q: mode %v, %d bytes", p, info.Mode(), info.Size())
			}
			files++
			total += info.Size()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := manifest.CheckSkillLimits(files, total); err != nil {
			t.Fatalf("read past the skill limits: %v", err)
		}
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

// FuzzReadPack: a pack layer of any bytes reads or is refused; what reads
// is blobs that hash to their names, none twice, none empty, within what a
// pack may hold.
func FuzzReadPack(f *testing.F) {
	one, two := []byte("first blob\n"), []byte("second blob\n")
	title := packTitle(manifest.Sum(one))
	good, tarD := makePack(f, []packEntry{entryOf(title, one), entryOf(title, two)}, nil, nil)
	f.Add(good, tarD)
	bad, badD := makePack(f, []packEntry{entryOf(title, one), {tar.Header{Typeflag: tar.TypeSymlink, Name: title + "/x", Linkname: "/etc"}, nil}}, nil, nil)
	f.Add(bad, badD)
	f.Add([]byte("\x1f\x8b\x08\x00garbage"), tarD)
	f.Fuzz(func(t *testing.T, layer []byte, tarDigest string) {
		bs, err := readPack(layer, title, tarDigest)
		if err != nil {
			if !errors.Is(err, errPack) {
				t.Fatalf("refusal %v does not wrap errPack", err)
			}
			return
		}
		seen := map[manifest.Digest]bool{}
		total := 0
		for _, b := range bs {
			if len(b.data) == 0 || manifest.Sum(b.data) != b.d || seen[b.d] {
				t.Fatalf("read a blob %s of %d bytes that is empty, not as named, or twice", b.d, len(b.data))
			}
			seen[b.d] = true
			total += len(b.data)
		}
		if len(bs) == 0 || bs[0].d != manifest.Sum(one) || total > maxPackTar {
			t.Fatalf("read %d blobs, %d bytes", len(bs), total)
		}
	})
}
