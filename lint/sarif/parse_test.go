package sarif

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/lint/excerpt"
	"github.com/skills-mcp/skills-mcp/lint/program"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestParseSARIFSemgrep reads a log in the shape Semgrep writes: levels
// from the rules' defaults, the tool's name from the driver, paths against
// the base folder, in-source suppressions ignored.
func TestParseSARIFSemgrep(t *testing.T) {
	base := t.TempDir()
	data, err := os.ReadFile("testdata/semgrep.sarif")
	if err != nil {
		t.Fatal(err)
	}
	imps, err := ParseSARIF("semgrep.sarif", data, base)
	if err != nil {
		t.Fatal(err)
	}
	if len(imps) != 3 {
		t.Fatalf("%d results, want 3: %+v", len(imps), imps)
	}
	want := []Imported{
		{Rule: "semgrep/python.lang.security.audit.exec-detected.exec-detected", Path: filepath.Join(base, "ops/deploy/scripts/run.py"),
			URI: "ops/deploy/scripts/run.py", Line: 4, Column: 5, UTF16: true, Severity: program.SeverityWarning, Where: "runs[0].results[0]"},
		{Rule: "semgrep/bash.curl.security.curl-eval.curl-eval", Path: filepath.Join(base, "ops/deploy/scripts/fetch.sh"),
			URI: "ops/deploy/scripts/fetch.sh", Line: 2, Column: 1, UTF16: true, Severity: program.SeverityError, Where: "runs[0].results[1]"},
		{Rule: "semgrep/python.lang.security.audit.exec-detected.exec-detected", Path: filepath.Join(base, "notes/elsewhere.py"),
			URI: "notes/elsewhere.py", Line: 1, Column: 1, UTF16: true, Severity: program.SeverityWarning, Where: "runs[0].results[2]"},
	}
	for i, w := range want {
		got := imps[i]
		got.Message = ""
		if got != w {
			t.Errorf("result %d:\ngot  %+v\nwant %+v", i, got, w)
		}
	}
	if !strings.HasPrefix(imps[0].Message, "Detected the use of exec()") {
		t.Errorf("message %q", imps[0].Message)
	}
}

// sarifDoc is a minimal log with one run whose results are res.
func sarifDoc(run string) string {
	return `{"version":"2.1.0","runs":[` + run + `]}`
}

const okRun = `{"tool":{"driver":{"name":"CodeQL","rules":[{"id":"py/code-injection","defaultConfiguration":{"level":"error"}}]}},"results":[%s]}`

func withResult(res string) string { return sarifDoc(strings.Replace(okRun, "%s", res, 1)) }

// TestParseSARIFForms covers how a result names its rule, level, file and
// digest: ruleIndex, rule.id, artifacts by index with a sha-256, a base
// URI the run defines, an absolute file: URI, code-point columns, and the
// kinds that are not problems.
func TestParseSARIFForms(t *testing.T) {
	d := manifest.Sum([]byte("x"))
	for _, c := range []struct {
		name, doc string
		want      Imported
		none      bool
	}{
		{"rule index", withResult(`{"ruleIndex":0,"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a/b.py"},"region":{"startLine":2}}}]}`),
			Imported{Rule: "codeql/py/code-injection", Path: "/base/a/b.py", URI: "a/b.py", Line: 2, UTF16: true, Severity: program.SeverityError, Message: "m"}, false},
		{"rule object", withResult(`{"rule":{"id":"py/other"},"level":"note","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.py"}}}]}`),
			Imported{Rule: "codeql/py/other", Path: "/base/a.py", URI: "a.py", UTF16: true, Severity: program.SeverityNote, Message: "m"}, false},
		{"artifact index and digest", sarifDoc(`{"tool":{"driver":{"name":"skill-scanner"}},"columnKind":"unicodeCodePoints",
			"artifacts":[{"location":{"uri":"s/x.sh","uriBaseId":"ROOT"},"hashes":{"sha-256":"` + strings.ToUpper(d.Hex()) + `"}}],
			"originalUriBaseIds":{"ROOT":{"uri":"file:///srv/lib/"}},
			"results":[{"ruleId":"SS-001","level":"error","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"index":0},"region":{"startLine":1,"startColumn":3}}}]}]}`),
			Imported{Rule: "skill-scanner/SS-001", Path: "/srv/lib/s/x.sh", URI: "s/x.sh", Line: 1, Column: 3, Severity: program.SeverityError, Message: "m", Digest: &d}, false},
		{"file uri", withResult(`{"ruleId":"py/x","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///abs/p%20q.py"}}}]}`),
			Imported{Rule: "codeql/py/x", Path: "/abs/p q.py", URI: "file:///abs/p%20q.py", UTF16: true, Severity: program.SeverityWarning, Message: "m"}, false},
		{"http uri", withResult(`{"ruleId":"py/x","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"https://example.com/a.py"}}}]}`),
			Imported{Rule: "codeql/py/x", URI: "https://example.com/a.py", UTF16: true, Severity: program.SeverityWarning, Message: "m", Drop: "https://example.com/a.py is not a local file"}, false},
		{"no location", withResult(`{"ruleId":"py/x","message":{"text":"m"}}`),
			Imported{Rule: "codeql/py/x", UTF16: true, Severity: program.SeverityWarning, Message: "m", Drop: "the result names no file"}, false},
		{"pass", withResult(`{"ruleId":"py/x","kind":"pass","message":{"text":"m"}}`), Imported{}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			imps, err := ParseSARIF("x.sarif", []byte(c.doc), "/base")
			if err != nil {
				t.Fatal(err)
			}
			if c.none {
				if len(imps) != 0 {
					t.Fatalf("results %+v, want none", imps)
				}
				return
			}
			if len(imps) != 1 {
				t.Fatalf("%d results", len(imps))
			}
			got := imps[0]
			if (got.Digest == nil) != (c.want.Digest == nil) || got.Digest != nil && *got.Digest != *c.want.Digest {
				t.Errorf("digest %v, want %v", got.Digest, c.want.Digest)
			}
			got.Digest, c.want.Digest = nil, nil
			got.Where = ""
			if got != c.want {
				t.Errorf("\ngot  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// TestParseSARIFRefused: each malformed log is refused with the file and
// the JSON path of what is wrong.
func TestParseSARIFRefused(t *testing.T) {
	loc := `"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.py"}%s}}]`
	for _, c := range []struct{ doc, want string }{
		{`not json`, "$: not JSON"},
		{`{"runs":[]}`, "version: missing"},
		{`{"version":"2.0.0","runs":[]}`, `version: "2.0.0", want "2.1.0"`},
		{`{"version":"2.1.0"}`, "runs: missing"},
		{`{"version":"2.1.0","runs":{}}`, "runs: an object, want an array"},
		{`{"version":"2.1.0","runs":[]} {}`, "$: data after the JSON value"},
		{sarifDoc(`{"tool":{}}`), "runs[0].tool.driver.name: missing"},
		{sarifDoc(`{"tool":{"driver":{"name":"!!!"}}}`), `runs[0].tool.driver.name: "!!!" gives no tool name`},
		{sarifDoc(`{"tool":{"driver":{"name":7}}}`), "runs[0].tool.driver.name: a number, want a string"},
		{sarifDoc(`{"tool":{"driver":{"name":"t"}},"columnKind":"bytes"}`), `runs[0].columnKind: "bytes"`},
		{sarifDoc(`{"tool":{"driver":{"name":"t","rules":[{"id":"a b"}]}}}`), `runs[0].tool.driver.rules[0].id: "a b": holds ' '`},
		{sarifDoc(`{"tool":{"driver":{"name":"t","rules":[{"id":"a"},{"id":["b"]}]}}}`), `runs[0].tool.driver.rules[1].id: an array, want a string`},
		{sarifDoc(`{"tool":{"driver":{"name":"t"}},"artifacts":[{},{"hashes":[]}]}`), `runs[0].artifacts[1].hashes: an array, want an object`},
		{sarifDoc(`{"tool":{"driver":{"name":"t","rules":[{"id":"r","defaultConfiguration":{"level":"fatal"}}]}}}`), "runs[0].tool.driver.rules[0].defaultConfiguration.level"},
		{sarifDoc(`{"tool":{"driver":{"name":"t"}},"artifacts":[{"hashes":{"sha-256":"abc"}}]}`), `runs[0].artifacts[0].hashes.sha-256: "abc"`},
		{withResult(`{"message":{"text":"m"}}`), "runs[0].results[0].ruleId: missing"},
		{withResult(`{"ruleIndex":3,"message":{"text":"m"}}`), "runs[0].results[0].ruleIndex: 3, but the driver has 1 rules"},
		{withResult(`{"ruleId":"r\u0000","message":{"text":"m"}}`), "runs[0].results[0].ruleId"},
		{withResult(`{"ruleId":"` + strings.Repeat("r", MaxImportedRule) + `","message":{"text":"m"}}`), "longer than 200 bytes"},
		{withResult(`{"ruleId":"r","level":"bad","message":{"text":"m"}}`), `runs[0].results[0].level: "bad"`},
		{withResult(`{"ruleId":"r","kind":"maybe"}`), `runs[0].results[0].kind: "maybe"`},
		{withResult(`{"ruleId":"r","message":{"text":5}}`), "runs[0].results[0].message.text: a number, want a string"},
		{withResult(`{"ruleId":"r",` + strings.Replace(loc, "%s", `,"region":{"startLine":0}`, 1) + `}`), "region.startLine: 0, want 1 or more"},
		{withResult(`{"ruleId":"r",` + strings.Replace(loc, "%s", `,"region":{"startLine":"4"}`, 1) + `}`), "runs[0].results[0].locations[0].physicalLocation.region.startLine: a string, want an integer"},
		{withResult(`{"ruleId":"r",` + strings.Replace(loc, "%s", `,"region":{"startColumn":-2}`, 1) + `}`), "region.startColumn: -2"},
		{withResult(`{"ruleId":"r","locations":[{"physicalLocation":{"artifactLocation":{"index":4}}}]}`), "artifactLocation.index: 4 names no artifact"},
		{withResult(`{"ruleId":"r","locations":[{"physicalLocation":{"artifactLocation":{"uri":"%zz"}}}]}`), `artifactLocation: uri "%zz"`},
		{withResult(`{"ruleId":"r","locations":[{"physicalLocation":{"artifactLocation":{}}}]}`), "artifactLocation: uri: missing"},
		{sarifDoc(`{"tool":{"driver":{"name":"t"}},"originalUriBaseIds":{"A":{"uri":"x/","uriBaseId":"A"}},"results":[{"ruleId":"r","locations":[{"physicalLocation":{"artifactLocation":{"uri":"a","uriBaseId":"A"}}}]}]}`),
			"a cycle?"},
	} {
		_, err := ParseSARIF("scan.sarif", []byte(c.doc), "/base")
		if err == nil || !strings.HasPrefix(err.Error(), "sarif scan.sarif: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.80s:\n got  %v\n want %q", c.doc, err, c.want)
		}
	}
}

// TestParseSARIFBounded: a log over MaxSARIFBytes is refused before it is
// parsed (build.ReadSARIF reads no more of a file), and one with more than
// MaxSARIFResults results is refused.
func TestParseSARIFBounded(t *testing.T) {
	if _, err := ParseSARIF("big.sarif", make([]byte, MaxSARIFBytes+1), "/"); err == nil || err.Error() != "sarif big.sarif: larger than 64 MiB" {
		t.Errorf("ParseSARIF(over the limit) = %v", err)
	}
	var b bytes.Buffer
	b.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[`)
	for i := range MaxSARIFResults + 1 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"ruleId":"r"}`)
	}
	b.WriteString(`]}]}`)
	if _, err := ParseSARIF("many.sarif", b.Bytes(), "/"); err == nil || !strings.Contains(err.Error(), "runs[0].results: more than 100000 results") {
		t.Errorf("ParseSARIF(too many results) = %v", err)
	}
}

// TestImportedFindings places imported results in a file: columns in
// UTF-16 units or code points become code points, a line past the end is
// a reason to drop, a blank line takes the message.
func TestImportedFindings(t *testing.T) {
	data := []byte("first\r\n\U0001F600 exec(x)\n\nlast")
	imps := []*Imported{
		{Rule: "t/a", Line: 2, Column: 4, UTF16: true, Severity: program.SeverityWarning}, // after the emoji (2 units) and a space
		{Rule: "t/b", Line: 2, Column: 3, UTF16: false, Severity: program.SeverityError},
		{Rule: "t/c", Line: 3, Severity: program.SeverityNote, Message: "blank line"},
		{Rule: "t/d", Line: 5, Severity: program.SeverityNote},
		{Rule: "t/e", Severity: program.SeverityWarning},
		{Rule: "t/f", Line: 1, Column: 99, UTF16: true, Severity: program.SeverityWarning},
	}
	fs, drop := Findings(imps, "s.sh", data)
	want := []manifest.Finding{
		{Rule: "t/a", File: "s.sh", Line: 2, Column: 3, Severity: program.SeverityWarning, Excerpt: "\U0001F600 exec(x)"},
		{Rule: "t/b", File: "s.sh", Line: 2, Column: 3, Severity: program.SeverityError, Excerpt: "\U0001F600 exec(x)"},
		{Rule: "t/c", File: "s.sh", Line: 3, Severity: program.SeverityNote, Excerpt: "blank line"},
		{},
		{Rule: "t/e", File: "s.sh", Line: 1, Severity: program.SeverityWarning, Excerpt: "first"},
		{Rule: "t/f", File: "s.sh", Line: 1, Column: 6, Severity: program.SeverityWarning, Excerpt: "first"},
	}
	for i := range want {
		if fs[i] != want[i] {
			t.Errorf("result %d: %+v, want %+v", i, fs[i], want[i])
		}
	}
	if drop[3] != "line 5 is past the end of the file" || drop[0] != "" {
		t.Errorf("drops %q", drop)
	}
	if _, drop := Findings([]*Imported{{Line: 2}}, "x", []byte("one line\n")); drop[0] == "" {
		t.Error("line 2 of a one-line file with a final newline was found")
	}
}

// TestImportedRuleNames: the tool names findings carry, and the rule ids
// a waiver may name.
func TestImportedRuleNames(t *testing.T) {
	for in, want := range map[string]string{"Semgrep OSS": "semgrep", "skill-scanner": "skill-scanner", "CodeQL": "codeql",
		"  Bandit ": "bandit", "ESLint/x": "eslint-x", "!!!": "", "": ""} {
		if got := ImportedTool(in); got != want {
			t.Errorf("ImportedTool(%q) = %q, want %q", in, got, want)
		}
	}
	for id, want := range map[string]bool{"semgrep/python.x": true, "codeql/py/code-injection": true, "pipe-to-shell": false,
		"Semgrep/x": false, "/x": false, "semgrep/": false, "semgrep/a b": false, "s/" + strings.Repeat("x", MaxImportedRule): false} {
		if got := IsImportedRule(id); got != want {
			t.Errorf("IsImportedRule(%q) = %v", id, got)
		}
	}
}

// FuzzParseSARIF: no input makes the parser panic, and every result it
// returns is one build can use: an imported rule id, a severity, a path
// or a reason to drop. testdata/fuzz holds a log lint writes.
func FuzzParseSARIF(f *testing.F) {
	if b, err := os.ReadFile("testdata/semgrep.sarif"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(withResult(`{"ruleIndex":0,"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a/b.py"},"region":{"startLine":2}}}]}`)))
	f.Add([]byte(sarifDoc(`{"tool":{"driver":{"name":"t"}},"artifacts":[{"location":{"uri":"x"},"hashes":{"sha-256":"` + strings.Repeat("a", 64) + `"}}],"originalUriBaseIds":{"A":{"uri":"file:///b/"}},"results":[{"ruleId":"r","locations":[{"physicalLocation":{"artifactLocation":{"index":0,"uriBaseId":"A"}}}]}]}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		imps, err := ParseSARIF("f.sarif", data, "/base")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "sarif f.sarif: ") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		for _, imp := range imps {
			if !IsImportedRule(imp.Rule) || program.Rank(imp.Severity) == 0 || (imp.Path == "") == (imp.Drop == "") || imp.Line < 0 || imp.Column < 0 {
				t.Fatalf("unusable result %+v", imp)
			}
			if imp.Path != "" {
				fs, _ := Findings([]*Imported{&imp}, "f", data)
				if fs[0].Rule != "" && len(fs[0].Excerpt) > excerpt.Max {
					t.Fatalf("excerpt of %d bytes", len(fs[0].Excerpt))
				}
			}
		}
	})
}

// BenchmarkParseSARIF parses a log of 10,000 results in Semgrep's shape
// (about 5 MB).
func BenchmarkParseSARIF(b *testing.B) {
	one, err := os.ReadFile("testdata/semgrep.sarif")
	if err != nil {
		b.Fatal(err)
	}
	// The log's first result, repeated.
	start := bytes.Index(one, []byte(`"results": [`)) + len(`"results": [`)
	end := bytes.Index(one, []byte(`        {
          "fingerprints": {
            "matchBasedId/v1": "0c9d`))
	res := bytes.TrimSpace(one[start:end])
	var doc bytes.Buffer
	doc.Write(one[:start])
	for i := range 10000 {
		if i > 0 {
			doc.WriteByte(',')
		}
		doc.Write(bytes.TrimSuffix(res, []byte(",")))
	}
	doc.Write(one[bytes.Index(one, []byte(`      ],
      "tool"`)):])
	b.SetBytes(int64(doc.Len()))
	b.ReportAllocs()
	for b.Loop() {
		imps, err := ParseSARIF("bench.sarif", doc.Bytes(), "/base")
		if err != nil || len(imps) != 10000 {
			b.Fatalf("%d results, %v", len(imps), err)
		}
	}
}
