package oci

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
)

var fuzzRef = Ref{Host: "registry.example", Repository: "skills/fuzz", Digest: "sha256:" + digest.FromString("x").Encoded()}

// FuzzDecodeManifest: any bytes decode to an OCI image manifest or are
// refused (wrapping ErrRefused); what is accepted re-encodes to bytes that
// are accepted again and re-encode the same.
func FuzzDecodeManifest(f *testing.F) {
	d := descriptorOf(BlobType, []byte("a file\n"))
	good, err := marshal(ocispec.Manifest{
		Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest, ArtifactType: ArtifactType,
		Config: descriptorOf(ConfigType, []byte(`{"id":"x"}`)), Layers: []ocispec.Descriptor{descriptorOf(manifest.MediaType, []byte("{}")), d},
		Annotations: map[string]string{ocispec.AnnotationCreated: "2026-01-01T00:00:00Z"},
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(bytes.Replace(good, []byte(`"schemaVersion":2`), []byte(`"schemaVersion":1`), 1))
	f.Add([]byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[]}`))
	f.Add([]byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","layers":null,"subject":{}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		im, err := decodeManifest(fuzzRef, body)
		if err != nil {
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("refusal %v does not wrap ErrRefused", err)
			}
			return
		}
		if im.MediaType != ocispec.MediaTypeImageManifest || im.SchemaVersion != 2 {
			t.Fatalf("accepted a manifest of media type %q, schema %d", im.MediaType, im.SchemaVersion)
		}
		again, err := marshal(im)
		if err != nil {
			t.Fatal(err)
		}
		im2, err := decodeManifest(fuzzRef, again)
		if err != nil {
			t.Fatalf("re-encoded manifest %s refused: %v", again, err)
		}
		third, err := marshal(im2)
		if err != nil || !bytes.Equal(third, again) {
			t.Fatalf("re-encoding is not stable:\n%s\n%s", again, third)
		}
	})
}

// FuzzCheckConfig: a config blob of any bytes, for a real bundle's
// manifest, is accepted only when it says what the manifest says (id,
// created, skills, blobs, libraries), and what is accepted re-encodes to a
// config accepted again; a refusal wraps ErrRefused.
func FuzzCheckConfig(f *testing.F) {
	_, b := buildBundle(f, genLibrary(f, 2, ""), nil)
	m, err := b.Manifest()
	if err != nil {
		f.Fatal(err)
	}
	mb, err := b.ManifestBytes()
	if err != nil {
		f.Fatal(err)
	}
	want := configOf(m, mb)
	good, err := marshal(want)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(append(bytes.TrimSuffix(good, []byte("}")), []byte(`,"future":[1,2]}`)...))
	f.Add(bytes.Replace(good, []byte(`"skills":2`), []byte(`"skills":0`), 1))
	f.Add([]byte(`{"id":"` + want.ID + `","skills":2,"blobs":8,"libraries":null}`))
	f.Add([]byte(`null`))
	wantLibs, _ := marshal(want.Libraries)
	f.Fuzz(func(t *testing.T, blob []byte) {
		cfg, err := checkConfig(fuzzRef, blob, m, mb)
		if err != nil {
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("refusal %v does not wrap ErrRefused", err)
			}
			return
		}
		libs, _ := marshal(cfg.Libraries)
		if cfg.ID != want.ID || cfg.Created != want.Created || cfg.Skills != want.Skills || cfg.Blobs != want.Blobs || !bytes.Equal(libs, wantLibs) {
			t.Fatalf("accepted config %+v for a bundle described as %+v", cfg, want)
		}
		again, err := marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := checkConfig(fuzzRef, again, m, mb); err != nil {
			t.Fatalf("re-encoded config %s refused: %v", again, err)
		}
	})
}

// FuzzDecodeSignatureReferrer: a referrer manifest of any bytes is
// accepted only as a signature artifact whose subject is the artifact
// asked about; what it yields are its SSHSIG and minisign layers, in order,
// each of the kind its media type says; a refusal wraps ErrRefused.
func FuzzDecodeSignatureReferrer(f *testing.F) {
	subject := descriptorOf(ocispec.MediaTypeImageManifest, []byte(`{"the":"artifact"}`))
	sig := func(mt, data string) ocispec.Descriptor { return descriptorOf(mt, []byte(data)) }
	empty := ocispec.DescriptorEmptyJSON
	good, err := marshal(ocispec.Manifest{
		Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest, ArtifactType: SignaturesType,
		Config: ocispec.Descriptor{MediaType: empty.MediaType, Digest: empty.Digest, Size: empty.Size},
		Layers: []ocispec.Descriptor{sig(SSHSigType, "ssh"), sig("text/plain", "note"), sig(MinisignType, "mini")}, Subject: &subject,
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(bytes.Replace(good, []byte(subject.Digest.Encoded()), []byte(digest.FromString("other").Encoded()), 1))
	f.Add(bytes.Replace(good, []byte(`"subject"`), []byte(`"subjects"`), 1))
	f.Add([]byte(`{"artifactType":"` + SignaturesType + `","subject":{"digest":"` + subject.Digest.String() + `"},"layers":[{}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		layers, err := decodeSignatureReferrer(fuzzRef, digest.FromBytes(body), body, subject.Digest)
		if err != nil {
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("refusal %v does not wrap ErrRefused", err)
			}
			return
		}
		var im ocispec.Manifest
		if err := json.Unmarshal(body, &im); err != nil {
			t.Fatalf("accepted bytes that do not decode: %v", err)
		}
		if im.Subject == nil || im.Subject.Digest != subject.Digest || im.ArtifactType != SignaturesType {
			t.Fatalf("accepted a referrer of subject %v, artifact type %q", im.Subject, im.ArtifactType)
		}
		var want []signatureLayer
		for _, l := range im.Layers {
			switch l.MediaType {
			case SSHSigType:
				want = append(want, signatureLayer{manifest.SignatureSSH, l})
			case MinisignType:
				want = append(want, signatureLayer{manifest.SignatureMinisign, l})
			}
		}
		if len(layers) != len(want) {
			t.Fatalf("yielded %d signature layers; want %d", len(layers), len(want))
		}
		for i, l := range layers {
			if l.kind != want[i].kind || l.desc.Digest != want[i].desc.Digest || l.desc.Size != want[i].desc.Size || l.desc.MediaType != want[i].desc.MediaType {
				t.Fatalf("signature layer %d: %v %+v; want %v %+v", i, l.kind, l.desc, want[i].kind, want[i].desc)
			}
		}
	})
}
