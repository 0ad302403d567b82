package oci

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// oras runs the real oras CLI against the test registry.
func oras(t *testing.T, args ...string) []byte {
	t.Helper()
	bin := need(t, "oras")
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // no stored credentials
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oras %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// TestOrasPullsOurArtifact checks what a person without skills-mcp gets
// from oras: manifest.json with the bundle's exact manifest bytes, every
// file as blobs/sha256/<hex> holding bytes that hash to its name, and,
// through oras discover, the signatures ssh-keygen verifies.
func TestOrasPullsOurArtifact(t *testing.T) {
	reg := startRegistry(t, false)
	need(t, "oras")
	sshKeygen := need(t, "ssh-keygen")
	ctx := context.Background()
	sign, _, allowedLine := signer(t)
	_, b := buildBundle(t, genLibrary(t, 3, ""), sign)
	ref, _ := ParseRef(reg.ref("skills/oras:v1"))
	res, err := Push(ctx, b, ref, nil, testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	plain := reg.Host + "/skills/oras"
	dir := t.TempDir()
	oras(t, "pull", "--plain-http", "-o", dir, plain+":v1")
	got, err := os.ReadFile(filepath.Join(dir, ManifestTitle))
	if err != nil {
		t.Fatal(err)
	}
	mb, _ := b.ManifestBytes()
	if !bytes.Equal(got, mb) {
		t.Error("oras pull: manifest.json differs from the bundle's manifest")
	}
	blobs, _ := filepath.Glob(filepath.Join(dir, "blobs", "sha256", "*"))
	if len(blobs) != b.NumBlobs() {
		t.Errorf("oras pull: %d blobs, want %d", len(blobs), b.NumBlobs())
	}
	for _, p := range blobs {
		data, _ := os.ReadFile(p)
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != filepath.Base(p) {
			t.Errorf("%s does not hash to its name", p)
		}
	}
	check := exec.Command("bash", "-o", "pipefail", "-c", orasCheck(t))
	check.Dir = dir
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("docs/oci.md's check: %v\n%s", err, out)
	}

	// The signatures, as a person finds them.
	out := oras(t, "discover", "--plain-http", "--format", "json", "--artifact-type", SignaturesType, plain+"@"+res.Digest)
	var disc struct {
		Manifests []struct {
			Digest string `json:"digest"`
		} `json:"manifests"`
		Referrers []struct {
			Digest string `json:"digest"`
		} `json:"referrers"`
	}
	if err := json.Unmarshal(out, &disc); err != nil {
		t.Fatalf("oras discover: %v\n%s", err, out)
	}
	var found []string
	for _, m := range disc.Manifests {
		found = append(found, m.Digest)
	}
	for _, m := range disc.Referrers {
		found = append(found, m.Digest)
	}
	if len(found) != 1 || found[0] != res.Signatures {
		t.Fatalf("oras discover found %v, want [%s]\n%s", found, res.Signatures, out)
	}
	sigDir := t.TempDir()
	oras(t, "pull", "--plain-http", "-o", sigDir, plain+"@"+found[0])
	allowed := filepath.Join(t.TempDir(), "allowed_signers")
	if err := os.WriteFile(allowed, []byte(allowedLine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sshKeygen, "-Y", "verify", "-f", allowed, "-I", "ci@example", "-n", manifest.SignatureNamespace, "-s", filepath.Join(sigDir, ManifestTitle+".sig"))
	cmd.Stdin = bytes.NewReader(got)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("ssh-keygen -Y verify: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(sigDir, ManifestTitle+".minisig")); err != nil {
		t.Error(err)
	}
}

// TestOrasArtifactsRefusedOrAccepted pushes artifacts with oras and fetches
// them: one of another type is refused; one that claims our type but has
// no config of ours is refused, and neither leaves anything in the cache;
// a copy of ours made by oras cp is taken.
func TestOrasArtifactsRefusedOrAccepted(t *testing.T) {
	reg := startRegistry(t, false)
	need(t, "oras")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	push := func(tag, artifactType string) {
		cmd := exec.Command(need(t, "oras"), "push", "--plain-http", "--artifact-type", artifactType, reg.Host+"/other:"+tag, "notes.txt")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("oras push: %v\n%s", err, out)
		}
	}
	push("foreign", "application/vnd.example.other")
	push("claims-ours", ArtifactType)

	// Accepted: our own artifact copied by oras cp to another repository,
	// as an air-gapped site would. (oras refuses to push ToolHive's
	// artifact type, not a media type by RFC 6838: TestFetchToolHiveSkill
	// uses ToolHive's own packager.)
	run := func(args ...string) {
		cmd := exec.Command(need(t, "oras"), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("oras %v: %v\n%s", args, err, out)
		}
	}
	_, b := buildBundle(t, genLibrary(t, 2, ""), nil)
	ref, _ := ParseRef(reg.ref("skills/orig:v1"))
	res, err := Push(context.Background(), b, ref, nil, testOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	run("cp", "--from-plain-http", "--to-plain-http", reg.Host+"/skills/orig:v1", reg.Host+"/mirror/skills:v1")
	f, err := Fetch(context.Background(), reg.ref("mirror/skills:v1"), testOptions(t))
	if err != nil || f.Ref.Digest != res.Digest {
		t.Errorf("fetch of the copy oras cp made: %v, %v; want digest %s", f, err, res.Digest)
	}
	for tag, want := range map[string]string{
		"foreign":     `artifact type "application/vnd.example.other": not a skills bundle`,
		"claims-ours": `config media type "application/vnd.oci.empty.v1+json", want "` + ConfigType + `"`,
	} {
		o := testOptions(t)
		_, err := Fetch(context.Background(), reg.ref("other:"+tag), o)
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), reg.ref("other@sha256:")) {
			t.Errorf("fetch %s: %v; want a refusal naming the reference and %q", tag, err, want)
		}
		assertEmptyCache(t, o.CacheDir)
	}
}
