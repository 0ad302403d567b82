package pull

import (
	"bytes"
	"context"
	"fmt"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Manifest returns the bundle manifest the source's skills were listed
// from: a bundle's, an export's, or the signed manifest of a discovery site
// opened with trusted keys; nil for a live server or a site read from its
// index alone. It holds what a listing does not: findings, capabilities,
// libraries. Its skills passed the format's checks, not necessarily those of
// Skills (a refused one is in Warnings).
func (s *Source) Manifest() *manifest.Manifest { return s.manifest }

// Bundle returns the opened bundle of a bundle source (a file, a download),
// nil for the other kinds. It stays open until Close.
func (s *Source) Bundle() *manifest.Bundle { return s.bundle }

// ReadFile returns the bytes of file f of a skill the source offers,
// checked against f's size and digest.
func (s *Source) ReadFile(ctx context.Context, f *File) ([]byte, error) {
	in, err := s.back.open(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	defer in.Close()
	var buf bytes.Buffer
	if err := copyVerified(&buf, in, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
