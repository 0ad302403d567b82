package teamserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
)

// FuzzParseTokens feeds arbitrary token files to the parser: it may not
// panic, and a file it accepts holds unique, well-formed names and hashes
// and reads back the same when written out again in the documented form.
func FuzzParseTokens(f *testing.F) {
	h := servetest.TokenHash("x")
	for _, s := range []string{
		"", "# c\n\n", "alice " + h + " acme\n", "alice " + h + " acme,b\nbob " + servetest.TokenHash("y") + " *\n",
		"alice " + h + "\n", "al/ice " + h + " acme\n", "alice sha256:abcd acme\n", "alice " + h + " acme,,b\n",
		"  alice\t" + h + "  acme  \r\n", "alice " + h + " a\nalice " + servetest.TokenHash("y") + " b\n",
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
