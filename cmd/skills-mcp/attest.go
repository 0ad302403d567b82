package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

// analysis is the predicate of the analysis attestation
// (oci.AnalysisPredicateType): what the analyser of this version, with
// this rule table, found in the bundle, under which policy.
type analysis struct {
	Analyser struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		// RulesDigest is the sha256 of the rule table (id, family,
		// severity, description and capabilities of every rule, as JSON).
		RulesDigest string `json:"rulesDigest"`
	} `json:"analyser"`
	Bundle   string               `json:"bundle"` // the bundle id: sha256 of its manifest
	Policy   []analysisPolicy     `json:"policy"`
	Skills   []analysisSkill      `json:"skills"`
	Withheld []manifest.Withheld  `json:"withheld,omitempty"`
	Warnings []string             `json:"warnings,omitempty"`
	Waivers  []analysisWaiverNote `json:"waivers,omitempty"`
}

// analysisPolicy is a library's policy: the capabilities it denied, and
// whether its scripts were withheld.
type analysisPolicy struct {
	Library   string   `json:"library"`
	Deny      []string `json:"deny,omitempty"`
	NoScripts bool     `json:"noScripts,omitempty"`
}

type analysisSkill struct {
	Path         string             `json:"path"`
	Capabilities []string           `json:"capabilities,omitempty"`
	Findings     []manifest.Finding `json:"findings,omitempty"`
}

// analysisWaiverNote is one waived finding: where, and the reason given.
type analysisWaiverNote struct {
	Skill  string `json:"skill"`
	Rule   string `json:"rule"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// rulesDigest is the sha256 of the rule table.
func rulesDigest() string {
	b, _ := json.Marshal(lint.Rules())
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// analysisPredicate returns the analysis attestation's predicate for b.
func analysisPredicate(b *manifest.Bundle) (json.RawMessage, error) {
	m, err := b.Manifest()
	if err != nil {
		return nil, err
	}
	var a analysis
	a.Analyser.Name, a.Analyser.Version, a.Analyser.RulesDigest = "skills-mcp", versionString(), rulesDigest()
	a.Bundle = b.ID().String()
	a.Policy = []analysisPolicy{}
	for _, l := range m.Libraries {
		a.Policy = append(a.Policy, analysisPolicy{Library: l.Namespace, Deny: l.Deny, NoScripts: l.NoScripts})
	}
	a.Skills = []analysisSkill{}
	for i := range m.Skills {
		s := &m.Skills[i]
		a.Skills = append(a.Skills, analysisSkill{Path: s.Path, Capabilities: s.Capabilities, Findings: s.Findings})
		for _, f := range s.Findings {
			if f.Waived != "" {
				a.Waivers = append(a.Waivers, analysisWaiverNote{Skill: s.Path, Rule: f.Rule, File: f.File, Line: f.Line, Reason: f.Waived})
			}
		}
	}
	a.Withheld, a.Warnings = m.Withheld, m.Warnings
	return json.Marshal(a)
}

// inspectAttestations lists the attestations among b's Sigstore
// signatures: each checked when spec has a cosign verifier (over the
// digest f was fetched by, or the artifact b makes), shown unchecked
// otherwise.
func inspectAttestations(b *manifest.Bundle, spec trustSpec, f *oci.Fetched) ([]inspectedAttestation, error) {
	cos, err := oci.CosignSignatures(b.Signatures())
	if err != nil {
		return nil, err
	}
	var out []inspectedAttestation
	seen := map[string]bool{}
	for _, c := range cos {
		if c.Bundle == nil || c.PredicateType == "" || c.PredicateType == oci.CosignSignPredicate || seen[c.PredicateType] {
			continue
		}
		seen[c.PredicateType] = true
		a := inspectedAttestation{PredicateType: c.PredicateType}
		if spec.cosign != nil {
			d := c.Digest
			if f == nil {
				if d, err = oci.ArtifactDigest(b); err != nil {
					return nil, err
				}
			}
			v, err := spec.cosign.VerifyAttestation(d, cos, c.PredicateType)
			if err != nil {
				return nil, trustExit(err, exitUntrusted)
			}
			a.Verified, a.Signer, a.Statement = true, v.Signer, v.Statement
		} else if a.Statement, err = c.Statement(); err != nil {
			return nil, fmt.Errorf("attestation %s: %w", c.PredicateType, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// inspectedAttestation is one attestation as inspect shows it.
type inspectedAttestation struct {
	PredicateType string          `json:"predicateType"`
	Verified      bool            `json:"verified"` // its signature checked against --trust
	Signer        string          `json:"signer,omitempty"`
	Statement     json.RawMessage `json:"statement"`
}
