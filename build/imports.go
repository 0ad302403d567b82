package build

// This file reads other tools' SARIF logs (Options.SARIF) and indexes their
// results by file; skill.go folds them into a skill's findings
// (importFindings) and withholds what a library denies (deny).

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/skills-mcp/skills-mcp/lint/sarif"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// SARIF is another tool's SARIF log, parsed (lint.ReadSARIF), whose results
// a build folds into the findings of the skills they are about.
type SARIF struct {
	Name    string // the log's file, for reports; never in the bundle
	Results []sarif.Imported
}

// ReadSARIF reads the SARIF log in the file name, at most
// sarif.MaxSARIFBytes of it, and parses it (sarif.ParseSARIF); relative URIs
// resolve against base, an absolute folder.
func ReadSARIF(name, base string) (SARIF, error) {
	f, err := os.Open(name)
	if err != nil {
		return SARIF{}, fmt.Errorf("sarif %s: %w", name, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, sarif.MaxSARIFBytes+1))
	if err != nil {
		return SARIF{}, fmt.Errorf("sarif %s: %w", name, err)
	}
	imps, err := sarif.ParseSARIF(name, data, base) // refuses more than MaxSARIFBytes
	if err != nil {
		return SARIF{}, err
	}
	return SARIF{Name: name, Results: imps}, nil
}

// importRef is one imported result, and whether a skill's file took it.
type importRef struct {
	log  int // index in Options.SARIF
	at   int // index in its log's results
	imp  *sarif.Imported
	used atomic.Bool
}

// imports indexes a build's imported results by the local path of their
// file, and collects the results it drops.
type imports struct {
	byPath map[string][]*importRef
	all    []*importRef
	logs   []SARIF

	mu      sync.Mutex
	dropped []importDrop
	kept    atomic.Int64
}

type importDrop struct {
	log, at int
	msg     string
}

// newImports indexes the results of logs; nil when there are none.
func newImports(logs []SARIF) *imports {
	x := &imports{byPath: map[string][]*importRef{}, logs: logs}
	for li := range logs {
		for ri := range logs[li].Results {
			r := &importRef{log: li, at: ri, imp: &logs[li].Results[ri]}
			x.all = append(x.all, r)
			if r.imp.Path != "" {
				x.byPath[r.imp.Path] = append(x.byPath[r.imp.Path], r)
			}
		}
	}
	if len(x.all) == 0 {
		return nil
	}
	return x
}

// drop records that result r was dropped, and why.
func (x *imports) drop(r *importRef, why string) {
	x.mu.Lock()
	x.dropped = append(x.dropped, importDrop{r.log, r.at, why})
	x.mu.Unlock()
}

// findings returns the imported findings of one file of a skill: file is
// its path in the skill, abs its local path, data its bytes and digest
// their digest. A result whose log states another digest for the file, or
// whose line the file does not have, is the scan of other bytes: dropped.
// Findings come sorted by line, column and rule, without duplicates.
func (x *imports) findings(file, abs string, data []byte, digest manifest.Digest) []manifest.Finding {
	refs := x.byPath[abs]
	if len(refs) == 0 {
		return nil
	}
	var fit []*importRef
	var imps []*sarif.Imported
	for _, r := range refs {
		if r.used.Swap(true) {
			continue // one file of two skills (nested skills): the first takes it
		}
		if r.imp.Digest != nil && *r.imp.Digest != digest {
			x.drop(r, fmt.Sprintf("%s changed since the scan (the log has %s, the file is %s)", r.imp.URI, r.imp.Digest, digest))
			continue
		}
		fit = append(fit, r)
		imps = append(imps, r.imp)
	}
	fs, why := sarif.Findings(imps, file, data)
	out := fs[:0]
	for i, f := range fs {
		if why[i] != "" {
			x.drop(fit[i], manifest.QuoteName(fit[i].imp.URI)+": "+why[i]+" (changed since the scan?)")
			continue
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b manifest.Finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), strings.Compare(a.Rule, b.Rule),
			strings.Compare(a.Severity, b.Severity), strings.Compare(a.Excerpt, b.Excerpt))
	})
	out = slices.Compact(out)
	x.kept.Add(int64(len(out)))
	return out
}

// finish reports every result no file took, then every dropped result, in
// the logs' order, to warn, and returns how many were kept and dropped.
func (x *imports) finish(warn func(string)) (kept, dropped int) {
	if x == nil {
		return 0, 0
	}
	for _, r := range x.all {
		if r.used.Load() {
			continue
		}
		if r.imp.Drop != "" {
			x.dropped = append(x.dropped, importDrop{r.log, r.at, r.imp.Drop})
		} else {
			x.dropped = append(x.dropped, importDrop{r.log, r.at, manifest.QuoteName(r.imp.URI) + " is not a file of a published skill of a folder library"})
		}
	}
	slices.SortFunc(x.dropped, func(a, b importDrop) int { return cmp.Or(cmp.Compare(a.log, b.log), cmp.Compare(a.at, b.at)) })
	if warn != nil {
		for _, d := range x.dropped {
			warn(fmt.Sprintf("import-sarif %s: %s: %s; result dropped", x.logs[d.log].Name, x.logs[d.log].Results[d.at].Where, d.msg))
		}
	}
	return int(x.kept.Load()), len(x.dropped)
}
