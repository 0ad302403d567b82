package main

import (
	"errors"
	"fmt"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// ownedFile matches, below the site folder, the files an export writes and
// may therefore remove when a later export no longer has them: artifacts
// (their path holds their digest), the manifest and its signatures.
var ownedFile = &lazyre.RE{Expr: `^([a-z0-9-]{1,64}/[0-9a-f]{64}(\.tar\.gz|/SKILL\.md)|manifest\.json(\.[a-z0-9.]+)?)$`}

// exportWellKnown writes b's discovery site below dir/.well-known/agent-skills:
// every artifact and the manifest and signatures first, each atomically,
// then the index, so that a reader of the folder sees the old index or the
// new one, each with all its artifacts. Files an earlier export wrote that
// the new index does not name are removed last.
func exportWellKnown(b *manifest.Bundle, name, dir string, showHidden bool) error {
	site, err := wellknown.NewSite([]*manifest.Bundle{b}, wellknown.SiteOptions{ShowHidden: showHidden})
	if err != nil {
		return fmt.Errorf("export: %s: %w", name, err)
	}
	out := filepath.Join(dir, filepath.FromSlash(strings.Trim(wellknown.Dir, "/")))
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	keep := map[string]bool{}
	var archives, lone, sigs int
	for _, f := range site.Files[1:] {
		data, err := f.Bytes()
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		p := filepath.Join(out, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		if err := writeBytes(p, data); err != nil {
			return err
		}
		keep[f.Path] = true
		switch {
		case !f.Immutable:
			if f.Path != manifest.ManifestFile {
				sigs++
			}
		case f.ContentType == wellknown.ArchiveMIME:
			archives++
		default:
			lone++
		}
	}
	idx, err := site.Index().Bytes()
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := writeBytes(filepath.Join(out, wellknown.IndexFile), idx); err != nil {
		return err
	}
	if err := pruneSite(out, keep); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	fmt.Printf("exported %s to %s: %s, %d skills (%d archives, %d SKILL.md), %d signature(s)\n",
		name, filepath.Join(out, wellknown.IndexFile), b.ID(), archives+lone, archives, lone, sigs)
	if sigs == 0 {
		fmt.Fprintf(stderr, "skills-mcp: warning: %s is not signed: the site publishes no manifest or signatures, only the index's unsigned digests\n", name)
	}
	return nil
}

// pruneSite removes the files below out that an export owns (ownedFile)
// and keep does not hold, then the folders that leaves empty.
func pruneSite(out string, keep map[string]bool) error {
	var dirs []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." {
				dirs = append(dirs, p)
			}
			return nil
		}
		if d.Type().IsRegular() && ownedFile.MatchString(rel) && !keep[rel] {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i]) // only succeeds on an empty folder
	}
	return err
}
