package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve/wire"
)

// corpus is the large honest library of ../shared/corpora (see its README).
const corpus = "../../shared/corpora/claude-skills"

// countSDK counts the requests that reach the SDK's handler.
type countSDK struct {
	h http.Handler
	n atomic.Int64
}

func (c *countSDK) ServeHTTP(w http.ResponseWriter, r *http.Request) { c.n.Add(1); c.h.ServeHTTP(w, r) }

// diffPair is one catalog served twice: by the SDK alone (AnswerBytes -1)
// and with pre-encoded answers, whose SDK handler counts what reaches it.
type diffPair struct {
	sdk, fast http.Handler
	srv       *Server
	inner     *countSDK
}

func newDiffPair(t testing.TB, opt Options, bundles ...*manifest.Bundle) *diffPair {
	t.Helper()
	plain := opt
	plain.AnswerBytes = -1
	ref := newServer(t, plain, bundles...)
	s := newServer(t, opt, bundles...)
	inner := &countSDK{h: s.sdkHandler(1 << 20)}
	return &diffPair{sdk: ref.MCPHandler(1 << 20), fast: s.answers.Handler(inner, 1<<20), srv: s, inner: inner}
}

// rpcPost is one answer to a posted request.
type rpcPost struct {
	status int
	header http.Header
	body   []byte
}

// postRPC posts a request with the given id, method and params (a JSON
// object's members, without braces) at revision rev, with the headers a
// client of that revision sends, to h in context ctx.
func postRPC(ctx context.Context, h http.Handler, rev, id, method, params string, uri string) rpcPost {
	members := params
	if rev == wire.Revision20260728 {
		if members != "" {
			members += ","
		}
		members += `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{%s}}`, id, method, members)
	r := httptest.NewRequestWithContext(ctx, "POST", "http://127.0.0.1/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Mcp-Protocol-Version", rev)
	if rev == wire.Revision20260728 {
		r.Header.Set("Mcp-Method", method)
		if uri != "" && method == "resources/read" {
			r.Header.Set("Mcp-Name", uri)
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return rpcPost{w.Code, w.Header(), w.Body.Bytes()}
}

// sameAnswer reports how got (under id gotID) differs from want (under
// wantID), "" if in nothing but the id.
func sameAnswer(want rpcPost, wantID string, got rpcPost, gotID string) string {
	if want.status != got.status {
		return fmt.Sprintf("status %d, want %d", got.status, want.status)
	}
	for _, k := range []string{"Content-Type", "Cache-Control", "Content-Length", "Mcp-Session-Id"} {
		if !slices.Equal(want.header[k], got.header[k]) {
			return fmt.Sprintf("header %s %q, want %q", k, got.header[k], want.header[k])
		}
	}
	if len(want.header) != len(got.header) {
		return fmt.Sprintf("headers %v, want %v", got.header, want.header)
	}
	w := bytes.Replace(want.body, []byte(wire.AnswerHead+wantID+","), []byte(wire.AnswerHead+"ID,"), 1)
	g := bytes.Replace(got.body, []byte(wire.AnswerHead+gotID+","), []byte(wire.AnswerHead+"ID,"), 1)
	if !bytes.Equal(w, g) {
		return fmt.Sprintf("body\n%.400s\nwant\n%.400s", g, w)
	}
	return ""
}

// diffRequest is one request of the differential test.
type diffRequest struct{ method, params, uri string }

// check sends req to the SDK alone and three times (ids 1, 2 and a string)
// with pre-encoded answers: every answer must be the SDK's, and of a result
// only the first may reach the SDK. It returns the SDK's answer.
func (p *diffPair) check(t *testing.T, ctx context.Context, rev string, req diffRequest) rpcPost {
	t.Helper()
	want := postRPC(ctx, p.sdk, rev, "1", req.method, req.params, req.uri)
	before := p.inner.n.Load()
	for _, id := range []string{"1", "2", `"req-7"`} {
		got := postRPC(ctx, p.fast, rev, id, req.method, req.params, req.uri)
		if d := sameAnswer(want, "1", got, id); d != "" {
			t.Fatalf("%s %s %s id %s: %s", rev, req.method, req.params, id, d)
		}
	}
	result := want.status == 200 && bytes.Contains(want.body, []byte(`,"result":`))
	if n := p.inner.n.Load() - before; result && n != 1 || !result && n != 3 {
		t.Fatalf("%s %s %s: %d of 3 requests reached the SDK (result: %v)", rev, req.method, req.params, n, result)
	}
	return want
}

// catalogRequests lists a request of every kind for everything snap serves:
// resources/read of every file, skills/get of every skill, and
// resources/directory/read of every folder (skill roots, their
// sub-folders, the folders above them), with some that are refused.
func catalogRequests(t testing.TB, snap *Snapshot) []diffRequest {
	var out []diffRequest
	dirs := map[string]bool{}
	seen := map[string]bool{}
	uriReq := func(method, uri string) diffRequest {
		return diffRequest{method, fmt.Sprintf(`"uri":%q`, uri), uri}
	}
	add := func(r diffRequest) {
		if !seen[r.method+r.params] {
			seen[r.method+r.params] = true
			out = append(out, r)
		}
	}
	for k := range snap.Len() {
		sk, err := snap.Skill(k)
		if err != nil {
			t.Fatal(err)
		}
		add(uriReq(MethodGetSkill, sk.Entry.URI))
		for _, r := range sk.Entry.Resources {
			add(uriReq("resources/read", r.URI))
			rest := strings.TrimPrefix(r.URI, manifest.URIScheme)
			for i := range len(rest) {
				if rest[i] == '/' {
					dirs[manifest.URIScheme+rest[:i]] = true
				}
			}
		}
	}
	for _, d := range slices.Sorted(func(yield func(string) bool) {
		for d := range dirs {
			if !yield(d) {
				return
			}
		}
	}) {
		out = append(out, uriReq(MethodReadDirectory, d))
	}
	out = append(out,
		uriReq("resources/read", "skill://no/such/file.md"),
		uriReq("resources/read", "skill://a/../b"),
		uriReq(MethodGetSkill, "skill://no/such/SKILL.md"),
		uriReq(MethodReadDirectory, "skill://no/such"),
		diffRequest{MethodListSkills, `"cursor":"bm90IGEgY3Vyc29y"`, ""},
	)
	return out
}

// checkCatalog runs the differential test over every request of
// catalogRequests and every page of skills/list and of each directory.
func (p *diffPair) checkCatalog(t *testing.T, ctx context.Context, rev string) {
	t.Helper()
	next := func(a rpcPost) string {
		var m struct {
			Result struct {
				NextCursor string `json:"nextCursor"`
			} `json:"result"`
		}
		if json.Unmarshal(a.body, &m) != nil {
			return ""
		}
		return m.Result.NextCursor
	}
	page := func(req diffRequest) {
		base := req.params
		for n := 0; ; n++ {
			a := p.check(t, ctx, rev, req)
			cur := next(a)
			if cur == "" {
				return
			}
			if n > 10000 {
				t.Fatalf("%s: no end of pages", req.method)
			}
			req.params = fmt.Sprintf(`"cursor":%q`, cur)
			if base != "" {
				req.params = base + "," + req.params
			}
		}
	}
	page(diffRequest{MethodListSkills, "", ""})
	for _, req := range catalogRequests(t, p.srv.snapshotFor(ctx)) {
		if req.method == MethodReadDirectory {
			page(req)
			continue
		}
		p.check(t, ctx, rev, req)
	}
}

// TestAnswersDifferential: every answer given from pre-encoded answers, for
// every method and revision, for every file, skill, folder and page of the
// fixtures and of the example library, is byte for byte the SDK's (but for
// the id), and once kept a result never reaches the SDK again.
func TestAnswersDifferential(t *testing.T) {
	withHidden := exampleFixture()
	cases := []struct {
		name    string
		opt     Options
		bundles func(t *testing.T) []*manifest.Bundle
	}{
		{"fixture", Options{PageSize: 3}, func(t *testing.T) []*manifest.Bundle { b, _ := memBundle(t, withHidden); return []*manifest.Bundle{b} }},
		{"fixture-show-disabled", Options{PageSize: 2, ShowDisabled: true}, func(t *testing.T) []*manifest.Bundle {
			b, _ := memBundle(t, withHidden)
			return []*manifest.Bundle{b}
		}},
		{"big", Options{PageSize: 7}, func(t *testing.T) []*manifest.Bundle {
			b, _ := memBundle(t, bundletest.Big(40))
			return []*manifest.Bundle{b}
		}},
		{"example", Options{}, func(t *testing.T) []*manifest.Bundle { return []*manifest.Bundle{exampleBuilt(t)} }},
	}
	for _, tc := range cases {
		for _, rev := range []string{wire.Revision20251125, wire.Revision20260728} {
			t.Run(tc.name+"/"+rev, func(t *testing.T) {
				p := newDiffPair(t, tc.opt, tc.bundles(t)...)
				p.checkCatalog(t, context.Background(), rev)
				if n, _ := p.srv.answers.Stats(); n == 0 {
					t.Fatal("no answer was kept")
				}
			})
		}
	}
	// A caller with an Access gets its view, and private answers.
	t.Run("view", func(t *testing.T) {
		b, _ := memBundle(t, withHidden)
		p := newDiffPair(t, Options{PageSize: 2}, b)
		for _, a := range []*Access{NewAccess("acme"), NewAccess(AllNamespaces), NewAccess()} {
			for _, rev := range []string{wire.Revision20251125, wire.Revision20260728} {
				p.checkCatalog(t, WithAccess(context.Background(), a), rev)
			}
		}
	})
}

// TestAnswersCorpus runs the differential test over a real library, the
// claude-skills corpus, built as `skills-mcp build` builds it.
func TestAnswersCorpus(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("no corpus at %s", corpus)
	}
	if testing.Short() {
		t.Skip("short")
	}
	var buf bytes.Buffer
	if _, err := build.Build(build.Options{Libraries: []build.Library{{Namespace: "cs", Root: corpus}}}, &buf); err != nil {
		t.Fatal(err)
	}
	b := bundletest.Open(t, buf.Bytes())
	for _, rev := range []string{wire.Revision20251125, wire.Revision20260728} {
		t.Run(rev, func(t *testing.T) {
			p := newDiffPair(t, Options{}, b)
			p.checkCatalog(t, context.Background(), rev)
		})
	}
}

// FuzzAnswersHTTP posts a fuzzed body, at both revisions, to a server
// with pre-encoded answers (twice: the second may come from them) and to
// the SDK alone: the answers must be the same but for the id.
func FuzzAnswersHTTP(f *testing.F) {
	for _, s := range servetest.RequestSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	b, _ := memBundle(f, exampleFixture())
	p := newDiffPair(f, Options{PageSize: 2}, b)
	f.Fuzz(func(t *testing.T, body []byte, newRev bool) {
		rev, method, name := wire.Revision20251125, "", ""
		if newRev {
			rev = wire.Revision20260728
		}
		r, ok := wire.Recognise(body)
		if ok {
			method, name = r.Method, string(r.URI)
		}
		send := func(fast bool) rpcPost {
			req := httptest.NewRequestWithContext(context.Background(), "POST", "http://127.0.0.1/mcp", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", rev)
			if newRev {
				req.Header.Set("Mcp-Method", method)
				req.Header.Set("Mcp-Name", name)
			}
			w := httptest.NewRecorder()
			if fast {
				p.fast.ServeHTTP(w, req)
			} else {
				p.sdk.ServeHTTP(w, req)
			}
			return rpcPost{w.Code, w.Header(), w.Body.Bytes()}
		}
		want := send(false)
		for range 2 {
			if d := sameAnswer(want, string(r.ID), send(true), string(r.ID)); d != "" {
				t.Fatalf("%q at %s: %s", body, rev, d)
			}
		}
	})
}
