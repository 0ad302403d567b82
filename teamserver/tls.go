package teamserver

// TLS of the endpoint itself: a certificate pair read from PEM files, and
// read again on demand (SIGHUP) without dropping connections.

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"sync/atomic"
)

// Certificate is the TLS certificate (chain and private key, PEM files) an
// endpoint serves HTTPS with. It is read when made and again by Reload;
// handshakes after a Reload present the new pair.
type Certificate struct {
	certFile, keyFile string
	pair              atomic.Pointer[tls.Certificate]
}

// NewCertificate reads the PEM certificate chain at certFile and the PEM
// private key at keyFile, which must be its key.
func NewCertificate(certFile, keyFile string) (*Certificate, error) {
	c := &Certificate{certFile: certFile, keyFile: keyFile}
	if err := c.Reload(); err != nil {
		return nil, err
	}
	return c, nil
}

// Reload reads the files again. On an error the pair served so far stays.
func (c *Certificate) Reload() error {
	pair, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("serve: tls certificate %s, key %s: %w", c.certFile, c.keyFile, err)
	}
	if pair.Leaf, err = x509.ParseCertificate(pair.Certificate[0]); err != nil {
		return fmt.Errorf("serve: tls certificate %s: %w", c.certFile, err)
	}
	c.pair.Store(&pair)
	return nil
}

func (c *Certificate) get(*tls.ClientHelloInfo) (*tls.Certificate, error) { return c.pair.Load(), nil }

// config is the TLS configuration of an endpoint serving c: TLS 1.2 at
// least; http.Server.ServeTLS adds HTTP/2 to the protocols ALPN offers.
func (c *Certificate) config() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: c.get}
}

// plainConn is the connection under a TLS one, for the hooks that track
// the connections a listener accepted (http.Server.ConnState hands them
// the TLS connection).
func plainConn(c net.Conn) net.Conn {
	if tc, ok := c.(*tls.Conn); ok {
		return tc.NetConn()
	}
	return c
}
