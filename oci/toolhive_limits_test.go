package oci

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestToolHiveLimits: a ToolHive skill's layer is bounded as an archive
// library is (Options.Archive: --max-archive-entries, --max-archive-bytes;
// Options.MaxFileBytes: --max-file-bytes), and the skill in it keeps the
// SEP-2640 limits every skill does (manifest.CheckSkillLimits), each
// counted from the tar headers, so the refusal names the entry and the
// rule before the entry is inflated; nothing is left in the cache. The
// flags raise what they bound: a file over the default 4 MiB passes with
// a larger --max-file-bytes, and a skill of exactly 512 files passes.
func TestToolHiveLimits(t *testing.T) {
	reg := startRegistry(t, false)
	skill := "---\nname: big\ndescription: A big ToolHive skill.\n---\nbody\n"
	ann := map[string]string{toolHiveName: "big"}
	files := func(n int, size int) ([]tar.Header, []string) {
		hs, bs := []tar.Header{{Name: "SKILL.md"}}, []string{skill}
		for i := 1; i < n; i++ {
			hs = append(hs, tar.Header{Name: fmt.Sprintf("refs/f%04d.txt", i)})
			bs = append(bs, strings.Repeat("x", size))
		}
		return hs, bs
	}
	dirs := func(n int) ([]tar.Header, []string) {
		hs, bs := []tar.Header{{Name: "SKILL.md"}}, []string{skill}
		for i := range n {
			hs = append(hs, tar.Header{Name: fmt.Sprintf("d%04d/", i), Typeflag: tar.TypeDir, Mode: 0o755})
			bs = append(bs, "")
		}
		return hs, bs
	}
	h513, b513 := files(513, 1)
	h512, b512 := files(512, 1)
	hBig, bBig := files(5, 4<<20) // 4 files of 4 MiB: over 16 MiB in all
	hFile, bFile := files(2, 5<<20)
	hDirs, bDirs := dirs(40)
	cases := []struct {
		name    string
		entries []tar.Header
		bodies  []string
		o       func(*Options)
		want    string // "" passes
	}{
		{"files-513", h513, b513, nil, `archive entry "refs/f0512.txt": 513 files exceeds the SEP-2640 limit of 512 per skill (rule too-many-files)`},
		{"files-512", h512, b512, nil, ""},
		{"bytes", hBig, bBig, func(o *Options) { o.MaxFileBytes = 8 << 20 }, fmt.Sprintf(`archive entry "refs/f0004.txt": %d bytes (16.0 MiB) exceeds the SEP-2640 limit of 16777216 (16 MiB) per skill (rule too-large)`, 16<<20+len(skill))},
		{"file-default", hFile, bFile, nil, `archive entry "refs/f0001.txt": 5242880 bytes: larger than --max-file-bytes (4194304) (rule file-too-large)`},
		{"file-raised", hFile, bFile, func(o *Options) { o.MaxFileBytes = 6 << 20 }, ""},
		{"entries", hDirs, bDirs, func(o *Options) { o.Archive.MaxEntries = 30 }, `archive entry "d0029/": more than 30 entries (--max-archive-entries) (rule too-many-entries)`},
		{"inflated", hDirs, bDirs, func(o *Options) { o.Archive.MaxTotalBytes = 8 << 10 }, `the layer inflates past 8192 bytes (--max-archive-bytes) (rule total-size)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			layer := toolHiveLayer(t, c.entries, c.bodies)
			ref := pushRaw(t, reg, "toolhive/"+c.name+":v1", ToolHiveArtifactType, ocispec.MediaTypeImageLayerGzip, layer, ann)
			o := testOptions(t)
			if c.o != nil {
				c.o(&o)
			}
			f, err := Fetch(context.Background(), ref, o)
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				b, err := manifest.OpenFile(f.Path)
				if err != nil {
					t.Fatal(err)
				}
				defer b.Close()
				if m, _ := b.Manifest(); len(m.Skills) != 1 || len(m.Skills[0].Files) != len(c.entries) {
					t.Errorf("the bundle holds %d skills, want 1 of %d files", len(m.Skills), len(c.entries))
				}
				return
			}
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "/toolhive/"+c.name+"@sha256:") {
				t.Errorf("fetch: %v; want a refusal naming the reference and %q", err, c.want)
			}
			assertEmptyCache(t, o.CacheDir)
		})
	}
}

// TestCheckSkillLimits: the one check of the SEP-2640 limits, at and past
// each.
func TestCheckSkillLimits(t *testing.T) {
	for _, c := range []struct {
		files int
		bytes int64
		rule  string
	}{
		{512, 16 << 20, ""},
		{513, 1, manifest.RuleTooManyFiles},
		{1, 16<<20 + 1, manifest.RuleTooLarge},
	} {
		err := manifest.CheckSkillLimits(c.files, c.bytes)
		var le *manifest.LimitError
		if c.rule == "" && err != nil || c.rule != "" && (!errors.As(err, &le) || le.Rule != c.rule || !strings.Contains(err.Error(), "(rule "+c.rule+")")) {
			t.Errorf("%d files, %d bytes: %v, want rule %q", c.files, c.bytes, err, c.rule)
		}
	}
}
