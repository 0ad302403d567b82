package oci

import (
	"context"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain lets a test run Fetch in a child process it can kill: with
// SKILLS_OCI_TEST_FETCH set to a reference, the test binary fetches it into
// SKILLS_OCI_TEST_CACHE and exits.
func TestMain(m *testing.M) {
	if ref := os.Getenv("SKILLS_OCI_TEST_FETCH"); ref != "" {
		o := Options{CacheDir: os.Getenv("SKILLS_OCI_TEST_CACHE"), PlainHTTP: true}
		if _, err := Fetch(context.Background(), ref, o); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestFetchKilled kills a fetch while it writes the bundle into the cache:
// the cache holds no bundle, the next fetch of the same digest completes,
// and nothing of the killed one is left, nor of a killed fetch of another
// digest.
func TestFetchKilled(t *testing.T) {
	reg := startRegistry(t, false)
	ctx := context.Background()
	_, b := buildBundle(t, genLibrary(t, 20, ""), nil)
	ref, _ := ParseRef(reg.ref("skills/killed:v1"))
	res, err := Push(ctx, b, ref, nil, testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	// A registry that takes its time over each blob.
	up, _ := url.Parse("http://" + reg.Host)
	rp := httputil.NewSingleHostReverseProxy(up)
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/blobs/") {
			time.Sleep(100 * time.Millisecond)
		}
		rp.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: slow}
	go srv.Serve(ln)
	defer srv.Close()

	cache := t.TempDir()
	final := CachePath(cache, res.Digest)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SKILLS_OCI_TEST_FETCH="+Scheme+ln.Addr().String()+"/skills/killed@"+res.Digest, "SKILLS_OCI_TEST_CACHE="+cache)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	var temps []string
	for time.Now().Before(deadline) {
		temps, _ = filepath.Glob(filepath.Join(filepath.Dir(final), ".*.tmp-*"))
		if len(temps) > 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if len(temps) == 0 {
		t.Fatal("the fetch never started writing")
	}
	if _, err := os.Stat(final); err == nil {
		t.Fatal("a killed fetch left a bundle in the cache")
	}
	// What a killed fetch of another artifact, never fetched again, left.
	other := filepath.Join(filepath.Dir(final), "."+strings.Repeat("ab", 32)+".skb.tmp-42")
	if err := os.WriteFile(other, []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := testOptions(t)
	o.CacheDir = cache
	f, err := Fetch(ctx, res.Ref.String(), o)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != final {
		t.Fatalf("fetched into %s, want %s", f.Path, final)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(final), ".*"))
	if len(left) != 0 {
		t.Errorf("the killed fetch left %v", left)
	}
}
