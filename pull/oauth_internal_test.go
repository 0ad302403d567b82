package pull

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// TestCallback: the redirect URI hands the SDK the code, state and iss of
// the redirect, keeps an authorization server's error text to printable
// characters, and refuses a redirect with neither a code nor an error.
func TestCallback(t *testing.T) {
	for _, tc := range []struct {
		name  string
		query url.Values
		want  string // in the error; empty for a result
	}{
		{"code", url.Values{"code": {"c0de"}, "state": {"s"}, "iss": {"http://as"}}, ""},
		{"error with escapes", url.Values{"state": {"s"}, "error": {"access_denied\x1b[2J"}, "error_description": {"no\x1b]0;pwned\x07 \u009bway\nreally"}},
			"the authorization server refused the sign-in: access_denied[2J: no]0;pwned way really"},
		{"neither", url.Values{"state": {"s"}}, "the redirect carried neither a code nor an error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			redirect := "http://" + ln.Addr().String() + CallbackPath
			status := make(chan int, 1)
			open := func(ctx context.Context, authURL string) error {
				go func() {
					resp, err := http.Get(redirect + "?" + tc.query.Encode())
					if err != nil {
						t.Error(err)
						status <- 0
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					status <- resp.StatusCode
				}()
				return nil
			}
			cb := &callback{ln: ln, redirect: redirect, opt: &OAuthOptions{Open: open, Timeout: 10 * time.Second}}
			res, err := cb.fetch(context.Background(), &auth.AuthorizationArgs{URL: "http://as/authorize?state=s"})
			got := <-status
			want := http.StatusOK
			if tc.want != "" {
				want = http.StatusBadRequest
				if err == nil || err.Error() != tc.want {
					t.Errorf("error %q, want %q", err, tc.want)
				}
			} else if err != nil || res.Code != "c0de" || res.State != "s" || res.Iss != "http://as" {
				t.Errorf("%+v %v", res, err)
			}
			if got != want {
				t.Errorf("the browser got %d, want %d", got, want)
			}
			if strings.ContainsAny(errString(err), "\x1b\x07\u009b\n") {
				t.Errorf("control characters in %q", err)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
