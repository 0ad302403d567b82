package serve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// FuzzRead feeds arbitrary URIs to resources/read and
// resources/directory/read: neither may panic, a read may only succeed for
// a file the manifest lists (with its bytes), and a directory only for a
// folder that holds a listed file.
func FuzzRead(f *testing.F) {
	b, _ := memBundle(f, exampleFixture())
	m, err := b.Manifest()
	if err != nil {
		f.Fatal(err)
	}
	files := map[string]manifest.Digest{}
	for _, sk := range m.Skills {
		for _, r := range sk.Entry.Resources {
			files[r.URI] = r.Digest
			f.Add(r.URI)
		}
	}
	for _, u := range traversals {
		f.Add(u)
	}
	f.Add("skill://acme")
	f.Add("skill://acme/pdf-processing/templates/purchase%20order.md")
	f.Add("skill://acme/pdf-processing/templates/purchase order.md")
	s := newServer(f, Options{}, b)
	f.Fuzz(func(t *testing.T, uri string) {
		c, err := s.read(context.Background(), uri)
		if err == nil {
			want, listed := files[uri]
			data := c.data()
			if !listed || c.URI != uri || manifest.Sum(data) != want {
				t.Fatalf("read %q succeeded; it is not a listed file or its bytes differ", uri)
			}
		} else {
			wantCode(t, err)
		}
		res, err := s.readDirectory(context.Background(), nil, &ReadDirectoryParams{URI: uri})
		if err != nil {
			wantCode(t, err)
			return
		}
		held := false
		for f := range files {
			held = held || strings.HasPrefix(f, uri+"/")
		}
		if !held || len(res.Resources) == 0 {
			t.Fatalf("directory read %q succeeded; no listed file is below it", uri)
		}
	})
}

// wantCode fails unless err is a -32602 refusal.
func wantCode(t *testing.T, err error) {
	t.Helper()
	wantRPCError(t, err, -32602)
}

// FuzzCursor feeds arbitrary cursors to every paginated method: a cursor is
// refused with -32602 or resumes within bounds, never panics.
func FuzzCursor(f *testing.F) {
	b, _ := memBundle(f, exampleFixture())
	s := newServer(f, Options{PageSize: 1}, b)
	snap := s.Snapshot()
	f.Add(encodeCursor(cursorSkills, snap, 1, 0))
	f.Add(encodeCursor(cursorResources, snap, 2, 0))
	f.Add(encodeCursor(cursorDirectory, snap, 1, dirKey("skill://acme/pdf-processing")))
	f.Add("")
	f.Add("AAAA")
	f.Add("c2tpbGxz")
	f.Fuzz(func(t *testing.T, cursor string) {
		if _, err := s.listSkills(context.Background(), nil, &ListSkillsParams{Cursor: cursor}); err != nil {
			wantCode(t, err)
		}
		req := &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{Cursor: cursor}}
		if _, err := s.listResources(context.Background(), req); err != nil {
			wantCode(t, err)
		}
		if _, err := s.readDirectory(context.Background(), nil, &ReadDirectoryParams{URI: "skill://acme/pdf-processing", Cursor: cursor}); err != nil {
			wantCode(t, err)
		}
	})
}

// FuzzParseTokens feeds arbitrary token files to the parser: it may not
// panic, and a file it accepts holds unique, well-formed names and hashes
// and reads back the same when written out again in the documented form.
func FuzzParseTokens(f *testing.F) {
	h := tokenHash("x")
	for _, s := range []string{
		"", "# c\n\n", "alice " + h + " acme\n", "alice " + h + " acme,b\nbob " + tokenHash("y") + " *\n",
		"alice " + h + "\n", "al/ice " + h + " acme\n", "alice sha256:abcd acme\n", "alice " + h + " acme,,b\n",
		"  alice\t" + h + "  acme  \r\n", "alice " + h + " a\nalice " + tokenHash("y") + " b\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tt, err := parseTokens(data)
		if err != nil {
			return
		}
		var out strings.Builder
		names, hashes := map[string]bool{}, map[[32]byte]bool{}
		for _, st := range tt.tokens {
			if !tokenName.MatchString(st.name) || names[st.name] || hashes[st.hash] {
				t.Fatalf("accepted token %q twice or badly named", st.name)
			}
			names[st.name], hashes[st.hash] = true, true
			ns := st.access.Namespaces()
			if len(ns) == 0 {
				t.Fatalf("token %s grants nothing yet was accepted", st.name)
			}
			fmt.Fprintf(&out, "%s sha256:%x %s\n", st.name, st.hash, strings.Join(ns, ","))
		}
		again, err := parseTokens([]byte(out.String()))
		if err != nil {
			t.Fatalf("written out again, refused: %v\n%s", err, out.String())
		}
		if len(again.tokens) != len(tt.tokens) {
			t.Fatalf("%d tokens read back as %d", len(tt.tokens), len(again.tokens))
		}
		for i, st := range again.tokens {
			was := tt.tokens[i]
			if st.name != was.name || st.hash != was.hash || !slices.Equal(st.access.Namespaces(), was.access.Namespaces()) {
				t.Fatalf("token %d read back as %+v, was %+v", i, st, was)
			}
			if got, ok := tt.lookup("not a token"); ok {
				t.Fatalf("lookup of a random string found %s", got.name)
			}
		}
	})
}

// FuzzVerifyToken feeds arbitrary bearer tokens, grown from real signed
// ones, to the OAuth verifier: it may not panic, and a token it accepts
// must carry the claims the test issuer signed, so no change to a signed
// token is taken for it.
func FuzzVerifyToken(f *testing.F) {
	iss := newTestIssuer(f)
	o, err := newOAuthVerifier(context.Background(), iss.srv.URL, testAudience, "", iss.srv.Client())
	if err != nil {
		f.Fatal(err)
	}
	k1 := iss.key("k1")
	good := sign(f, k1, "k1", "at+jwt", iss.claims("sub", "signed"))
	f.Add(good)
	f.Add(sign(f, k1, "k1", "at+jwt", iss.claims("sub", "signed", "scope", "skills:*", "aud", []string{testAudience, "x"})))
	f.Add(sign(f, k1, "k1", "JWT", iss.claims("sub", "signed")))
	f.Add(sign(f, k1, "k2", "at+jwt", iss.claims("sub", "signed", "exp", 1)))
	f.Add(strings.Replace(good, ".", "x.", 1))
	f.Add("eyJhbGciOiJub25lIiwidHlwIjoiYXQrand0In0.e30.")
	f.Add("")
	f.Fuzz(func(t *testing.T, raw string) {
		ti, aerr := o.verify(context.Background(), raw)
		if aerr != nil {
			if ti != nil || aerr.status == 0 || aerr.reason == "" {
				t.Fatalf("refusal %+v with token info %v", aerr, ti)
			}
			return
		}
		if ti.UserID != "oauth:signed" || ti.Expiration.Before(time.Now()) {
			t.Fatalf("accepted %q as %+v", raw, ti)
		}
	})
}
