package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/skills-mcp/skills-mcp/build"
	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/oci"
)

// BuildCmd is `skills-mcp build`.
type BuildCmd struct {
	Lib       LibraryFlags `embed:""`
	Output    string       `short:"o" name:"output" required:"" placeholder:"FILE.skb|oci://HOST/REPO:TAG" help:"Where to write the bundle (atomically: temp file, fsync, rename), or a registry to push it to."`
	Tags      []string     `name:"tag" placeholder:"TAG" help:"With -o oci://...: also tag the artifact with TAG (repeatable)."`
	MountFrom string       `name:"mount-from" placeholder:"REPO" help:"With -o oci://...: ask the registry to take blobs from another of its repositories before sending them."`
	Strict    bool         `help:"Fail, writing nothing, when any skill is withheld (for CI jobs that must not publish a partial library)."`
	FailOn    string       `name:"fail-on" enum:",error,warning,note" default:"" placeholder:"error|warning|note" help:"Fail, writing nothing, when a lint finding that no waiver covers reaches this severity."`
	Stats     bool         `help:"Print catalog statistics as JSON on stdout."`
	Sign      string       `name:"sign" placeholder:"KEY" help:"Sign the manifest with this private key (SSHSIG and minisign, stored in the bundle; see skills-mcp sign --help)."`
	Gate      GateFlags    `embed:""`

	Registry RegistryFlags `embed:""`
	Cosign   CosignKeyFlag `embed:""`

	ctx context.Context // for the gate, which runs inside the write
}

// errStrict is what --strict turns withheld skills into.
var errStrict = errors.New("withheld skills")

// Run builds the bundle.
func (c *BuildCmd) Run(ctx context.Context, log *slog.Logger) error {
	var key ed25519.PrivateKey
	if c.Sign != "" {
		k, err := loadKey(c.Sign)
		if err != nil {
			return err
		}
		key = k
	}
	opt, err := c.Lib.Options(log)
	if err != nil {
		return err
	}
	if err := c.Gate.open(ctx, c.Lib.releaseFlags(c.Registry)); err != nil {
		return err
	}
	defer c.Gate.done()
	c.ctx = ctx
	opt.Context = ctx
	opt.Warn = warn
	opt.Fetch.Logf = warnf
	opt.Progress = progress("building")
	var res *build.Result
	if oci.IsRef(c.Output) {
		res, err = c.buildToRegistry(ctx, opt, key)
	} else {
		err = c.writeFile(opt, key, &res)
	}
	if errors.Is(err, errStrict) {
		return fmt.Errorf("--strict: %d skill(s) withheld, no bundle written (first: %s:%s: %s)", len(res.Manifest.Withheld),
			nsLabel(res.Manifest.Withheld[0].Library), res.Manifest.Withheld[0].Path, res.Manifest.Withheld[0].Reason)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "skills-mcp: wrote %s: %s, %s (%d hidden, %d withheld), %s\n", c.Output, res.ID,
		count(res.Stats.Skills, "skill"), res.Stats.Hidden, res.Stats.Withheld, count(res.Stats.Files, "file"))
	if key != nil {
		fmt.Fprintf(stderr, "skills-mcp: signed by %s (SSHSIG namespace %s, and minisign)\n",
			manifest.SSHFingerprint(key.Public().(ed25519.PublicKey)), manifest.SignatureNamespace)
	}
	if c.Stats {
		return writeJSON(os.Stdout, res.Stats)
	}
	return nil
}

// writeFile builds the bundle into the file -o names, atomically.
func (c *BuildCmd) writeFile(opt build.Options, key ed25519.PrivateKey, res **build.Result) error {
	return manifest.WriteFileAtomic(c.Output, 0o644, func(w io.Writer) error {
		var err error
		if key != nil {
			*res, err = buildSigned(opt, key, w)
		} else {
			*res, err = build.Build(opt, w)
		}
		if err == nil {
			err = c.policy(*res)
		}
		if err == nil && c.Strict && len((*res).Manifest.Withheld) > 0 {
			return errStrict
		}
		return err
	})
}

// policy applies --fail-on and the gate to a finished build.
func (c *BuildCmd) policy(res *build.Result) error {
	if err := errors.Join(failOn(c.FailOn, res.Manifest), c.Gate.check(c.ctx, res.Manifest)); err != nil {
		return fmt.Errorf("%w; no bundle written", err)
	}
	return nil
}

// failOn returns an error naming the first finding of m, and how many there
// are, that reaches level without a waiver; nil when none does.
func failOn(level string, m *manifest.Manifest) error {
	n := 0
	var first string
	for i := range m.Skills {
		s := &m.Skills[i]
		for _, f := range lint.FailOn(level, s.Findings) {
			if n == 0 {
				first = fmt.Sprintf("%s/%s:%d:%d: %s [%s]", s.Path, f.File, f.Line, f.Column, f.Severity, f.Rule)
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("--fail-on %s: %s at %s or above (first: %s)", level, count(n, "finding"), level, first)
}

// LintCmd is `skills-mcp lint`.
type LintCmd struct {
	Lib    LibraryFlags `embed:""`
	JSON   bool         `name:"json" xor:"format" help:"Print the report as JSON."`
	SARIF  bool         `name:"sarif" xor:"format" help:"Print the report as SARIF 2.1.0, for code-scanning annotations."`
	FailOn string       `name:"fail-on" enum:",error,warning,note" default:"" placeholder:"error|warning|note" help:"Exit 1 when a lint finding that no waiver covers reaches this severity."`
	Gate   GateFlags    `embed:""`

	Registry RegistryFlags `embed:""`
}

// Run lints the libraries without writing a bundle.
func (c *LintCmd) Run(ctx context.Context, log *slog.Logger) error {
	opt, err := c.Lib.Options(log)
	if err != nil {
		return err
	}
	if err := c.Gate.open(ctx, c.Lib.releaseFlags(c.Registry)); err != nil {
		return err
	}
	defer c.Gate.done()
	opt.Context = ctx
	opt.Report = warn
	opt.Fetch.Logf = warnf
	res, err := build.Build(opt, io.Discard)
	if err != nil {
		return err
	}
	m := res.Manifest
	// Both lists print as [] when empty, never null.
	rep := &lint.Report{Checked: len(m.Skills), Skills: []lint.Skill{}, Withheld: append([]manifest.Withheld{}, m.Withheld...)}
	for i := range m.Skills {
		s := &m.Skills[i]
		if len(s.Findings) > 0 {
			below := strings.TrimPrefix(strings.TrimPrefix(s.Path, s.Library), "/")
			files, findings := lint.Bindings(s)
			rep.Skills = append(rep.Skills, lint.Skill{Library: s.Library, Path: s.Path, URI: s.Entry.URI,
				Digests: files, Findings: findings, Capabilities: s.Capabilities, Dir: res.Folder(s.Library, below)})
		}
	}
	switch {
	case c.SARIF:
		// SARIF locates a withheld skill by its folder below the library.
		rep.Withheld = nil
		for _, w := range m.Withheld {
			w.Path = res.Folder(w.Library, w.Path)
			rep.Withheld = append(rep.Withheld, w)
		}
		roots := map[string]string{}
		for _, l := range opt.Libraries {
			roots[l.Namespace] = l.Root
		}
		if err := lint.WriteSARIF(os.Stdout, rep, func(ns string) string { return roots[ns] }); err != nil {
			return err
		}
	case c.JSON:
		if err := writeJSON(os.Stdout, rep); err != nil {
			return err
		}
	default:
		for _, s := range rep.Skills {
			for _, f := range s.Findings {
				sev := f.Severity
				if f.Waived != "" {
					sev += " (waived: " + f.Waived + ")"
				}
				fmt.Printf("%s/%s:%d:%d: %s: %s [%s]\n", s.Path, f.File, f.Line, f.Column, sev, f.Excerpt, f.Rule)
			}
			if len(s.Capabilities) > 0 {
				fmt.Printf("%s: capabilities: %s\n", s.Path, strings.Join(s.Capabilities, ", "))
			}
		}
		for _, w := range rep.Withheld {
			fmt.Printf("%s:%s: withheld: %s\n", nsLabel(w.Library), w.Path, w.Reason)
		}
		fmt.Printf("%s, %d with findings, %d withheld\n", count(res.Stats.Skills, "skill"), res.Stats.FlaggedSkills, res.Stats.Withheld)
	}
	if len(m.Withheld) > 0 {
		return &exitError{1, fmt.Errorf("%d skill(s) withheld", len(m.Withheld))}
	}
	if err := errors.Join(failOn(c.FailOn, m), c.Gate.check(ctx, m)); err != nil {
		return &exitError{exitFailed, err}
	}
	return nil
}

// InspectCmd is `skills-mcp inspect`.
type InspectCmd struct {
	Bundle   string        `arg:"" placeholder:"BUNDLE.skb|oci://..." help:"The bundle to describe: a file, or oci://HOST/REPO:TAG or @sha256:... (fetched into the cache)."`
	JSON     bool          `name:"json" help:"Print the whole description as JSON."`
	Trust    string        `placeholder:"KEYS" help:"Require a valid signature by a trusted key (KEYS as for verify --trust), and check the attestations it shows (with a cosign public key or --trusted-root)."`
	Keyless  KeylessFlags  `embed:""`
	Registry RegistryFlags `embed:""`
	Cache    CacheFlag     `embed:""`
}

// inspection is inspect's JSON shape.
type inspection struct {
	ID         string `json:"id"`
	Size       int64  `json:"size"`
	Blobs      int    `json:"blobs"`
	Signatures int    `json:"signatures"`
	Created    string `json:"created,omitempty"`
	// Release is what the libraries agree on: the version, source and
	// revision a registry shows as the artifact's annotations.
	Release   manifest.ReleaseInfo `json:"release"`
	Libraries []manifest.Library   `json:"libraries"`
	Skills    []inspectedSkill     `json:"skills"`
	Withheld  []manifest.Withheld  `json:"withheld"`
	Warnings  []string             `json:"warnings"`
	// SignedBy names the trusted signer, with --trust.
	SignedBy string `json:"signedBy,omitempty"`
	// Attestations are the in-toto Statements the artifact's Sigstore
	// bundles carry (kept from its registry), checked with --trust.
	Attestations []inspectedAttestation `json:"attestations,omitempty"`
}

type inspectedSkill struct {
	URI             string `json:"uri"`
	Library         string `json:"library"`
	Path            string `json:"path"` // what a waiver's "skill" names
	Hidden          bool   `json:"hidden,omitempty"`
	Files           int    `json:"files"`
	Bytes           int64  `json:"bytes"`
	ScriptsWithheld int    `json:"scriptsWithheld,omitempty"`
	// Digests lists every file with its digest, what a waiver's "digest" names.
	Digests  []lint.FileDigest `json:"digests"`
	Findings []lint.Finding    `json:"findings,omitempty"`
	// Capabilities are what the analysis saw the skill do.
	Capabilities []string `json:"capabilities,omitempty"`
}

// Run describes the bundle.
func (c *InspectCmd) Run(ctx context.Context) error {
	spec, err := loadTrustSpec(c.Trust, &c.Keyless)
	if err != nil {
		return err
	}
	path, f, err := c.Registry.fetchTrusted(ctx, c.Bundle, c.Cache.CacheDir, spec, stderrNote)
	if err != nil {
		return err
	}
	b, err := openBundle(path)
	if err != nil {
		return err
	}
	defer b.Close()
	m, err := b.Manifest()
	if err != nil {
		return err
	}
	who := ""
	if spec.keys != nil {
		if who, err = spec.check(b, c.Trust, f); err != nil {
			return err
		}
	}
	atts, err := inspectAttestations(b, spec, f)
	if err != nil {
		return err
	}
	in := inspection{SignedBy: who, Attestations: atts, ID: b.ID().String(), Size: b.Size(), Blobs: b.NumBlobs(), Signatures: len(b.Signatures()),
		Created: m.Created, Release: manifest.Release(m.Libraries), Libraries: m.Libraries, Withheld: m.Withheld, Warnings: m.Warnings}
	for i := range m.Skills {
		s := &m.Skills[i]
		is := inspectedSkill{URI: s.Entry.URI, Library: s.Library, Path: s.Path, Hidden: s.Hidden, Files: len(s.Files),
			ScriptsWithheld: s.ScriptsWithheld, Capabilities: s.Capabilities}
		is.Digests, is.Findings = lint.Bindings(s)
		for _, r := range s.Entry.Resources {
			is.Bytes += r.Size
		}
		in.Skills = append(in.Skills, is)
	}
	if c.JSON {
		return writeJSON(os.Stdout, in)
	}
	w := os.Stdout
	fmt.Fprintf(w, "bundle     %s\nid         %s\nsize       %s, %s, %d signature(s)\n", c.Bundle, in.ID, count(in.Size, "byte"), count(in.Blobs, "blob"), in.Signatures)
	if in.Created != "" {
		fmt.Fprintf(w, "created    %s\n", in.Created)
	}
	for _, f := range []struct{ name, v string }{{"version", in.Release.Version}, {"source", in.Release.Source}, {"revision", in.Release.Revision}} {
		if f.v != "" {
			fmt.Fprintf(w, "%-10s %s\n", f.name, f.v)
		}
	}
	fmt.Fprintf(w, "libraries  %d\n", len(in.Libraries))
	for _, l := range in.Libraries {
		extra := []string{l.Kind}
		for _, s := range []string{l.Title, l.Source, l.Version} {
			if s != "" {
				extra = append(extra, s)
			}
		}
		if len(l.Deny) > 0 {
			extra = append(extra, "deny "+strings.Join(l.Deny, ","))
		}
		fmt.Fprintf(w, "  %-12s %s (%d hidden)  %s\n", nsLabel(l.Namespace), count(l.Skills, "skill"), l.Hidden, strings.Join(extra, ", "))
	}
	fmt.Fprintf(w, "skills     %d\n", len(in.Skills))
	for _, s := range in.Skills {
		flags := ""
		if s.Hidden {
			flags += " hidden"
		}
		if s.ScriptsWithheld > 0 {
			flags += fmt.Sprintf(" scripts-withheld=%d", s.ScriptsWithheld)
		}
		if len(s.Findings) > 0 {
			flags += fmt.Sprintf(" findings=%d", len(s.Findings))
		}
		if len(s.Capabilities) > 0 {
			flags += " capabilities=" + strings.Join(s.Capabilities, ",")
		}
		fmt.Fprintf(w, "  %s  %s, %s%s\n", s.URI, count(s.Files, "file"), count(s.Bytes, "byte"), flags)
		for _, f := range s.Findings {
			sev := f.Severity
			if f.Waived != "" {
				sev += ", waived: " + f.Waived
			}
			fmt.Fprintf(w, "      %s:%d %s (%s): %s\n", f.File, f.Line, f.Rule, sev, f.Excerpt)
		}
	}
	if in.SignedBy != "" {
		fmt.Fprintf(w, "signed by  %s\n", in.SignedBy)
	}
	for _, a := range in.Attestations {
		state := "not checked (give --trust)"
		if a.Verified {
			state = "signed by " + a.Signer
		}
		fmt.Fprintf(w, "attestation %s: %s, %s\n", a.PredicateType, count(len(a.Statement), "byte"), state)
	}
	if len(in.Withheld) > 0 {
		fmt.Fprintf(w, "withheld   %d\n", len(in.Withheld))
		for _, h := range in.Withheld {
			fmt.Fprintf(w, "  %s:%s: %s\n", nsLabel(h.Library), h.Path, h.Reason)
		}
	}
	if len(in.Warnings) > 0 {
		fmt.Fprintf(w, "warnings   %d\n", len(in.Warnings))
		for _, s := range in.Warnings {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	return nil
}

// VerifyCmd is `skills-mcp verify`.
type VerifyCmd struct {
	Bundle   string        `arg:"" placeholder:"BUNDLE.skb|oci://..." help:"The bundle to check: a file, or oci://HOST/REPO:TAG or @sha256:... (fetched into the cache, with the signatures attached to it)."`
	Registry RegistryFlags `embed:""`
	Cache    CacheFlag     `embed:""`
	Trust    string        `placeholder:"KEYS" help:"Also require a valid signature by a trusted key. KEYS is an allowed_signers file, a file of ssh-ed25519 lines, a minisign .pub file, the minisign key string (RW...) itself, or a cosign public key file (cosign.pub: cosign signatures over the oci:// artifact's digest). Exit 3: unsigned; 4: no valid signature by a trusted key."`
	Keyless  KeylessFlags  `embed:""`
	// RequireAttestation requires the signed analysis attestation too.
	RequireAttestation bool `name:"require-attestation" help:"Also require the signed analysis attestation (predicate type https://github.com/skills-mcp/skills-mcp/attestation/analysis/v1) by a trusted cosign key or keyless signer; exit 3 when there is none."`
}

// Run re-hashes every blob and reports the first mismatch (exit 1), then,
// with --trust, checks the signatures (exit 3 or 4).
func (c *VerifyCmd) Run(ctx context.Context) error {
	spec, err := loadTrustSpec(c.Trust, &c.Keyless)
	if err != nil {
		return err
	}
	if c.RequireAttestation && spec.cosign == nil {
		return &exitError{exitUsage, errors.New("verify: --require-attestation needs a cosign public key in --trust (or --trusted-root)")}
	}
	if c.RequireAttestation {
		c.Registry.attestation = oci.AnalysisPredicateType
	}
	path, f, err := c.Registry.fetchTrusted(ctx, c.Bundle, c.Cache.CacheDir, spec, stderrNote)
	if err != nil {
		return err
	}
	b, err := openBundle(path)
	if err != nil {
		return &exitError{exitFailed, err}
	}
	defer b.Close()
	if err := b.Verify(); err != nil {
		return &exitError{exitFailed, fmt.Errorf("%s: tampered or corrupt: %w", c.Bundle, err)}
	}
	signed := ""
	if spec.keys != nil {
		who, err := spec.check(b, c.Trust, f)
		if c.RequireAttestation && err == nil {
			err = spec.checkAttestation(b, f)
		}
		if err != nil {
			var ee *exitError
			if errors.As(err, &ee) && ee.code != exitUsage {
				ee.err = fmt.Errorf("%s: %w", c.Bundle, ee.err)
			}
			return err
		}
		signed = ", signed by " + who
	} else if n := len(b.Signatures()); n > 0 {
		fmt.Fprintf(stderr, "skills-mcp: note: %d signature(s) not checked; give --trust FILE to check them\n", n)
	}
	fmt.Printf("%s: ok: %s, %s, %s verified%s\n", c.Bundle, b.ID(), count(b.NumSkills(), "skill"), count(b.NumBlobs(), "blob"), signed)
	return nil
}

func nsLabel(ns string) string {
	if ns == "" {
		return "(root)"
	}
	return ns
}

// buildToRegistry builds the bundle into a temporary file, then pushes it
// to ref.
func (c *BuildCmd) buildToRegistry(ctx context.Context, opt build.Options, key ed25519.PrivateKey) (*build.Result, error) {
	if _, err := oci.ParseRef(c.Output); err != nil {
		return nil, &exitError{exitUsage, err}
	}
	signer, err := c.Cosign.signer()
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp("", "skills-mcp-push-*.skb")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	var res *build.Result
	if key != nil {
		res, err = buildSigned(opt, key, tmp)
	} else {
		res, err = build.Build(opt, tmp)
	}
	if err != nil {
		return nil, err
	}
	if err := c.policy(res); err != nil {
		return res, err
	}
	if c.Strict && len(res.Manifest.Withheld) > 0 {
		return res, errStrict
	}
	b, err := manifest.OpenFile(tmp.Name())
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return res, pushBundle(ctx, b, c.Output, c.Tags, c.MountFrom, &c.Registry, signer)
}
