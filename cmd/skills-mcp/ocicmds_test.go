package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/skills-mcp/skills-mcp/oci/ocitest"
	"github.com/stacklok/toolhive-core/oci/skills"
)

// ociScriptCmds are the script commands of the registry scripts beside
// registry (main_test.go).
func ociScriptCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		// tool NAME ARGS... runs an installed tool (on PATH or where go
		// install puts it: cosign, oras) as exec does; ! wants it to fail.
		"tool": func(ts *testscript.TestScript, neg bool, args []string) {
			if len(args) < 1 {
				ts.Fatalf("usage: tool NAME ARGS...")
			}
			p, err := ocitest.Tool(args[0])
			ts.Check(err)
			err = ts.Exec(p, args[1:]...)
			if neg && err == nil {
				ts.Fatalf("%s unexpectedly succeeded", args[0])
			}
			if !neg && err != nil {
				ts.Fatalf("%s: %v", args[0], err)
			}
		},
		// lying-registry MODE TARGET starts a proxy in front of $REGISTRY
		// that changes one blob on the way (MODE flip or truncate, see
		// ocitest.Lie): the blob sha256:<hex> TARGET names, or the one
		// holding the bytes of the file TARGET. It sets $LIAR (HOST:PORT).
		"lying-registry": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 2 {
				ts.Fatalf("usage: lying-registry flip|truncate sha256:HEX|FILE")
			}
			target := args[1]
			if !strings.HasPrefix(target, "sha256:") {
				sum := sha256.Sum256([]byte(ts.ReadFile(target)))
				target = "sha256:" + hex.EncodeToString(sum[:])
			}
			l, err := ocitest.Lie(ts.Getenv("REGISTRY"), args[0], target)
			ts.Check(err)
			ts.Defer(l.Stop)
			ts.Setenv("LIAR", l.Host)
		},
		// toolhive-push DIR HOST/REPO:TAG packages the skill folder DIR with
		// ToolHive's own packager (toolhive-core) and pushes it with
		// ToolHive's registry client over plain http. It sets
		// $TOOLHIVE_LAYER to the digest of the artifact's tar+gzip layer.
		"toolhive-push": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 2 {
				ts.Fatalf("usage: toolhive-push DIR HOST/REPO:TAG")
			}
			ctx := context.Background()
			store, err := skills.NewStore(ts.MkAbs(".toolhive-store"))
			ts.Check(err)
			res, err := skills.NewPackager(store).Package(ctx, ts.MkAbs(args[0]), skills.DefaultPackageOptions())
			ts.Check(err)
			reg, err := skills.NewRegistry(skills.WithPlainHTTP(true))
			ts.Check(err)
			ts.Check(reg.Push(ctx, store, res.IndexDigest, args[1]))
			ts.Setenv("TOOLHIVE_LAYER", res.LayerDigest.String())
		},
		// tree-state DIR prints every file and folder under DIR with its
		// mode, and for files their size and sha256, sorted: two equal
		// outputs are the same tree with the same bytes.
		"tree-state": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 {
				ts.Fatalf("usage: tree-state DIR")
			}
			root := ts.MkAbs(args[0])
			var lines []string
			ts.Check(filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				fi, err := d.Info()
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(root, p)
				line := fmt.Sprintf("%s %v", filepath.ToSlash(rel), fi.Mode())
				if d.Type().IsRegular() {
					b, err := os.ReadFile(p)
					if err != nil {
						return err
					}
					sum := sha256.Sum256(b)
					line += fmt.Sprintf(" %d %x", len(b), sum)
				}
				lines = append(lines, line)
				return nil
			}))
			sort.Strings(lines)
			fmt.Fprintln(ts.Stdout(), strings.Join(lines, "\n"))
		},
	}
}
