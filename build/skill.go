package build

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/build/frontmatter"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// ProvenanceFields are the frontmatter fields recorded as a skill's provenance.
var ProvenanceFields = []string{
	"origin", "origin-repo", "risk", "outbound", "outbound_targets", "gate_required", "dev-status", "pricing-tier",
	"license", "allowed-tools",
}

var nameRE = &lazyre.RE{Expr: `^[a-z0-9]+(-[a-z0-9]+)*$`}

// loadSkill reads, checks, hashes and lints one skill folder of the library
// lib, folds in its imported findings, and withholds it when a finding
// shows a capability lib denies. key names the library in opt.Cache.
func loadSkill(t tree, sd skillDir, lib *Library, key string, noScripts bool, opt *Options) *loaded {
	ns := lib.Namespace
	l := &loaded{cache: opt.Cache, key: key}
	files := l.collect(t, sd, opt.MaxFileBytes)
	if len(l.problems) == 0 {
		l.checkFiles(files)
	}
	if noScripts {
		kept := files[:0]
		for _, f := range files {
			if f.path != manifest.SkillFile && lint.IsScript(f.path) {
				l.skill.ScriptsWithheld++
				continue
			}
			kept = append(kept, f)
		}
		files = kept
	}
	var total int64
	for _, f := range files {
		total += int64(len(f.data))
	}
	var le *manifest.LimitError
	if errors.As(manifest.CheckSkillLimits(len(files), total), &le) {
		l.problem("", le.Rule, "%s", le.Text())
	}
	if len(files) == 0 || files[0].path != manifest.SkillFile {
		if len(l.problems) == 0 {
			l.problem(manifest.SkillFile, RuleUnreadable, "SKILL.md is not servable")
		}
		return l
	}
	fm, err := l.frontmatter(&files[0])
	if err != nil {
		var fe *frontmatter.Error
		if errors.As(err, &fe) {
			file := manifest.SkillFile
			if fe.Line > 0 {
				file = fmt.Sprintf("%s:%d", file, fe.Line)
			}
			l.problem(file, fe.Rule, "%v", fe.Err)
		} else {
			l.problem(manifest.SkillFile, "invalid-yaml", "%v", err)
		}
		return l
	}
	name := path.Base(sd.path)
	l.checkFrontmatter(fm, name)
	if len(l.problems) > 0 {
		return l
	}

	skillPath := sd.path
	if ns != "" {
		skillPath = ns + "/" + sd.path
	}
	s := &l.skill
	s.Library = ns
	s.Path = skillPath
	s.Hidden = isTrue(fm.Fields["disable-model-invocation"])
	s.Entry.URI = manifest.SkillURI(skillPath)
	folder := strings.TrimSuffix(s.Entry.URI, manifest.SkillFile) // skill://…/
	s.Entry.Frontmatter = fm.JSON
	for _, k := range ProvenanceFields {
		if v, ok := fm.Fields[k]; ok && v != nil && v != "" {
			if s.Provenance == nil {
				s.Provenance = map[string]any{}
			}
			s.Provenance[k] = v
		}
	}
	for _, f := range files {
		c := l.facts(f, !opt.NoLint)
		script := lint.IsScript(f.path)
		s.Entry.Resources = append(s.Entry.Resources, manifest.Resource{
			URI:    folder + manifest.EscapePath(f.path),
			Digest: c.digest,
			Size:   int64(len(f.data)),
		})
		s.Files = append(s.Files, manifest.File{Path: f.path, MimeType: mimeType(f.path, c.text), Text: c.text, Script: script})
		l.blobs = append(l.blobs, f.data)
		if !opt.NoLint { // facts linted what it should
			s.Findings = append(s.Findings, c.findingsAt(f.path)...) // a copy: waivers mark it, not the cache
		}
	}
	if !opt.NoLint {
		paths := make([]string, len(s.Files))
		for i, f := range s.Files {
			paths[i] = f.Path
		}
		byPath := make(map[string][]byte, len(files))
		for _, f := range files {
			byPath[f.path] = f.data
		}
		data := func(p string) []byte { return byPath[p] }
		s.Findings = lint.WithImports(paths, data, s.Findings) // programs read with the modules they import
		if len(s.Findings) > 0 {
			lint.InSkill(paths, data, s.Findings) // what a file's findings mean beside the others
		}
	}
	l.importFindings(opt.imports, key, sd, files)
	if len(opt.Waivers) > 0 && len(s.Findings) > 0 {
		lint.Waive(opt.Waivers, skillPath, s.Findings, func(file string) manifest.Digest {
			for i, f := range s.Files {
				if f.Path == file {
					return s.Entry.Resources[i].Digest
				}
			}
			return manifest.Digest{}
		})
	}
	s.Capabilities = lint.SkillCaps(s.Findings)
	l.deny(lib.Deny, ns)
	return l
}

// collect walks a skill folder, whose listing discovery took, and reads
// every file that belongs to it, SKILL.md first and the rest sorted
// bytewise by path. Folders are visited depth first in name order, so
// problems come in the order of the paths that caused them.
func (l *loaded) collect(t tree, sd skillDir, maxFile int64) []srcFile {
	f, err := t.open(sd.dir)
	if err != nil {
		l.problem("", RuleUnreadable, "%v", err)
		return nil
	}
	c := collector{l: l, max: maxFile}
	c.walk(f, sd.list, sd.dir, "")
	f.close()
	if len(c.skipped) > 0 {
		names := make([]string, len(c.skipped))
		for i, s := range c.skipped {
			names[i] = manifest.QuoteName(s)
		}
		l.warnings = append(l.warnings, fmt.Sprintf("%d dotfile(s) skipped: %s", len(c.skipped), strings.Join(firstN(names, 3), ", ")))
	}
	files := c.files
	slices.SortFunc(files, func(a, b srcFile) int {
		switch {
		case a.path == b.path:
			return 0
		case a.path == manifest.SkillFile:
			return -1
		case b.path == manifest.SkillFile:
			return 1
		}
		return strings.Compare(a.path, b.path)
	})
	return files
}

// collector is the state of one skill folder's walk.
type collector struct {
	l       *loaded
	max     int64
	files   []srcFile
	skipped []string // dotfiles and dot-folders
}

// walk reads the folder f, listed as list, at dir in the tree and rel in
// the skill. It returns false when the walk must stop: the skill holds more
// files than it may.
func (c *collector) walk(f folder, list *listing, dir, rel string) bool {
	l := c.l
	for i, d := range list.ents {
		name := d.Name()
		r, p := joinName(rel, name), joinName(dir, name)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l.problem(r, RuleSymlink, "symlinks are not followed; copy the file into the skill")
			continue
		case d.IsDir() && ignoredDir(name):
			continue
		case strings.HasPrefix(name, "."):
			c.skipped = append(c.skipped, r)
			continue
		case d.IsDir():
			if err := manifest.CheckSegment(name); err != nil {
				l.problem(r, RulePathInvalid, "name %v", err)
				continue
			}
			sub, err := f.sub(name)
			if err != nil {
				l.problem(r, RuleUnreadable, "%v", err)
				continue
			}
			subList := list.sub(i)
			if subList == nil {
				ents, err := sub.list()
				if err != nil {
					l.problem(r, RuleUnreadable, "%v", err)
				}
				subList = &listing{ents: ents}
			}
			more := c.walk(sub, subList, p, r)
			sub.close()
			if !more {
				return false
			}
			continue
		case !d.Type().IsRegular():
			l.problem(r, RuleIrregularFile, "not a regular file (%v)", d.Type())
			continue
		case ignoredExt(name):
			continue
		}
		if err := manifest.CheckSegment(name); err != nil {
			l.problem(r, RulePathInvalid, "name %v", err)
			continue
		}
		if len(c.files) >= maxCollectedFiles {
			return false
		}
		data, hit, info, err := l.read(f, p, name, d, c.max)
		if err != nil {
			rule, msg := readProblem(err, c.max)
			l.problem(r, rule, "%s", msg)
			continue
		}
		if l.cache == nil {
			l.readBufs = append(l.readBufs, data)
		}
		c.files = append(c.files, srcFile{path: r, data: data, fsPath: p, info: info, hit: hit})
	}
	return true
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(slices.Clone(s[:n]), fmt.Sprintf("+%d more", len(s)-n))
	}
	return s
}

// readProblem is the rule and message for a file that could not be read.
// A file swapped between listing and reading, for a symlink say, breaks
// the symlink rule; for a FIFO or device, the irregular-file rule.
func readProblem(err error, max int64) (rule, msg string) {
	switch {
	case errors.Is(err, errTooLarge):
		return RuleFileTooLarge, fmt.Sprintf("larger than SKILLS_MAX_FILE_BYTES (%d bytes)", max)
	case errors.Is(err, errSwapped):
		return RuleSymlink, "file changed while reading"
	case errors.Is(err, errNotRegular):
		return RuleIrregularFile, errNotRegular.Error()
	}
	return RuleUnreadable, err.Error()
}

// checkFiles withholds skills that bundle archives or hold paths that
// cannot all be created on a case-insensitive file system: two files equal
// under case folding, or a file equal to a folder (manifest.PathSet, the rule
// pull applies).
func (l *loaded) checkFiles(files []srcFile) {
	var archives []string
	var paths manifest.PathSet
	for _, f := range files {
		if isArchive(f.path, f.data) {
			archives = append(archives, path.Base(f.path))
		}
		var ce *manifest.CollisionError
		if err := paths.Add(f.path, false); errors.As(err, &ce) {
			if ce.Same {
				l.problem(ce.Path, RuleCaseCollision, "both a file and a folder")
			} else {
				l.problem(ce.Path, RuleCaseCollision, "same name as %s except for case", manifest.QuoteName(ce.Other))
			}
		}
	}
	if len(archives) > 0 {
		slices.Sort(archives)
		l.problem("", RuleArchive, "bundles archive file(s) (%s); skills may not contain archives", strings.Join(firstN(archives, 5), ", "))
	}
}

// checkFrontmatter applies the Agent Skills field rules.
func (l *loaded) checkFrontmatter(fm *frontmatter.Header, folder string) {
	const f = manifest.SkillFile
	name, ok := fm.Fields["name"].(string)
	switch {
	case !ok || name == "":
		l.problem(f, RuleNameMissing, "frontmatter has no name")
	case len(name) > maxNameLen:
		l.problem(f, RuleNameTooLong, "name is %d characters, the limit is %d", len(name), maxNameLen)
	case !nameRE.MatchString(name):
		l.problem(f, RuleNameInvalid, "name %q must be lowercase letters, digits and single hyphens, not starting or ending with a hyphen", name)
	case name != folder:
		l.problem(f, RuleNameMismatch, "name %q differs from its folder %q", name, folder)
	}
	desc, ok := fm.Fields["description"].(string)
	switch {
	case !ok || strings.TrimSpace(desc) == "":
		l.problem(f, RuleDescMissing, "frontmatter has no description")
	case utf8.RuneCountInString(desc) > maxDescriptionLen:
		l.problem(f, RuleDescTooLong, "description is %d characters, the limit is %d", utf8.RuneCountInString(desc), maxDescriptionLen)
	}
	if c, ok := fm.Fields["compatibility"]; ok {
		s, isStr := c.(string)
		if !isStr || utf8.RuneCountInString(s) > maxCompatibilityLen {
			l.problem(f, RuleCompatTooLong, "compatibility must be a string of at most %d characters", maxCompatibilityLen)
		}
	}
}

func isTrue(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(v, "true")
	}
	return false
}

// importFindings appends to the findings of a skill loaded from a folder
// library (key "dir:<abs>") the imported findings of each of its files.
func (l *loaded) importFindings(x *imports, key string, sd skillDir, files []srcFile) {
	root, ok := strings.CutPrefix(key, "dir:")
	if x == nil || !ok {
		return
	}
	s := &l.skill
	var out []manifest.Finding
	for i, f := range files {
		abs := filepath.Join(root, filepath.FromSlash(sd.dir), filepath.FromSlash(f.path))
		if len(x.byPath[abs]) == 0 {
			continue
		}
		if out == nil {
			out = make([]manifest.Finding, 0, len(s.Findings)+1)
		}
		out = append(out, x.findings(f.path, abs, f.data, s.Entry.Resources[i].Digest)...)
	}
	if len(out) == 0 {
		return
	}
	// Findings stay in manifest file order: each file's own, then its
	// imported ones.
	all := append(s.Findings, out...)
	order := map[string]int{}
	for i, f := range s.Files {
		order[f.Path] = i
	}
	slices.SortStableFunc(all, func(a, b manifest.Finding) int { return cmp.Compare(order[a.File], order[b.File]) })
	s.Findings = all
}

// deny withholds the skill when a finding no waiver covers shows a
// capability the library denies (lint.Deny): one problem per rule, naming
// the rule, the capabilities, the first file and line, and the library.
func (l *loaded) deny(deny []string, ns string) {
	seen := map[string]bool{}
	for _, d := range lint.Deny(deny, l.skill.Findings) {
		if seen[d.Finding.Rule] {
			continue
		}
		seen[d.Finding.Rule] = true
		l.problem(d.Finding.File, d.Finding.Rule, "line %d: %s denied in library %s", d.Finding.Line,
			strings.Join(d.Caps, ", "), displayNS(ns))
	}
}
