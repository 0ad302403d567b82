package serve

// The catalog_status tool: what is served, from which bundles, with which
// signatures, warnings and withheld skills.

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// CatalogStatusInput are the arguments of catalog_status.
type CatalogStatusInput struct {
	IncludeWarnings bool `json:"include_warnings,omitempty" jsonschema:"include the build warnings (skipped files and other notes)"`
	Refresh         bool `json:"refresh,omitempty" jsonschema:"reload live libraries first, when the server has any"`
}

// BundleStatus describes one served bundle.
type BundleStatus struct {
	ID             string   `json:"id" jsonschema:"sha256 of the bundle's manifest"`
	Created        string   `json:"created,omitempty"`
	Libraries      []string `json:"libraries"`
	Skills         int      `json:"skills"`
	Signatures     int      `json:"signatures" jsonschema:"signatures stored in the bundle"`
	SignatureKinds []string `json:"signatureKinds,omitempty" jsonschema:"ssh or minisign, per signature"`
	VerifiedBy     []string `json:"verifiedBy,omitempty" jsonschema:"trusted keys whose signatures verified, when the server was given trusted keys"`
}

// WithheldSkill is a skill the build found but did not publish.
type WithheldSkill struct {
	Library string   `json:"library"`
	Path    string   `json:"path"`
	Rules   []string `json:"rules"`
	Reason  string   `json:"reason"`
}

// LintSummary counts lint findings.
type LintSummary struct {
	FlaggedSkills int            `json:"flaggedSkills"`
	Findings      int            `json:"findings"`
	Rules         map[string]int `json:"rules" jsonschema:"findings per rule"`
	Capabilities  map[string]int `json:"capabilities" jsonschema:"skills per capability the analysis saw (network, exec-remote, …)"`
}

// CatalogStatusOutput is the result of catalog_status.
type CatalogStatusOutput struct {
	Server          string          `json:"server"`
	Catalog         string          `json:"catalog" jsonschema:"identifies the set of served bundles"`
	Bundles         []BundleStatus  `json:"bundles"`
	Libraries       int             `json:"libraries"`
	Skills          int             `json:"skills"`
	Listed          int             `json:"listed" jsonschema:"skills in search and listings"`
	Hidden          int             `json:"hidden" jsonschema:"skills with disable-model-invocation"`
	Files           int             `json:"files"`
	Bytes           int64           `json:"bytes"`
	Withheld        []WithheldSkill `json:"withheld" jsonschema:"skills the build refused, with the rules they broke"`
	ScriptsWithheld int             `json:"scriptsWithheld"`
	Lint            LintSummary     `json:"lint"`
	WarningCount    int             `json:"warningCount"`
	Warnings        []string        `json:"warnings,omitempty"`
	Refresh         string          `json:"refresh,omitempty" jsonschema:"what refresh=true did"`
	Live            *LiveStatus     `json:"live,omitempty" jsonschema:"for live libraries: watch state, last scan, per-library state and warnings"`
	Prompts         PromptStatus    `json:"prompts" jsonschema:"whether each skill has a prompt (a slash command in hosts), and why not"`
}

func (d *discovery) catalogStatus(ctx context.Context, req *mcp.CallToolRequest, in CatalogStatusInput) (*mcp.CallToolResult, CatalogStatusOutput, error) {
	var out CatalogStatusOutput
	var refreshErr error
	if in.Refresh && d.refresh != nil {
		refreshErr = d.refresh(ctx)
	}
	c := d.current(ctx)
	heads, err := c.headers()
	if err != nil {
		return nil, out, err
	}
	docs, err := c.skills()
	if err != nil {
		return nil, out, err
	}
	if in.Refresh {
		out.Refresh = d.refreshOutcome(c, refreshErr)
	}
	id := c.snap.ID()
	out.Server, out.Catalog = d.name, id.String()
	out.Withheld = []WithheldSkill{}
	out.Lint.Rules, out.Lint.Capabilities = map[string]int{}, map[string]int{}
	// A caller restricted to some namespaces (access.go) sees only the
	// bundles, libraries and withheld skills of those, and no warnings
	// (they may name any library).
	full := c.snap.access.All()
	for i, b := range c.snap.Bundles() {
		m := heads[i]
		bs := BundleStatus{ID: b.ID().String(), Created: m.Created, Libraries: []string{}, Skills: b.NumSkills(), Signatures: len(b.Signatures())}
		for _, l := range m.Libraries {
			if _, ok, err := c.library(b, l); err != nil {
				return nil, out, err
			} else if ok {
				bs.Libraries = append(bs.Libraries, libraryName(l.Namespace))
			}
		}
		if !full {
			if len(bs.Libraries) == 0 {
				continue
			}
			bs.Skills = 0
			for k := range c.snap.Len() {
				if sb, _ := c.snap.Bundle(k); sb == b {
					bs.Skills++
				}
			}
		}
		for _, s := range b.Signatures() {
			bs.SignatureKinds = append(bs.SignatureKinds, signatureKind(s.Kind))
		}
		if d.signedBy != nil {
			bs.VerifiedBy = d.signedBy(b)
		}
		out.Bundles = append(out.Bundles, bs)
		out.Libraries += len(bs.Libraries)
		for _, w := range m.Withheld {
			if c.snap.allowsWithheld(w) {
				out.Withheld = append(out.Withheld, WithheldSkill(w))
			}
		}
		if !full {
			continue
		}
		out.WarningCount += len(m.Warnings)
		if in.IncludeWarnings {
			out.Warnings = append(out.Warnings, m.Warnings...)
		}
	}
	for i := range docs {
		doc := &docs[i]
		out.Skills++
		if doc.listed {
			out.Listed++
		}
		if doc.hidden {
			out.Hidden++
		}
		out.Files += doc.files
		out.Bytes += doc.bytes
		out.ScriptsWithheld += doc.scriptsWithheld
		if doc.findings > 0 {
			out.Lint.FlaggedSkills++
			out.Lint.Findings += doc.findings
		}
		for _, c := range doc.caps {
			out.Lint.Capabilities[c]++
		}
	}
	if out.Lint.Findings > 0 {
		for k := range docs {
			sk, err := c.snap.Skill(k)
			if err != nil {
				return nil, out, err
			}
			for _, f := range sk.Findings {
				out.Lint.Rules[f.Rule]++
			}
		}
	}
	if _, out.Prompts, err = d.promptsFor(c); err != nil {
		return nil, out, err
	}
	if d.liveStatus != nil && full {
		st := d.liveStatus()
		out.Live = &st
		out.WarningCount += len(st.Warnings)
		if in.IncludeWarnings {
			out.Warnings = append(out.Warnings, st.Warnings...)
		}
	}
	return nil, out, nil
}

// refreshOutcome says what refresh=true did, for the caller of catalog c:
// a caller that may read every namespace is told of any failure (the
// configuration file's, or any library's); a caller restricted to some
// namespaces only of its own libraries' (those it sees in list_libraries),
// from their state after the rescan, so that it learns nothing of another
// library.
func (d *discovery) refreshOutcome(c *catalog, err error) string {
	const failed = "failed (the server log has the details); the previous catalog is still served"
	switch {
	case d.refresh == nil:
		return "not available: this server serves fixed bundles; its catalog changes when the server is given new bundles"
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return "not done: the call ended before the rescan did"
	case c.snap.access.All():
		if err != nil {
			return failed
		}
		return "done"
	case d.liveStatus == nil:
		return "done" // no library states to scope a failure by
	}
	_, libs := c.skillPaths()
	for _, l := range d.liveStatus().Libraries {
		mine := c.snap.allowsLibrary(l.Namespace) || l.Namespace == "" && slices.Contains(libs, "")
		if mine && l.Error != "" {
			return failed
		}
	}
	return "done"
}

func signatureKind(k manifest.SignatureKind) string {
	switch k {
	case manifest.SignatureSSH:
		return "ssh"
	case manifest.SignatureMinisign:
		return "minisign"
	}
	return fmt.Sprintf("kind-%d", k)
}
