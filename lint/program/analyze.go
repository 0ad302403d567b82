package program

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/lint/encoded"
)

// Analyze runs the code analysis of a text and returns, per rule, its
// finding: the first with the strongest severity, sorted by rule; then
// the writes it graded, in the order it met them (Finding). It accepts any
// text and never fails.
func Analyze(in Input) []Finding {
	s := &scan{file: in.File, roles: in.Kind, text: in.Text, starts: in.Starts, in: in}
	s.analyseCode()
	out := make([]Finding, 0, len(s.hits)+len(s.graded))
	for _, f := range s.hits {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b Finding) int { return strings.Compare(a.Rule, b.Rule) })
	return append(out, s.graded...)
}

// analyseCode runs the analyses of the file's code and its layers.
func (s *scan) analyseCode() {
	defer s.gradeReads() // what the reads of secret files reached is known at the end
	for _, r := range s.regions() {
		if !s.budget().takeCode(len(r.text)) {
			s.opaque(r.off, fmt.Sprintf("not analysed: more than %d KiB of code in one file", maxCodeBytes>>10))
			break
		}
		if n := longestLine(r.text); n > maxCodeLine {
			s.opaque(r.off, fmt.Sprintf("not analysed: a line of %d KiB", n>>10))
			continue
		}
		switch r.lang {
		case langShell:
			s.shellRegion(r)
		case langBatch:
			s.batchRegion(r)
		case langReg:
			s.regRegion(r)
		default:
			s.flowRegion(r)
		}
	}
	if s.in.Depth < maxDepth {
		for _, e := range encoded.Find(s.text, maxLayers) {
			if s.roles&codeKinds != 0 {
				if host := hiddenHost(e.Text); host != "" {
					s.emit("hidden-address", e.Off, SeverityWarning, e.How+" spell the address of "+host)
				}
			}
			s.layer(e.Off, e.How, e.Text, "")
		}
	} else if e := encoded.Find(s.text, 1); len(e) > 0 {
		s.opaque(e[0].Off, fmt.Sprintf("%s: not decoded: more than %d layers deep", e[0].How, maxDepth))
	}
}

// hiddenHost returns the host of a text that is one web address whole
// (https://collect.example/v1, wss://…), which code spelled in char codes,
// base64, hex or escapes rather than as the string it is; "" for any
// other text. An address has no reason to be hidden from a reader.
func hiddenHost(text string) string {
	t := strings.TrimSpace(text)
	for _, scheme := range []string{"https://", "http://", "wss://", "ws://", "ftp://"} {
		rest, ok := strings.CutPrefix(strings.ToLower(t), scheme)
		if !ok {
			continue
		}
		if strings.ContainsAny(rest, " \t\n\"'<>") {
			return ""
		}
		host, _, _ := strings.Cut(rest, "/")
		host, _, _ = strings.Cut(host, "?")
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
		if strings.Count(host, ".") == 0 || len(host) < 4 {
			return ""
		}
		return host
	}
	return ""
}
