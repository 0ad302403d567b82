package ocitest

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
)

// Liar is a reverse proxy on a free loopback port in front of a registry
// that changes the body of one blob on the way: the registry lies about
// that blob, and about nothing else.
type Liar struct {
	Host string // 127.0.0.1:PORT
	srv  *http.Server
}

// Lie starts a Liar in front of the registry at upstream (HOST:PORT) that
// answers a GET of the blob of the given digest ("sha256:<hex>") with its
// bytes changed as mode says: "flip" turns one bit in the middle,
// "truncate" sends the first half and ends the body.
func Lie(upstream, mode, digest string) (*Liar, error) {
	if mode != "flip" && mode != "truncate" {
		return nil, fmt.Errorf("lie: mode %q: want flip or truncate", mode)
	}
	up, err := url.Parse("http://" + upstream)
	if err != nil {
		return nil, err
	}
	rp := httputil.NewSingleHostReverseProxy(up)
	rp.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.Method != http.MethodGet || !strings.HasSuffix(resp.Request.URL.Path, "/blobs/"+digest) || resp.StatusCode != http.StatusOK {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if mode == "flip" && len(body) > 0 {
			body[len(body)/2] ^= 1
		} else {
			body = body[:len(body)/2]
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if mode == "flip" {
			resp.ContentLength = int64(len(body))
			resp.Header.Set("Content-Length", fmt.Sprint(len(body)))
		} else {
			resp.ContentLength = -1
			resp.Header.Del("Content-Length")
		}
		return nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	l := &Liar{Host: ln.Addr().String(), srv: &http.Server{Handler: rp}}
	go l.srv.Serve(ln)
	return l, nil
}

// Stop stops the Liar.
func (l *Liar) Stop() { l.srv.Close() }
