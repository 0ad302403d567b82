package main

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// lockScriptCmds are the script commands of the lock scripts.
func lockScriptCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	var mu sync.Mutex
	seen := map[*testscript.TestScript][]string{} // each script's requests
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		// counting-proxy starts a reverse proxy in front of $REGISTRY that
		// records every request, and sets $COUNTED (HOST:PORT).
		"counting-proxy": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 0 {
				ts.Fatalf("usage: counting-proxy")
			}
			target, err := url.Parse("http://" + ts.Getenv("REGISTRY"))
			ts.Check(err)
			rp := httputil.NewSingleHostReverseProxy(target)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen[ts] = append(seen[ts], r.Method+" "+r.URL.Path)
				mu.Unlock()
				rp.ServeHTTP(w, r)
			}))
			ts.Defer(srv.Close)
			ts.Setenv("COUNTED", strings.TrimPrefix(srv.URL, "http://"))
		},
		// serve-dir-counted DIR is serve-dir (main_test.go) with every
		// request recorded for requests; it sets $SITE.
		"serve-dir-counted": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 {
				ts.Fatalf("usage: serve-dir-counted DIR")
			}
			fs := http.FileServer(http.Dir(ts.MkAbs(args[0])))
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen[ts] = append(seen[ts], r.Method+" "+r.URL.Path)
				mu.Unlock()
				fs.ServeHTTP(w, r)
			}))
			ts.Defer(srv.Close)
			ts.Setenv("SITE", srv.URL)
		},
		// requests N checks that the proxy saw N requests since the last
		// requests (or since it started), prints them, and starts over;
		// requests reset only starts over.
		"requests": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 {
				ts.Fatalf("usage: requests N|reset")
			}
			n := -1
			if args[0] != "reset" {
				var err error
				n, err = strconv.Atoi(args[0])
				ts.Check(err)
			}
			mu.Lock()
			got := seen[ts]
			delete(seen, ts)
			mu.Unlock()
			ts.Logf("requests: %s", strings.Join(got, ", "))
			if n >= 0 && len(got) != n {
				ts.Fatalf("the registry got %d request(s), want %d: %s", len(got), n, strings.Join(got, ", "))
			}
		},
	}
}
