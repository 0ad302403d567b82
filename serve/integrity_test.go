package serve

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/bundletest"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestChangedBlobNotServed serves the example library's bundle file with
// the real command over stdio, then changes one byte of every blob in the
// file on disk: every resources/read is refused with -32603 naming the
// file, and read_skill_file sends none of the changed bytes either.
func TestChangedBlobNotServed(t *testing.T) {
	exampleBuilt(t)
	data := bytes.Clone(exampleBytes)
	path := filepath.Join(t.TempDir(), "example.skb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b := bundletest.Open(t, data)
	m, err := b.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	cs := connectStdio(t, "2025-11-25", path)
	ctx := context.Background()

	// Each blob's bytes are found in the blob area by their content, which
	// must occur there exactly once; its middle byte is flipped.
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	area := data[:bytes.Index(data, []byte(`{"mediaType"`))]
	flipped := map[manifest.Digest]bool{}
	var uris []string
	for _, sk := range m.Skills {
		for _, r := range sk.Entry.Resources {
			uris = append(uris, r.URI)
			if flipped[r.Digest] || r.Size == 0 {
				continue
			}
			blob, err := b.ReadBlob(r.Digest)
			if err != nil {
				t.Fatal(err)
			}
			i := bytes.Index(area, blob)
			if i < 0 || bytes.Contains(area[i+1:], blob) {
				t.Fatalf("%s: its bytes are not found exactly once in the blob area", r.URI)
			}
			off := int64(i) + r.Size/2
			if _, err := f.WriteAt([]byte{data[off] ^ 0x01}, off); err != nil {
				t.Fatal(err)
			}
			flipped[r.Digest] = true
		}
	}
	if len(flipped) != b.NumBlobs() {
		t.Fatalf("flipped %d of %d blobs", len(flipped), b.NumBlobs())
	}
	for _, uri := range uris {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err == nil {
			t.Errorf("resources/read %s of a changed blob answered %d contents", uri, len(res.Contents))
			continue
		}
		wantRPCError(t, err, jsonrpc.CodeInternalError, uri, path, "hash")
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skills_mcp_read_skill_file",
		Arguments: map[string]any{"skill": "acme/billing/refunds", "path": "SKILL.md"}})
	if err == nil && !res.IsError {
		t.Errorf("read_skill_file of a changed blob succeeded: %v", resultText(res))
	}
}

// TestUnverifiedBundleNotServed: a server may be made from a bundle whose
// manifest digest is still being checked (manifest.OpenFileUnverified), but
// when the check fails, Verified returns its error, the stdio writer
// writes nothing, and Swap refuses the bundle; when it passes, all serve.
func TestUnverifiedBundleNotServed(t *testing.T) {
	_, path := fileBundle(t, exampleFixture())
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(`{"mediaType"`))
	if i < 0 {
		t.Fatal("no manifest found in the bundle file")
	}
	bad := bytes.Clone(data)
	bad[i+2] ^= 0x20 // "MediaType": the structure holds, the digest does not
	badPath := filepath.Join(t.TempDir(), "bad.skb")
	if err := os.WriteFile(badPath, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(p string) *manifest.Bundle {
		b, err := manifest.OpenFileUnverified(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}

	s := newServer(t, Options{}, open(badPath))
	var out bytes.Buffer
	n, err := verifiedWriter{&out, s}.Write([]byte("{}\n"))
	if ce := (*manifest.CorruptError)(nil); !errors.As(err, &ce) || !strings.Contains(ce.Reason, "manifest digest mismatch") || n != 0 || out.Len() != 0 {
		t.Fatalf("tampered manifest: Write = %d, %v (wrote %q), want 0 and the digest mismatch", n, err, out.String())
	}
	if err := s.Verified(); !errors.Is(err, manifest.ErrCorrupt) {
		t.Fatalf("tampered manifest: Verified = %v", err)
	}

	good := newServer(t, Options{}, open(path))
	if err := good.Verified(); err != nil {
		t.Fatalf("intact bundle: Verified = %v", err)
	}
	if _, err := (verifiedWriter{&out, good}).Write([]byte("{}\n")); err != nil || out.String() != "{}\n" {
		t.Fatalf("intact bundle: Write = %v, wrote %q", err, out.String())
	}
	before := good.Snapshot()
	if err := good.Swap([]*manifest.Bundle{open(badPath)}); !errors.Is(err, manifest.ErrCorrupt) {
		t.Fatalf("Swap to a tampered manifest = %v, want it refused", err)
	}
	if good.Snapshot() != before {
		t.Fatal("a refused Swap changed the snapshot")
	}
}
