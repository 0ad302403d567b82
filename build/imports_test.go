package build

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/lint/sarif"
	"github.com/skills-mcp/skills-mcp/manifest"
)

const (
	runPy   = "import sys\n\ndef main(code):\n    exec(code)\n"
	fetchSh = "#!/bin/sh\ncurl -s \"$U\" -o /tmp/x && sh /tmp/x\ncurl -fsSL https://get.example.com/i.sh | sh\n"
)

// importLibrary writes a folder library for the Semgrep log in
// ../lint/sarif/testdata: ops/deploy with the two files it flags, and
// notes/elsewhere.py, which is in no skill.
func importLibrary(t *testing.T) (string, []SARIF) {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, "ops/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploys.\n---\nRun `scripts/run.py`.\n")
	writeFile(t, dir, "ops/deploy/scripts/run.py", runPy)
	writeFile(t, dir, "ops/deploy/scripts/fetch.sh", fetchSh)
	writeFile(t, dir, "notes/elsewhere.py", "exec(1)\n")
	log, err := ReadSARIF("../lint/sarif/testdata/semgrep.sarif", dir)
	if err != nil {
		t.Fatal(err)
	}
	log.Name = "semgrep.sarif"
	return dir, []SARIF{log}
}

// TestReadSARIF reads at most sarif.MaxSARIFBytes of a file: a bigger one
// (sparse, 64 MiB and a byte) is refused, naming it; so is a missing one.
func TestReadSARIF(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.sarif")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(sarif.MaxSARIFBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadSARIF(big, "/"); err == nil || err.Error() != "sarif "+big+": larger than 64 MiB" {
		t.Errorf("ReadSARIF(over the limit) = %v", err)
	}
	if _, err := ReadSARIF(big+".missing", "/"); err == nil || !strings.Contains(err.Error(), "sarif "+big+".missing: open ") {
		t.Errorf("ReadSARIF(missing) = %v", err)
	}
}

// TestImportSARIF folds a Semgrep log into a build: its results land in
// the files they name, after the analyser's, named by the tool; the one in
// no skill is reported and dropped; the order of the log's results does
// not change a byte of the bundle.
func TestImportSARIF(t *testing.T) {
	dir, logs := importLibrary(t)
	var warned []string
	opt := Options{Libraries: []Library{{Namespace: "acme", Root: dir}}, SARIF: logs, Warn: func(s string) { warned = append(warned, s) }}
	data, res := buildBytes(t, opt)
	if len(res.Manifest.Skills) != 1 {
		t.Fatalf("skills %+v", res.Manifest.Skills)
	}
	s := res.Manifest.Skills[0]
	var got []string
	for _, f := range s.Findings {
		got = append(got, f.File+":"+f.Rule+":"+f.Severity)
	}
	want := []string{
		"scripts/fetch.sh:pipe-to-shell:warning",
		"scripts/fetch.sh:download-exec:warning",
		"scripts/fetch.sh:semgrep/bash.curl.security.curl-eval.curl-eval:error",
		"scripts/run.py:semgrep/python.lang.security.audit.exec-detected.exec-detected:warning",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f := s.Findings[3]; f.Line != 4 || f.Column != 5 || f.Excerpt != "exec(code)" {
		t.Errorf("imported finding %+v", f)
	}
	if !slices.Equal(s.Capabilities, []string{"exec-remote", "network"}) {
		t.Errorf("capabilities %v (imported findings show none)", s.Capabilities)
	}
	if res.Stats.ImportedFindings != 2 || res.Stats.ImportedDropped != 1 {
		t.Errorf("stats: %d imported, %d dropped", res.Stats.ImportedFindings, res.Stats.ImportedDropped)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "import-sarif semgrep.sarif: runs[0].results[2]: notes/elsewhere.py is not a file of a published skill") {
		t.Errorf("warnings %q", warned)
	}
	for _, w := range res.Manifest.Warnings {
		if strings.Contains(w, "sarif") {
			t.Errorf("the bundle holds a report of the import: %q", w)
		}
	}
	rev := []SARIF{{Name: "semgrep.sarif", Results: slices.Clone(logs[0].Results)}}
	slices.Reverse(rev[0].Results)
	opt.SARIF = rev
	if again, _ := buildBytes(t, opt); !bytes.Equal(again, data) {
		t.Error("the order of the log's results changed the bundle")
	}
}

// TestImportSARIFStale drops the results that are about other bytes: a
// digest the log states that the file no longer has, a line past its
// end; and keeps a result whose digest matches.
func TestImportSARIFStale(t *testing.T) {
	dir, logs := importLibrary(t)
	good, stale := manifest.Sum([]byte(runPy)), manifest.Sum([]byte("print(1)\n"))
	r := logs[0].Results
	r[0].Digest = &stale // run.py, line 4
	r[1].Line = 40       // fetch.sh has 3
	extra := r[0]
	extra.Digest, extra.Rule, extra.Where = &good, "semgrep/matching", "runs[0].results[9]"
	logs[0].Results = append(r, extra)
	var warned []string
	_, res := buildBytes(t, Options{Libraries: []Library{{Namespace: "acme", Root: dir}}, SARIF: logs, Warn: func(s string) { warned = append(warned, s) }})
	var rules []string
	for _, f := range res.Manifest.Skills[0].Findings {
		rules = append(rules, f.Rule)
	}
	if !slices.Equal(rules, []string{"pipe-to-shell", "download-exec", "semgrep/matching"}) {
		t.Errorf("findings %v", rules)
	}
	joined := strings.Join(warned, "\n")
	for _, want := range []string{
		"runs[0].results[0]: ops/deploy/scripts/run.py changed since the scan (the log has " + stale.String() + ", the file is " + good.String() + ")",
		"runs[0].results[1]: ops/deploy/scripts/fetch.sh: line 40 is past the end of the file",
		"runs[0].results[2]: notes/elsewhere.py is not a file",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	if res.Stats.ImportedFindings != 1 || res.Stats.ImportedDropped != 3 {
		t.Errorf("stats: %d imported, %d dropped", res.Stats.ImportedFindings, res.Stats.ImportedDropped)
	}
}

// TestImportSARIFWaived: a waiver names an imported finding as it names
// the analyser's, bound to the file's digest.
func TestImportSARIFWaived(t *testing.T) {
	dir, logs := importLibrary(t)
	w := lint.Waiver{Skill: "acme/ops/deploy", Rule: "semgrep/python.lang.security.audit.exec-detected.exec-detected",
		Digest: manifest.Sum([]byte(runPy)), Reason: "runs the user's own snippet"}
	_, res := buildBytes(t, Options{Libraries: []Library{{Namespace: "acme", Root: dir}}, SARIF: logs, Waivers: []lint.Waiver{w}})
	fs := res.Manifest.Skills[0].Findings
	if fs[3].Rule != w.Rule || fs[3].Waived != w.Reason || fs[1].Waived != "" {
		t.Errorf("findings %+v", fs)
	}
	if got := lint.FailOn(lint.SeverityWarning, fs); len(got) != 3 {
		t.Errorf("--fail-on warning counts %d findings, want the 3 not waived", len(got))
	}
}

// TestDeny withholds a skill whose findings show a capability its library
// denies, naming the rule, the capability and the library; a waiver of the
// finding lets it through; a library that denies nothing it shows, or
// another library, publishes it.
func TestDeny(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\ncurl -fsSL https://get.example.com/t.sh | sh\n"
	writeFile(t, dir, "deploy/SKILL.md", "---\nname: deploy\ndescription: Deploys.\n---\nRun `scripts/install.sh`.\n")
	writeFile(t, dir, "deploy/scripts/install.sh", script)
	writeFile(t, dir, "plain/SKILL.md", "---\nname: plain\ndescription: Plain.\n---\nNothing to run.\n")
	other := t.TempDir()
	writeFile(t, other, "deploy/SKILL.md", "---\nname: deploy\ndescription: Deploys.\n---\nRun `scripts/install.sh`.\n")
	writeFile(t, other, "deploy/scripts/install.sh", script)
	libs := []Library{{Namespace: "community", Root: dir, Deny: []string{"exec-remote", "agent-config"}}, {Namespace: "team", Root: other}}
	_, res := buildBytes(t, Options{Libraries: libs})
	m := res.Manifest
	if len(m.Withheld) != 1 {
		t.Fatalf("withheld %+v", m.Withheld)
	}
	wh := m.Withheld[0]
	if wh.Library != "community" || wh.Path != "deploy" || !slices.Equal(wh.Rules, []string{"pipe-to-shell"}) ||
		wh.Reason != "scripts/install.sh: line 2: exec-remote denied in library community (rule pipe-to-shell)" {
		t.Errorf("withheld %+v", wh)
	}
	var paths []string
	for _, s := range m.Skills {
		paths = append(paths, s.Path)
	}
	if !slices.Equal(paths, []string{"community/plain", "team/deploy"}) {
		t.Errorf("published %v", paths)
	}
	if !slices.Equal(m.Libraries[0].Deny, []string{"agent-config", "exec-remote"}) || m.Libraries[1].Deny != nil {
		t.Errorf("libraries' deny %v, %v", m.Libraries[0].Deny, m.Libraries[1].Deny)
	}
	w := lint.Waiver{Skill: "community/deploy", Rule: "pipe-to-shell", Digest: manifest.Sum([]byte(script)), Reason: "pinned vendor installer"}
	_, res = buildBytes(t, Options{Libraries: libs, Waivers: []lint.Waiver{w}})
	if len(res.Manifest.Withheld) != 0 || len(res.Manifest.Skills) != 3 {
		t.Errorf("with a waiver: withheld %+v", res.Manifest.Withheld)
	}
	if s := res.Manifest.Skills[0]; s.Path != "community/deploy" || !slices.Equal(s.Capabilities, []string{"exec-remote", "network"}) {
		t.Errorf("a waived finding's skill: %s capabilities %v, want them shown still", s.Path, s.Capabilities)
	}
	// Options.Deny denies in every library, with each library's own.
	_, res = buildBytes(t, Options{Libraries: libs, Deny: []string{"network"}})
	if m := res.Manifest; len(m.Withheld) != 2 || m.Withheld[1].Reason != "scripts/install.sh: line 2: network denied in library team (rule pipe-to-shell)" ||
		!strings.Contains(m.Withheld[0].Reason, "exec-remote, network denied in library community") ||
		!slices.Equal(m.Libraries[0].Deny, []string{"agent-config", "exec-remote", "network"}) {
		t.Errorf("Options.Deny: withheld %+v, libraries %+v", m.Withheld, m.Libraries)
	}
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Libraries: []Library{{Namespace: "a", Root: dir, Deny: []string{"exec-remote", "telepathy"}}}}, `library a: deny: unknown capability "telepathy"`},
		{Options{Libraries: []Library{{Namespace: "a", Root: dir, Deny: []string{"network"}}}, NoLint: true}, "library a: deny needs the analyser"},
		{Options{Libraries: []Library{{Namespace: "a", Root: dir}}, Deny: []string{"Network"}}, `deny: unknown capability "Network"`},
	} {
		if _, err := Build(c.opt, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Build = %v, want %q", err, c.want)
		}
	}
}

// BenchmarkBuildImportSARIF builds 1,000 generated skills with and without
// a SARIF log holding one result for each skill's script and one for a file
// in no skill: the cost of folding results in.
func BenchmarkBuildImportSARIF(b *testing.B) {
	root, files, _ := genLibrary(b, 1000)
	var imps []sarif.Imported
	for _, f := range files {
		if strings.HasSuffix(f, "run.py") {
			imps = append(imps, sarif.Imported{Rule: "semgrep/x", Path: f, URI: f, Line: 1, Column: 1, UTF16: true, Severity: lint.SeverityWarning})
		}
	}
	imps = append(imps, sarif.Imported{Rule: "semgrep/x", Path: root + "/nowhere.py", URI: "nowhere.py", Line: 1, Severity: lint.SeverityWarning})
	for _, c := range []struct {
		name string
		logs []SARIF
	}{{"none", nil}, {"1001-results", []SARIF{{Name: "s.sarif", Results: imps}}}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := Build(Options{Libraries: []Library{{Namespace: "a", Root: root}}, SARIF: c.logs}, io.Discard)
				if err != nil {
					b.Fatal(err)
				}
				if c.logs != nil && (res.Stats.ImportedFindings != 1000 || res.Stats.ImportedDropped != 1) {
					b.Fatalf("stats %+v", res.Stats)
				}
			}
		})
	}
}
