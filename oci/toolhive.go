package oci

import (
	"context"
	"fmt"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// ToolHiveArtifactType is the artifact type of a ToolHive skill.
const ToolHiveArtifactType = "dev.toolhive.skills.v1"

func isToolHive(im *ocispec.Manifest) bool {
	return im.ArtifactType == ToolHiveArtifactType
}

func (f *fetcher) toolHive(ctx context.Context, im *ocispec.Manifest, path string) error {
	return fmt.Errorf("%s: ToolHive skills are not supported yet", f.ref)
}
