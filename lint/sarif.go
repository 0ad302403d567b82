package lint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/lint/sarif"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Report is what `skills-mcp lint` reports: the findings of every linted
// skill, and the skills that were withheld.
type Report struct {
	Checked  int                 `json:"checked"` // how many skills were analysed, with findings or not
	Skills   []Skill             `json:"skills"`  // the skills with findings
	Withheld []manifest.Withheld `json:"withheld"`
}

// Skill is one linted skill and its findings.
type Skill struct {
	Library string `json:"library"` // library namespace, "" for an un-namespaced root
	Path    string `json:"path"`    // skill path as in the manifest: the namespace, then folders
	// Dir is the skill's folder below the library root, slash-separated,
	// when it is not Path without its namespace: a skill found in the
	// library's skills/ or .claude/skills/ folder, or a library root that is
	// itself a skill ("." then).
	Dir string `json:"dir,omitempty"`
	URI string `json:"uri"` // skill URI, skill://…/SKILL.md
	// Digests lists every file of the skill with its digest.
	Digests  []FileDigest `json:"digests"`
	Findings []Finding    `json:"findings"`
	// Capabilities are what the findings show the skill does (SkillCaps).
	Capabilities []string `json:"capabilities,omitempty"`
}

// folder returns the skill's folder below its library root.
func (sk *Skill) folder() string {
	if sk.Dir != "" {
		return sk.Dir
	}
	if sk.Library != "" {
		return strings.TrimPrefix(sk.Path, sk.Library+"/")
	}
	return sk.Path
}

// SARIF 2.1.0 identifiers.
const (
	sarifSchema   = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifVersion  = sarif.Version
	sarifSrcRoot  = "SRCROOT"
	sarifToolName = "skills-mcp"
)

// WriteSARIF writes r as a SARIF 2.1.0 log with one run, so that CI systems
// annotate the files. The tool's rules are Rules (with their family, their
// strongest severity as default level, their capabilities as a property,
// and their example as help), then each rule imported from another tool's
// SARIF that a finding names, then each rule that withheld a skill (level
// "error"). A result's properties hold the capabilities its finding shows
// and those of its skill. Each finding is a result
// at its file, line and column (in Unicode code points), with its severity
// as level; a waived finding carries an external suppression with the
// operator's reason, so code scanning shows it as dismissed;
// each rule of a withheld skill is a result at line 1 of the skill's
// SKILL.md, with level "error" (its folder is taken to be its path below the
// library, manifest.Withheld having nothing else).
//
// srcRoot returns a library's folder relative to the SARIF %SRCROOT% (the
// repository root or the directory CI runs in), slash-separated, "" for the
// root itself; file URIs are relative to it and carry uriBaseId "SRCROOT". A
// nil srcRoot puts every library at the root. If srcRoot returns an absolute
// path, the URIs are absolute file: URIs instead.
//
// The output is deterministic: results are sorted by file, line, rule and
// message, whatever the order of r.
func WriteSARIF(w io.Writer, r *Report, srcRoot func(library string) string) error {
	root := func(lib string) string {
		if srcRoot == nil {
			return ""
		}
		return srcRoot(lib)
	}
	var rules []sarifRule
	index := map[string]int{}
	addRule := func(r sarifRule) {
		if _, ok := index[r.ID]; !ok {
			index[r.ID] = len(rules)
			rules = append(rules, r)
		}
	}
	descs := map[string]string{}
	for _, lr := range Rules() {
		r := sarifRule{ID: lr.ID, ShortDescription: sarifText{lr.Description}, DefaultConfiguration: sarifConfig{lr.Severity},
			Properties: &sarifRuleProps{Family: lr.Family, Tags: []string{"security", lr.Family}, Capabilities: lr.Caps}}
		if lr.Example.Text != "" {
			r.Help = &sarifText{"Flagged, for example, in " + lr.Example.File + ":\n" + lr.Example.Text}
		}
		addRule(r)
		descs[lr.ID] = lr.Description
	}
	// Rules imported from other tools' SARIF: the tool's name is the id's
	// first segment.
	var imported []string
	for _, sk := range r.Skills {
		for _, f := range sk.Findings {
			if _, ok := index[f.Rule]; !ok && sarif.IsImportedRule(f.Rule) {
				imported = append(imported, f.Rule)
			}
		}
	}
	slices.Sort(imported)
	for _, id := range slices.Compact(imported) {
		tool, _, _ := strings.Cut(id, "/")
		addRule(sarifRule{ID: id, ShortDescription: sarifText{"reported by " + tool + " (imported SARIF)"}, DefaultConfiguration: sarifConfig{"warning"},
			Properties: &sarifRuleProps{Family: "imported", Tags: []string{"security", "imported", tool}}})
		descs[id] = "reported by " + tool
	}
	var withheldRules []string
	for _, wh := range r.Withheld {
		withheldRules = append(withheldRules, wh.Rules...)
	}
	slices.Sort(withheldRules)
	for _, id := range slices.Compact(withheldRules) {
		addRule(sarifRule{ID: id, ShortDescription: sarifText{"skill withheld: " + id}, DefaultConfiguration: sarifConfig{"error"}})
	}

	results := []sarifResult{}
	for _, sk := range r.Skills {
		for _, f := range sk.Findings {
			i, ok := index[f.Rule]
			if !ok {
				return fmt.Errorf("sarif: skill %s: finding with unknown rule %q", sk.URI, f.Rule)
			}
			msg := descs[f.Rule]
			if f.Excerpt != "" {
				msg += ": " + f.Excerpt
			}
			res := sarifResult{
				RuleID: f.Rule, RuleIndex: i, Level: sarifLevel(f.Severity),
				Message:   sarifText{msg},
				Locations: []sarifLocation{location(root(sk.Library), sk.folder(), f.File, max(f.Line, 1), f.Column)},
			}
			if f.Waived != "" {
				res.Suppressions = []sarifSuppression{{Kind: "external", Justification: f.Waived}}
			}
			if caps := FindingCaps(&f.Finding); len(caps) > 0 || len(sk.Capabilities) > 0 {
				res.Properties = &sarifResultProps{Capabilities: caps, SkillCapabilities: sk.Capabilities}
			}
			results = append(results, res)
		}
	}
	for _, wh := range r.Withheld {
		for _, id := range wh.Rules {
			msg := "skill withheld (" + id + ")"
			if wh.Reason != "" {
				msg += ": " + wh.Reason
			}
			results = append(results, sarifResult{
				RuleID: id, RuleIndex: index[id], Level: "error",
				Message:   sarifText{msg},
				Locations: []sarifLocation{location(root(wh.Library), wh.Path, manifest.SkillFile, 1, 0)},
			})
		}
	}
	slices.SortFunc(results, func(a, b sarifResult) int {
		pa, pb := a.Locations[0].PhysicalLocation, b.Locations[0].PhysicalLocation
		return cmp.Or(
			strings.Compare(pa.ArtifactLocation.URI, pb.ArtifactLocation.URI),
			cmp.Compare(pa.Region.StartLine, pb.Region.StartLine),
			cmp.Compare(pa.Region.StartColumn, pb.Region.StartColumn),
			cmp.Compare(a.RuleIndex, b.RuleIndex),
			strings.Compare(a.Message.Text, b.Message.Text),
		)
	})

	log := sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool:       sarifTool{Driver: sarifDriver{Name: sarifToolName, Rules: rules}},
			ColumnKind: "unicodeCodePoints",
			Results:    results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&log); err != nil {
		return fmt.Errorf("sarif: write: %w", err)
	}
	return nil
}

// sarifLevel maps a finding's severity to a SARIF level: the names are
// SARIF's own.
func sarifLevel(severity string) string {
	switch severity {
	case SeverityNote, SeverityError:
		return severity
	}
	return "warning"
}

// location returns the SARIF location of file in the skill folder dir of a
// library whose folder is root, at a line and a column (0: none).
func location(root, dir, file string, line, column int) sarifLocation {
	root = filepath.ToSlash(root)
	p := path.Join(root, dir, file)
	var art sarifArtifact
	if path.IsAbs(p) || filepath.IsAbs(filepath.FromSlash(root)) || filepath.VolumeName(filepath.FromSlash(root)) != "" {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // file:///C:/…
		}
		art.URI = (&url.URL{Scheme: "file", Path: p}).String()
	} else {
		art.URI = (&url.URL{Path: p}).String()
		art.URIBaseID = sarifSrcRoot
	}
	return sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: art, Region: sarifRegion{StartLine: line, StartColumn: column}}}
}

// The subset of SARIF 2.1.0 that WriteSARIF emits.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool     `json:"tool"`
		ColumnKind string        `json:"columnKind"`
		Results    []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name  string      `json:"name"`
		Rules []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string          `json:"id"`
		ShortDescription     sarifText       `json:"shortDescription"`
		Help                 *sarifText      `json:"help,omitempty"`
		DefaultConfiguration sarifConfig     `json:"defaultConfiguration"`
		Properties           *sarifRuleProps `json:"properties,omitempty"`
	}
	sarifRuleProps struct {
		Family       string   `json:"family"`
		Tags         []string `json:"tags"`
		Capabilities []string `json:"capabilities,omitempty"`
	}
	// sarifResultProps are a result's capabilities and its skill's.
	sarifResultProps struct {
		Capabilities      []string `json:"capabilities,omitempty"`
		SkillCapabilities []string `json:"skillCapabilities,omitempty"`
	}
	sarifSuppression struct {
		Kind          string `json:"kind"`
		Justification string `json:"justification"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID       string             `json:"ruleId"`
		RuleIndex    int                `json:"ruleIndex"`
		Level        string             `json:"level"`
		Message      sarifText          `json:"message"`
		Locations    []sarifLocation    `json:"locations"`
		Suppressions []sarifSuppression `json:"suppressions,omitempty"`
		Properties   *sarifResultProps  `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
)
