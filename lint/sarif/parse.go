package sarif

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/lint/excerpt"
	"github.com/skills-mcp/skills-mcp/lint/program"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Bounds on one imported SARIF log: its size, its results, a rule id, and
// how deep uriBaseIds may refer to each other.
const (
	MaxSARIFBytes   = 64 << 20
	MaxSARIFResults = 100_000
	MaxImportedRule = 200
	maxBaseDepth    = 8
)

// Version is the SARIF version this package reads, and lint writes.
const Version = "2.1.0"

// Imported is one result of another tool's SARIF log.
type Imported struct {
	// Rule is the tool's name, "/", and the tool's rule id:
	// "semgrep/python.lang.security.audit.exec-detected.exec-detected". The
	// tool's name is the first word of its driver's name, lowercased
	// (ImportedTool).
	Rule string
	// Path is the file the result is in: a local path, absolute and clean;
	// "" when the result names no local file (see Drop).
	Path     string
	URI      string // the file as the log names it, for messages
	Line     int    // 1-based; 0 when the result gives no line (the whole file)
	Column   int    // 1-based, in the log's column kind; 0 when none
	UTF16    bool   // Column counts UTF-16 code units (the SARIF default), not code points
	Severity string // program.SeverityError, SeverityWarning or SeverityNote
	Message  string
	// Digest is the file's SHA-256 as the log's artifacts state it, when
	// they do: a file whose bytes no longer match is not the one scanned.
	Digest *manifest.Digest
	Where  string // the result in the log, as a JSON path: runs[0].results[3]
	Drop   string // why the result cannot be bound to a file, or ""
}

// ImportedTool returns the name a tool's findings carry: the first word of
// its SARIF driver name, lowercased, every character but letters, digits,
// '.', '_' and '-' made '-' ("Semgrep OSS" is "semgrep"); "" when nothing is
// left.
func ImportedTool(driver string) string {
	word, _, _ := strings.Cut(strings.TrimSpace(driver), " ")
	var b strings.Builder
	for _, r := range strings.ToLower(word) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '.' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-.")
}

// IsImportedRule reports whether id has the form of an imported rule: a
// tool name as ImportedTool makes it, "/", and a rule id of printable
// characters without white space, MaxImportedRule bytes in all at most.
// No rule of Analyze has a "/" in its id.
func IsImportedRule(id string) bool {
	tool, rule, ok := strings.Cut(id, "/")
	return ok && tool != "" && ImportedTool(tool) == tool && len(id) <= MaxImportedRule && checkRuleID(rule) == nil
}

// checkRuleID reports what is wrong with a tool's rule id.
func checkRuleID(id string) error {
	if id == "" {
		return errors.New("empty")
	}
	if !utf8.ValidString(id) {
		return errors.New("not valid UTF-8")
	}
	for _, r := range id {
		if unicode.IsSpace(r) || excerpt.Unsafe(r) {
			return fmt.Errorf("holds %q: white space or a control character", r)
		}
	}
	return nil
}

// The part of SARIF 2.1.0 that ParseSARIF reads. Other members are allowed
// (SARIF has many, and property bags) and ignored; those it reads must
// have their type.
type (
	sarifInLog struct {
		Version *string           `json:"version"`
		Runs    []json.RawMessage `json:"runs"`
	}
	sarifInRun struct {
		Tool *struct {
			Driver *struct {
				Name  *string           `json:"name"`
				Rules []json.RawMessage `json:"rules"` // each sarifInRule, decoded at its path

			} `json:"driver"`
		} `json:"tool"`
		Results      []json.RawMessage          `json:"results"`
		Artifacts    []json.RawMessage          `json:"artifacts"` // each sarifInArtifact
		OriginalBase map[string]sarifInLocation `json:"originalUriBaseIds"`
		ColumnKind   string                     `json:"columnKind"`
	}
	sarifInRule struct {
		ID      string `json:"id"`
		Default *struct {
			Level string `json:"level"`
		} `json:"defaultConfiguration"`
	}
	sarifInArtifact struct {
		Location *sarifInLocation  `json:"location"`
		Hashes   map[string]string `json:"hashes"`
	}
	sarifInLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
		Index     *int   `json:"index"`
	}
	sarifInResult struct {
		RuleID    string `json:"ruleId"`
		RuleIndex *int   `json:"ruleIndex"`
		Rule      *struct {
			ID    string `json:"id"`
			Index *int   `json:"index"`
		} `json:"rule"`
		Kind    string `json:"kind"`
		Level   string `json:"level"`
		Message struct {
			Text string `json:"text"`
		} `json:"message"`
		Locations []json.RawMessage `json:"locations"` // the first one, a sarifInResultLoc, is read
	}
	sarifInResultLoc struct {
		Physical *struct {
			Artifact *sarifInLocation `json:"artifactLocation"`
			Region   *struct {
				StartLine   *int `json:"startLine"`
				StartColumn *int `json:"startColumn"`
			} `json:"region"`
		} `json:"physicalLocation"`
	}
)

// decodeAt decodes data into v, an error naming the JSON path at (and,
// for a member of the wrong type, the member's path below it).
func decodeAt(data []byte, at string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			p := at
			if te.Field != "" {
				p = join(at, te.Field)
			}
			return fmt.Errorf("%s: %s, want %s", p, article(te.Value), goKind(te.Type))
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%s: not JSON at byte %d: %v", at, se.Offset, err)
		}
		return fmt.Errorf("%s: %w", at, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%s: data after the JSON value", at)
	}
	return nil
}

func join(at, field string) string {
	if at == "" || at == "$" {
		return field
	}
	return at + "." + field
}

// article puts "a" or "an" before a JSON kind.
func article(kind string) string {
	switch kind {
	case "array", "object":
		return "an " + kind
	case "number", "string", "bool":
		return "a " + kind
	}
	return kind
}

// goKind names the JSON kind a Go type decodes.
func goKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	}
	return t.String()
}

// ParseSARIF parses a SARIF 2.1.0 log: version "2.1.0", every run's
// tool.driver.name, and every result with a rule id (ruleId, rule.id, or
// the driver's rule at ruleIndex), a level (its own, its rule's default,
// else "warning") and, in its first location, a file. name names the log
// in errors, which give the JSON path of what is wrong
// (runs[0].results[3].level: …); base is the absolute folder relative URIs
// resolve against, unless the run's originalUriBaseIds say where their
// uriBaseId is.
//
// Results of kind other than "fail" (pass, notApplicable, informational,
// review, open) are not problems and are left out. A result's suppressions
// are ignored: a scanner honours suppressions written in the scanned
// files (nosemgrep), and nothing inside a skill waives a finding; only the
// configuration's waivers do. A result whose file is not local (an http
// URI, no location) comes back with Drop set, for the caller to report.
func ParseSARIF(name string, data []byte, base string) ([]Imported, error) {
	fail := func(err error) ([]Imported, error) { return nil, fmt.Errorf("sarif %s: %w", name, err) }
	if len(data) > MaxSARIFBytes {
		return fail(fmt.Errorf("larger than %d MiB", MaxSARIFBytes>>20))
	}
	var log sarifInLog
	if err := decodeAt(data, "$", &log); err != nil {
		return fail(err)
	}
	switch {
	case log.Version == nil:
		return fail(errors.New("version: missing, want \"2.1.0\""))
	case *log.Version != Version:
		return fail(fmt.Errorf("version: %q, want \"2.1.0\"", *log.Version))
	case log.Runs == nil:
		return fail(errors.New("runs: missing"))
	}
	var out []Imported
	for ri, raw := range log.Runs {
		at := fmt.Sprintf("runs[%d]", ri)
		var run sarifInRun
		if err := decodeAt(raw, at, &run); err != nil {
			return fail(err)
		}
		if run.Tool == nil || run.Tool.Driver == nil || run.Tool.Driver.Name == nil {
			return fail(fmt.Errorf("%s.tool.driver.name: missing", at))
		}
		tool := ImportedTool(*run.Tool.Driver.Name)
		if tool == "" {
			return fail(fmt.Errorf("%s.tool.driver.name: %q gives no tool name", at, *run.Tool.Driver.Name))
		}
		utf16 := true
		switch run.ColumnKind {
		case "", "utf16CodeUnits":
		case "unicodeCodePoints":
			utf16 = false
		default:
			return fail(fmt.Errorf("%s.columnKind: %q, want utf16CodeUnits or unicodeCodePoints", at, run.ColumnKind))
		}
		rx := runIndex{run: &run, at: at, base: base}
		if err := rx.index(); err != nil {
			return fail(err)
		}
		if len(out)+len(run.Results) > MaxSARIFResults {
			return fail(fmt.Errorf("%s.results: more than %d results", at, MaxSARIFResults))
		}
		for i, raw := range run.Results {
			at := fmt.Sprintf("%s.results[%d]", at, i)
			var res sarifInResult
			if err := decodeAt(raw, at, &res); err != nil {
				return fail(err)
			}
			imp, keep, err := rx.result(&res, at, tool)
			if err != nil {
				return fail(err)
			}
			if keep {
				imp.UTF16 = utf16
				out = append(out, imp)
			}
		}
	}
	return out, nil
}

// runIndex resolves what a run's results refer to: rules, artifacts and
// base URIs.
type runIndex struct {
	run    *sarifInRun
	at     string
	base   string
	rules  []sarifInRule
	arts   []sarifInArtifact
	digest map[[2]string]manifest.Digest // (uriBaseId, uri) of an artifact → its sha-256
}

// index checks the run's rules and artifacts and indexes the artifacts'
// digests.
func (x *runIndex) index() error {
	x.rules = make([]sarifInRule, len(x.run.Tool.Driver.Rules))
	for i, raw := range x.run.Tool.Driver.Rules {
		at := fmt.Sprintf("%s.tool.driver.rules[%d]", x.at, i)
		if err := decodeAt(raw, at, &x.rules[i]); err != nil {
			return err
		}
		r := &x.rules[i]
		if err := checkRuleID(r.ID); err != nil {
			return fmt.Errorf("%s.id: %q: %v", at, r.ID, err)
		}
		if r.Default != nil {
			if _, err := sarifSeverity(r.Default.Level); err != nil {
				return fmt.Errorf("%s.defaultConfiguration.level: %w", at, err)
			}
		}
	}
	x.digest = map[[2]string]manifest.Digest{}
	x.arts = make([]sarifInArtifact, len(x.run.Artifacts))
	for i, raw := range x.run.Artifacts {
		if err := decodeAt(raw, fmt.Sprintf("%s.artifacts[%d]", x.at, i), &x.arts[i]); err != nil {
			return err
		}
		a := &x.arts[i]
		h, ok := a.Hashes["sha-256"]
		if !ok {
			continue
		}
		d, err := manifest.ParseDigest("sha256:" + strings.ToLower(h))
		if err != nil {
			return fmt.Errorf("%s.artifacts[%d].hashes.sha-256: %q is not 64 hex digits", x.at, i, h)
		}
		if a.Location != nil && a.Location.URI != "" {
			x.digest[[2]string{a.Location.URIBaseID, a.Location.URI}] = d
		}
	}
	return nil
}

// result reads one result: keep is false for a result that is not a
// problem (its kind).
func (x *runIndex) result(res *sarifInResult, at, tool string) (imp Imported, keep bool, err error) {
	switch res.Kind {
	case "", "fail":
	case "pass", "notApplicable", "informational", "review", "open":
		return imp, false, nil
	default:
		return imp, false, fmt.Errorf("%s.kind: %q is not a SARIF result kind", at, res.Kind)
	}
	imp.Where = at
	rules := x.rules
	id := res.RuleID
	idx := res.RuleIndex
	if res.Rule != nil {
		if id == "" {
			id = res.Rule.ID
		}
		if idx == nil {
			idx = res.Rule.Index
		}
	}
	var rule *sarifInRule
	if idx != nil {
		if *idx < 0 || *idx >= len(rules) {
			return imp, false, fmt.Errorf("%s.ruleIndex: %d, but the driver has %d rules", at, *idx, len(rules))
		}
		rule = &rules[*idx]
		if id == "" {
			id = rule.ID
		}
	} else {
		for i := range rules {
			if rules[i].ID == id {
				rule = &rules[i]
				break
			}
		}
	}
	if id == "" {
		return imp, false, fmt.Errorf("%s.ruleId: missing (and no rule.id or ruleIndex)", at)
	}
	if err := checkRuleID(id); err != nil {
		return imp, false, fmt.Errorf("%s.ruleId: %q: %v", at, id, err)
	}
	imp.Rule = tool + "/" + id
	if len(imp.Rule) > MaxImportedRule {
		return imp, false, fmt.Errorf("%s.ruleId: %q: longer than %d bytes with the tool's name", at, id, MaxImportedRule)
	}
	level := res.Level
	if level == "" && rule != nil && rule.Default != nil {
		level = rule.Default.Level
	}
	if imp.Severity, err = sarifSeverity(level); err != nil {
		return imp, false, fmt.Errorf("%s.level: %w", at, err)
	}
	if !utf8.ValidString(res.Message.Text) {
		return imp, false, fmt.Errorf("%s.message.text: not valid UTF-8", at)
	}
	imp.Message = excerpt.Of(res.Message.Text, 0)
	var rl sarifInResultLoc
	if len(res.Locations) > 0 {
		if err := decodeAt(res.Locations[0], at+".locations[0]", &rl); err != nil {
			return imp, false, err
		}
	}
	if rl.Physical == nil || rl.Physical.Artifact == nil {
		imp.Drop = "the result names no file"
		return imp, true, nil
	}
	pl := rl.Physical
	if r := pl.Region; r != nil {
		if r.StartLine != nil {
			if *r.StartLine < 1 {
				return imp, false, fmt.Errorf("%s.locations[0].physicalLocation.region.startLine: %d, want 1 or more", at, *r.StartLine)
			}
			imp.Line = *r.StartLine
		}
		if r.StartColumn != nil {
			if *r.StartColumn < 1 {
				return imp, false, fmt.Errorf("%s.locations[0].physicalLocation.region.startColumn: %d, want 1 or more", at, *r.StartColumn)
			}
			imp.Column = *r.StartColumn
		}
	}
	loc := *pl.Artifact
	if loc.Index != nil && loc.URI == "" {
		arts := x.arts
		if *loc.Index < 0 || *loc.Index >= len(arts) || arts[*loc.Index].Location == nil {
			return imp, false, fmt.Errorf("%s.locations[0].physicalLocation.artifactLocation.index: %d names no artifact with a location", at, *loc.Index)
		}
		loc = *arts[*loc.Index].Location
	}
	if loc.Index != nil && *loc.Index >= 0 && *loc.Index < len(x.arts) {
		if h, ok := x.arts[*loc.Index].Hashes["sha-256"]; ok {
			d, _ := manifest.ParseDigest("sha256:" + strings.ToLower(h)) // index checked it
			imp.Digest = &d
		}
	}
	if d, ok := x.digest[[2]string{loc.URIBaseID, loc.URI}]; ok && imp.Digest == nil {
		imp.Digest = &d
	}
	imp.URI = loc.URI
	p, drop, err := x.resolve(loc, 0)
	if err != nil {
		return imp, false, fmt.Errorf("%s.locations[0].physicalLocation.artifactLocation: %w", at, err)
	}
	imp.Path, imp.Drop = p, drop
	return imp, true, nil
}

// resolve returns the local path of an artifact location: an absolute
// file: URI as it is, a relative one against its uriBaseId when the run
// says where that is, else against the base folder. A URI of another
// scheme gives drop, the reason it is no local file.
func (x *runIndex) resolve(loc sarifInLocation, depth int) (p, drop string, err error) {
	if depth > maxBaseDepth {
		return "", "", fmt.Errorf("uriBaseId %q: more than %d bases deep (a cycle?)", loc.URIBaseID, maxBaseDepth)
	}
	if loc.URI == "" && depth == 0 {
		return "", "", errors.New("uri: missing")
	}
	u, err := url.Parse(loc.URI)
	if err != nil {
		return "", "", fmt.Errorf("uri %q: %v", loc.URI, err)
	}
	if u.Scheme != "" {
		if u.Scheme != "file" {
			return "", fmt.Sprintf("%s is not a local file", loc.URI), nil
		}
		if u.Host != "" && u.Host != "localhost" {
			return "", fmt.Sprintf("%s is on another host", loc.URI), nil
		}
		return filepath.Clean(filepath.FromSlash(u.Path)), "", nil
	}
	rel := filepath.FromSlash(u.Path)
	base := x.base
	if loc.URIBaseID != "" {
		if b, ok := x.run.OriginalBase[loc.URIBaseID]; ok && (b.URI != "" || b.URIBaseID != "") {
			bp, drop, err := x.resolve(b, depth+1)
			if err != nil || drop != "" {
				return "", drop, err
			}
			base = bp
		}
	}
	if filepath.IsAbs(rel) {
		return filepath.Clean(rel), "", nil
	}
	return filepath.Join(base, rel), "", nil
}

// sarifSeverity maps a SARIF level to a severity: "none" is a note, ""
// SARIF's default, a warning.
func sarifSeverity(level string) (string, error) {
	switch level {
	case "error":
		return program.SeverityError, nil
	case "warning", "":
		return program.SeverityWarning, nil
	case "note", "none":
		return program.SeverityNote, nil
	}
	return "", fmt.Errorf("%q, want error, warning, note or none", level)
}

// Findings returns the findings the imported results imps give in file, a
// file of a skill whose bytes are data, in the order of imps: each at its
// result's line (1 for the whole file) and column converted to code
// points, with the line's excerpt as Analyze makes it (the tool's message
// when the line is blank). A result that does not fit the file, a line
// past its end (the file is not the one scanned), gives its reason in
// drop instead, at the same index, and a zero finding. The file is read
// once, whatever the number of results.
func Findings(imps []*Imported, file string, data []byte) (fs []manifest.Finding, drop []string) {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	if len(data) > 0 && data[len(data)-1] == '\n' {
		starts = starts[:len(starts)-1] // no line after the final newline
	}
	fs = make([]manifest.Finding, len(imps))
	drop = make([]string, len(imps))
	for k, imp := range imps {
		f := manifest.Finding{Rule: imp.Rule, File: file, Line: max(imp.Line, 1), Severity: imp.Severity}
		if f.Line > len(starts) {
			drop[k] = "line " + strconv.Itoa(imp.Line) + " is past the end of the file"
			continue
		}
		end := len(data)
		if f.Line < len(starts) {
			end = starts[f.Line] - 1
		}
		line := strings.TrimSuffix(string(data[starts[f.Line-1]:end]), "\r")
		start := 0
		if imp.Line > 0 && imp.Column > 0 {
			start, f.Column = columnAt(line, imp.Column, imp.UTF16)
		}
		f.Excerpt = excerpt.Of(line, start)
		if f.Excerpt == "" {
			f.Excerpt = imp.Message
		}
		fs[k] = f
	}
	return fs, drop
}

// columnAt returns the byte offset in line of column col (1-based, in
// UTF-16 code units or code points) and the column in code points; a
// column past the line's end is its end.
func columnAt(line string, col int, utf16 bool) (int, int) {
	units, points := 1, 1
	for off, r := range line {
		if units >= col {
			return off, points
		}
		units++
		if utf16 && r > 0xFFFF {
			units++
		}
		points++
	}
	return len(line), points
}
