package manifest

import (
	"bytes"
	"strings"
	"testing"
)

// TestCapabilitiesRoundTrip writes a bundle whose skills list capabilities
// and reads it back: the same manifest, the same bytes; and a manifest
// without the field (as bundles before it were written) parses to none.
func TestCapabilitiesRoundTrip(t *testing.T) {
	_, m := testBundle(t)
	old, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(old, []byte("capabilities")) {
		t.Fatal("a skill without capabilities writes the field")
	}
	m.Skills[0].Capabilities = []string{"exec-remote", "network"}
	m.Skills[2].Capabilities = []string{"opaque-files"}
	mb, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(mb, []byte(`"capabilities":["exec-remote","network"]`)) {
		t.Fatalf("manifest lacks the capabilities: %s", mb)
	}
	m2, err := Parse(mb)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m2.Skills[0].Capabilities, ","); got != "exec-remote,network" {
		t.Errorf("capabilities %q after the round trip", got)
	}
	if again, _ := Marshal(m2); !bytes.Equal(again, mb) {
		t.Error("round trip changed bytes")
	}
	m0, err := Parse(old)
	if err != nil {
		t.Fatalf("a manifest without capabilities: %v", err)
	}
	for _, s := range m0.Skills {
		if s.Capabilities != nil {
			t.Errorf("skill %s: capabilities %v from a manifest without any", s.Path, s.Capabilities)
		}
	}
	// The bundle writer refuses what Parse refuses.
	var buf bytes.Buffer
	bad := *m
	bad.Skills = append([]Skill(nil), m.Skills...)
	bad.Skills[0].Capabilities = []string{"network", "exec-remote"}
	if _, err := NewWriter(&buf).Finish(&bad); err == nil || !strings.Contains(err.Error(), "not sorted") {
		t.Errorf("Finish with unsorted capabilities: %v", err)
	}
}

// TestCheckCapabilities refuses each malformed list, naming what is wrong.
func TestCheckCapabilities(t *testing.T) {
	for _, ok := range [][]string{nil, {}, {"network"}, {"a", "b-c", "d9"}} {
		if err := CheckCapabilities(ok); err != nil {
			t.Errorf("CheckCapabilities(%q) = %v", ok, err)
		}
	}
	long := strings.Repeat("a", MaxCapabilityLen+1)
	many := make([]string, MaxCapabilities+1)
	for i := range many {
		many[i] = "c" + string(rune('a'+i/26)) + string(rune('a'+i%26))
	}
	for caps, want := range map[*[]string]string{
		{"network", "network"}:     "duplicated",
		{"network", "exec-remote"}: "not sorted",
		{""}:                       "not 1-",
		{"-x"}:                     "inner hyphens",
		{"x-"}:                     "inner hyphens",
		{"Network"}:                "only lowercase",
		{"net work"}:               "only lowercase",
		{"n\u00e9t"}:               "only lowercase",
		{long}:                     "not 1-",
		&many:                      "exceeds",
	} {
		if err := CheckCapabilities(*caps); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckCapabilities(%q) = %v, want %q", *caps, err, want)
		}
	}
	_, m := testBundle(t)
	m.Skills[1].Capabilities = []string{"Network"}
	mb, _ := Marshal(m)
	if _, err := Parse(mb); err == nil || !strings.Contains(err.Error(), m.Skills[1].Entry.URI) {
		t.Errorf("Parse with a bad capability: %v, want the skill named", err)
	}
}

// TestBundleCapabilities reads each skill's capabilities in place, as
// Skill decodes them, and is not fooled by a provenance value (frontmatter,
// the skill's own text) that holds a "capabilities" member.
func TestBundleCapabilities(t *testing.T) {
	orig, m := testBundle(t)
	m.Skills[0].Capabilities = []string{"exec-remote", "network"}
	m.Skills[0].ScriptsWithheld = 2
	m.Skills[1].Provenance = map[string]any{"risk": map[string]any{"capabilities": []any{"network"}}}
	m.Skills[2].Capabilities = []string{"opaque-files"}
	m.Skills[2].Provenance = map[string]any{"risk": map[string]any{"capabilities": []any{"network"}}}
	m.Skills[3].Findings = []Finding{{Rule: "r", File: SkillFile, Line: 1, Severity: "warning", Excerpt: `,"capabilities":["network"]`}}
	b0, err := Open(bytes.NewReader(orig), int64(len(orig)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, s := range m.Skills {
		for _, r := range s.Entry.Resources {
			data, err := b0.ReadBlob(r.Digest)
			if err != nil {
				t.Fatal(err)
			}
			if !w.HasBlob(r.Digest) {
				if err := w.AddBlob(r.Digest, data); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if _, err := w.Finish(m); err != nil {
		t.Fatal(err)
	}
	b, err := Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"exec-remote,network", "", "opaque-files", ""}
	for i := range b.NumSkills() {
		s, err := b.Skill(i)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(b.Capabilities(i), ",")
		if got != strings.Join(s.Capabilities, ",") || got != want[i] {
			t.Errorf("skill %s: Capabilities %q, the record has %v, want %q", s.Path, got, s.Capabilities, want[i])
		}
	}
}
