package teamserver

// Static bearer tokens (--auth-tokens): a file of sha256 hashes, so that it
// can be read by others without giving the tokens away; and what a
// refused token is (authError), which the OAuth verifier shares.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"io"
	"io/fs"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/skills-mcp/skills-mcp/serve"
)

// maxTokenFile caps the size of a token file.
const maxTokenFile = 1 << 20

// tokenName is the rule for a token's name, which logs and metrics show.
var tokenName = &lazyre.RE{Expr: `^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,127}$`}

// tokenNamespace is the rule for a namespace a token may read: a library
// namespace (build's rule) or serve.AllNamespaces.
var tokenNamespace = &lazyre.RE{Expr: `^([a-zA-Z0-9][a-zA-Z0-9_.-]*|\*)$`}

// staticToken is one line of a token file.
type staticToken struct {
	name   string
	hash   [sha256.Size]byte
	access *serve.Access
	// info is what verifying the token gives, made once: every request
	// with the token shares it, and nothing may change it.
	info *auth.TokenInfo
}

// tokenTable is the parsed content of a token file.
type tokenTable struct {
	tokens []staticToken
}

// readTokenFile reads a token file: one token a line,
//
//	NAME sha256:HEX NAMESPACE[,NAMESPACE…]
//
// where HEX is the sha256 of the token (printf %s "$TOKEN" | sha256sum), and
// the namespaces are those the token may read (* for all). Blank lines and
// lines starting with # are ignored. Names and hashes must be unique. The
// file must not be writable by others than its owner and group.
//
// The file is opened without blocking and must be a regular file: a FIFO
// at the path would otherwise hang start-up, and on SIGHUP the reloader for
// good, so that no later revocation took effect.
func readTokenFile(path string) (*tokenTable, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("token file %s: %s, not a regular file: only a regular file is read", path, fileKind(fi.Mode()))
	}
	if fi.Mode().Perm()&0o002 != 0 {
		return nil, fmt.Errorf("token file %s: writable by anyone (mode %v): anyone could add a token; chmod o-w it", path, fi.Mode().Perm())
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return nil, fmt.Errorf("token file %s: %w", path, err)
	}
	if len(data) > maxTokenFile {
		return nil, fmt.Errorf("token file %s: larger than %d bytes", path, maxTokenFile)
	}
	t, err := parseTokens(data)
	if err != nil {
		return nil, fmt.Errorf("token file %s: %w", path, err)
	}
	return t, nil
}

// fileKind names the kind of file of a mode that is not a regular file.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "not a file (mode " + m.String() + ")"
}

func parseTokens(data []byte) (*tokenTable, error) {
	t := &tokenTable{}
	names := map[string]int{}
	hashes := map[[sha256.Size]byte]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxTokenFile)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: want NAME sha256:HEX NAMESPACES, got %d fields", n, len(f))
		}
		if !tokenName.MatchString(f[0]) {
			return nil, fmt.Errorf("line %d: token name %q must match %s", n, f[0], tokenName)
		}
		if prev, ok := names[f[0]]; ok {
			return nil, fmt.Errorf("line %d: token name %q already used on line %d", n, f[0], prev)
		}
		names[f[0]] = n
		hx, ok := strings.CutPrefix(f[1], "sha256:")
		var st staticToken
		// The length first: hex.Decode writes past the end of a short dst.
		if !ok || len(hx) != 2*sha256.Size || hexDecode(st.hash[:], hx) != nil {
			return nil, fmt.Errorf("line %d: token %s: the hash must be sha256: and 64 hex digits (the sha256 of the token, never the token itself)", n, f[0])
		}
		if prev, ok := hashes[st.hash]; ok {
			return nil, fmt.Errorf("line %d: token %s has the same hash as line %d", n, f[0], prev)
		}
		hashes[st.hash] = n
		var ns []string
		for s := range strings.SplitSeq(f[2], ",") {
			if !tokenNamespace.MatchString(s) {
				return nil, fmt.Errorf("line %d: token %s: namespace %q must be * or match %s", n, f[0], s, tokenNamespace)
			}
			ns = append(ns, s)
		}
		st.name, st.access = f[0], serve.NewAccess(ns...)
		st.info = &auth.TokenInfo{UserID: "token:" + st.name,
			Extra: map[string]any{serve.AccessExtra: st.access, tokenNameExtra: st.name}}
		t.tokens = append(t.tokens, st)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return t, nil
}

// hexDecode decodes hx into dst, which it must fill exactly.
func hexDecode(dst []byte, hx string) error {
	_, err := hex.Decode(dst, []byte(hx))
	return err
}

// lookup returns the token whose hash is the sha256 of tok. Every entry is
// compared, in constant time, so the time taken says nothing about which
// entry, if any, matched.
func (t *tokenTable) lookup(tok string) (*staticToken, bool) {
	h := sha256.Sum256([]byte(tok))
	found := -1
	for i := range t.tokens {
		if subtle.ConstantTimeCompare(h[:], t.tokens[i].hash[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return nil, false
	}
	return &t.tokens[found], true
}

// tokenNameExtra is the key, in auth.TokenInfo.Extra, of the name logs and
// metrics give the token: the token file's name, or oauth:SUBJECT.
const tokenNameExtra = "skills-mcp/name"

// authError is a refused request: its status, the RFC 6750 error code and
// description for the client, and the reason for the operator.
type authError struct {
	status     int
	code, desc string
	reason     string // short, for logs and metrics: missing, unknown_token, expired, …
	detail     string // more for the log, never the token
	scope      string // of a 403: the scopes a token would need (the scope challenge)
}

func invalidToken(reason, desc string) *authError {
	return &authError{status: http.StatusUnauthorized, code: "invalid_token", desc: desc, reason: reason}
}
