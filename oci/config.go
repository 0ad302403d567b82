package oci

import (
	"bytes"
	"encoding/json"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// configOf returns the config blob's contents for the bundle whose manifest
// is m, encoded as mb: what push stores and what fetch requires.
func configOf(m *manifest.Manifest, mb []byte) Config {
	return Config{ID: manifest.Sum(mb).String(), Created: m.Created, Skills: len(m.Skills), Blobs: len(blobOrder(m)), Libraries: m.Libraries}
}

// checkConfig decodes a config blob and checks that it describes the bundle
// whose manifest is m, encoded as mb: the same id, creation time, skill and
// blob counts and libraries. A config is what a reader of the registry sees
// without fetching the bundle, so one that says otherwise is a lie. Fields
// this version does not know are ignored.
func checkConfig(ref Ref, b []byte, m *manifest.Manifest, mb []byte) (*Config, error) {
	var cfg Config
	if err := json.Unmarshal(b, &cfg); err != nil {
		return nil, refused(ref, "config: %v", err)
	}
	want := configOf(m, mb)
	switch {
	case cfg.ID != want.ID:
		return nil, refused(ref, "config names bundle %s, its manifest is %s", cfg.ID, want.ID)
	case cfg.Created != want.Created:
		return nil, refused(ref, "config says created %q, the manifest %q", cfg.Created, want.Created)
	case cfg.Skills != want.Skills:
		return nil, refused(ref, "config says %d skills, the manifest holds %d", cfg.Skills, want.Skills)
	case cfg.Blobs != want.Blobs:
		return nil, refused(ref, "config says %d blobs, the manifest holds %d", cfg.Blobs, want.Blobs)
	}
	got, err := marshal(cfg.Libraries)
	if err != nil {
		return nil, refused(ref, "config: libraries: %v", err)
	}
	exp, err := marshal(want.Libraries)
	if err != nil {
		return nil, refused(ref, "config: libraries: %v", err)
	}
	if !bytes.Equal(got, exp) {
		return nil, refused(ref, "config's libraries are not the manifest's")
	}
	return &cfg, nil
}
