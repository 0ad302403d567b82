package cosign

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

// Keyless signatures are checked by sigstore-go in a helper program,
// skills-mcp-sigstore (cmd/skills-mcp-sigstore, package cosign/keyless),
// not in skills-mcp itself: sigstore-go links Rekor's types, go-openapi,
// govalidator, grpc and protobuf, whose package initialisation would run in
// every skills-mcp start, the stdio serve a host spawns per session
// included. Key-based signatures need none of it and are checked here.

// Identity is the keyless signer a verifier accepts, as cosign's
// --certificate-identity[-regexp] and --certificate-oidc-issuer[-regexp]
// name it: one of each pair must be set.
type Identity struct {
	Subject, SubjectRegexp string
	Issuer, IssuerRegexp   string
}

// HelperName is the keyless helper's program name; EnvHelper, when set,
// is its path.
const (
	HelperName = "skills-mcp-sigstore"
	EnvHelper  = "SKILLS_MCP_SIGSTORE"
)

// KeylessRequest is what skills-mcp writes to the helper's standard input
// (JSON): the trusted root and identity to check against, the artifact
// digest, the predicate type asked for, and the bundles to check.
type KeylessRequest struct {
	TrustedRoot   json.RawMessage `json:"trustedRoot"`
	Identity      Identity        `json:"identity"`
	Digest        string          `json:"digest"`
	PredicateType string          `json:"predicateType"`
	Bundles       [][]byte        `json:"bundles"`
}

// KeylessResponse is the helper's answer (JSON on its standard output):
// one result per bundle in order, or Error when the request itself was
// refused (a trusted root or identity that does not load).
type KeylessResponse struct {
	Results []KeylessResult `json:"results,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// KeylessResult is the check of one bundle: its Statement and signer, or
// an error, untrusted (manifest.ErrUntrusted) or bad
// (manifest.ErrBadSignature).
type KeylessResult struct {
	Statement []byte `json:"statement,omitempty"`
	Signer    string `json:"signer,omitempty"`
	Error     string `json:"error,omitempty"`
	Untrusted bool   `json:"untrusted,omitempty"`
}

// Err is the result's error, wrapping the sentinel it names; nil when the
// bundle checked.
func (r KeylessResult) Err() error {
	switch {
	case r.Error == "" && r.Signer != "":
		return nil
	case r.Error == "":
		return bad("keyless helper: no signer and no error")
	case r.Untrusted:
		return untrusted("%s", strings.TrimPrefix(r.Error, manifest.ErrUntrusted.Error()+": "))
	}
	return bad("%s", strings.TrimPrefix(r.Error, manifest.ErrBadSignature.Error()+": "))
}

// Bounds on a helper run.
const (
	helperTimeout = time.Minute
	maxHelperErr  = 16 << 10
)

// runHelper asks the keyless helper to check bundles over d for
// predicateType against trustedRoot and id: one result per bundle.
func runHelper(ctx context.Context, trustedRoot []byte, id Identity, d, predicateType string, bundles [][]byte) ([]KeylessResult, error) {
	path, err := helperPath()
	if err != nil {
		return nil, err
	}
	req, err := json.Marshal(KeylessRequest{TrustedRoot: trustedRoot, Identity: id, Digest: d, PredicateType: predicateType, Bundles: bundles})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, helperTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path)
	cmd.Stdin = bytes.NewReader(req)
	var stderr limitedBuffer
	stderr.max = maxHelperErr
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("keyless helper %s: %w", path, err)
	}
	// Each result holds at most a Statement of a bundle's size, base64.
	body, rerr := io.ReadAll(io.LimitReader(out, int64(len(bundles))*(2*oci.MaxSigstoreBundle+4<<10)+4<<10))
	werr := cmd.Wait()
	if werr != nil || rerr != nil {
		return nil, fmt.Errorf("keyless helper %s: %w: %s", path, errors.Join(werr, rerr), bytes.TrimSpace(stderr.Bytes()))
	}
	var resp KeylessResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("keyless helper %s: answer: %w", path, err)
	}
	if resp.Error != "" {
		return nil, fmt.Errorf("keyless helper: %s", resp.Error)
	}
	if len(resp.Results) != len(bundles) {
		return nil, fmt.Errorf("keyless helper %s: %d results for %d bundles", path, len(resp.Results), len(bundles))
	}
	return resp.Results, nil
}

// helperPath finds the keyless helper: $SKILLS_MCP_SIGSTORE, else beside
// the running program, else on PATH.
func helperPath() (string, error) {
	if p := os.Getenv(EnvHelper); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			p := filepath.Join(filepath.Dir(exe), HelperName)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return p, nil
			}
		}
	}
	p, err := exec.LookPath(HelperName)
	if err != nil {
		return "", fmt.Errorf("keyless signatures are checked by %s, found neither beside skills-mcp nor on PATH (install it: go install github.com/skills-mcp/skills-mcp/cmd/%s@latest, or set %s): %w", HelperName, HelperName, EnvHelper, err)
	}
	return p, nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// Check reports whether id names a signer: one of each pair set, and its
// regular expressions compile.
func (id Identity) Check() error {
	if id.Subject == "" && id.SubjectRegexp == "" || id.Issuer == "" && id.IssuerRegexp == "" {
		return errors.New("keyless: give --certificate-identity (or -regexp) and --certificate-oidc-issuer (or -regexp)")
	}
	for _, re := range []string{id.SubjectRegexp, id.IssuerRegexp} {
		if _, err := regexp.Compile(re); err != nil {
			return fmt.Errorf("keyless identity: %w", err)
		}
	}
	return nil
}

// String names the identity in messages: the subject (~ and the regular
// expression for a pattern) and the issuer.
func (id Identity) String() string {
	s := id.Subject
	if s == "" {
		s = "~" + id.SubjectRegexp
	}
	i := id.Issuer
	if i == "" {
		i = "~" + id.IssuerRegexp
	}
	return s + " (issuer " + i + ")"
}
