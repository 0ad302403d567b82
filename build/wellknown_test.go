package build

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// TestIndexLibrary builds a discovery site (our own export of the example
// library) as a library: every skill at its path under the namespace, with
// the same bytes; then again with the site down, from the cache; and with a
// lying entry, which is left out with its rule named.
func TestIndexLibrary(t *testing.T) {
	orig, _ := buildBytes(t, exampleOptions(t))
	ob, err := manifest.Open(bytes.NewReader(orig), int64(len(orig)))
	if err != nil {
		t.Fatal(err)
	}
	site, err := wellknown.NewSite([]*manifest.Bundle{ob}, wellknown.SiteOptions{ShowHidden: true})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range site.Files {
		files[wellknown.Dir+f.Path], _ = f.Bytes()
	}
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	defer ts.Close()
	cache := t.TempDir()
	opt := Options{
		Libraries: []Library{{Namespace: "web", URL: ts.URL + wellknown.IndexPath}},
		Fetch:     FetchOptions{CacheDir: cache, Client: ts.Client()},
	}
	data, _ := buildBytes(t, opt)
	b, err := manifest.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := b.Manifest()
	om, _ := ob.Manifest()
	if len(m.Skills) != len(om.Skills) || len(m.Warnings) > 0 {
		t.Fatalf("%d skills (want %d), warnings %q", len(m.Skills), len(om.Skills), m.Warnings)
	}
	for i, s := range m.Skills {
		o := om.Skills[i]
		if s.Path != "web/"+o.Path || s.Hidden != o.Hidden || len(s.Files) != len(o.Files) {
			t.Fatalf("skill %s (hidden %v), want web/%s (hidden %v)", s.Path, s.Hidden, o.Path, o.Hidden)
		}
		for j := range s.Files {
			if s.Files[j].Path != o.Files[j].Path || s.Entry.Resources[j].Digest != o.Entry.Resources[j].Digest {
				t.Errorf("%s: file %s differs from the original's", s.Path, s.Files[j].Path)
			}
		}
	}
	if m.Libraries[0].Kind != "url" || m.Libraries[0].Digest == nil || *m.Libraries[0].Digest != manifest.Sum(files[wellknown.IndexPath]) {
		t.Errorf("library %+v: want kind url and the index's digest", m.Libraries[0])
	}

	// The site is down: the cached index and artifacts give the same skills
	// (the bundle differs only by the warning in its manifest).
	ts.Close()
	var warned []string
	opt.Warn = func(s string) { warned = append(warned, s) }
	again, _ := buildBytes(t, opt)
	b2, _ := manifest.Open(bytes.NewReader(again), int64(len(again)))
	if b2.NumSkills() != b.NumSkills() || len(warned) != 1 || !strings.Contains(warned[0], "cached") {
		t.Fatalf("offline rebuild: %d skills, warnings %q", b2.NumSkills(), warned)
	}
	for i := range b.NumSkills() {
		e1, _ := b.EntryJSON(i)
		e2, _ := b2.EntryJSON(i)
		if !bytes.Equal(e1, e2) {
			t.Errorf("offline rebuild: skill %s differs", b.SkillURI(i))
		}
	}

	// A lying entry is left out, and says why.
	ts2 := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, ok := files[r.URL.Path]
		if r.URL.Path == wellknown.IndexPath {
			p, _ := wellknown.ParseIndex(data)
			data = bytes.Replace(data, []byte(p.Entries[0].Digest), []byte("sha256:"+strings.Repeat("0", 64)), 1)
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	defer ts2.Close()
	warned = nil
	opt.Libraries[0].URL = ts2.URL + wellknown.IndexPath
	opt.Fetch = FetchOptions{CacheDir: t.TempDir(), Client: ts2.Client()}
	lied, _ := buildBytes(t, opt)
	b3, _ := manifest.Open(bytes.NewReader(lied), int64(len(lied)))
	if b3.NumSkills() >= b.NumSkills() || len(warned) == 0 || !strings.Contains(strings.Join(warned, "\n"), "(rule digest-mismatch)") {
		t.Errorf("lying entry: %d skills, warnings %q", b3.NumSkills(), warned)
	}
}
