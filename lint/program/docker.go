package program

import (
	"slices"
	"strings"
)

// This file reads a Dockerfile as the one shell script its RUN
// instructions make: ARG defaults and ENV values as assignments (so a URL
// built from them is known), a RUN's continuation lines, its heredoc
// script, and everything else blanked. Each line keeps its length, so an
// offset in the script is the same offset in the file.

// A dockerBody is a RUN heredoc whose first line names an interpreter
// other than the shell (#!/usr/bin/env python3): text[start:end] is its
// script.
type dockerBody struct{ start, end int }

// dockerScript returns the shell script of a Dockerfile's text, every RUN
// instruction in order, the RUN heredocs that are scripts of another
// interpreter (blanked in the shell script), and the values BuildKit
// gives the platform ARGs it declares (NAME=value, platformArg).
func dockerScript(text string) (string, []dockerBody, []string) {
	var b strings.Builder
	b.Grow(len(text))
	var others []dockerBody
	var d dockerState
	for pos := 0; pos < len(text); {
		line, _, nl := strings.Cut(text[pos:], "\n")
		out := d.line(line, pos, text, &others)
		b.WriteString(out)
		for n := len(out); n < len(line); n++ {
			b.WriteByte(' ')
		}
		pos += len(line)
		if nl {
			b.WriteByte('\n')
			pos++
		}
	}
	if d.noShell {
		return "", others, nil
	}
	return b.String(), others, d.preset
}

// dockerState is where dockerRegions is in a Dockerfile.
type dockerState struct {
	cont      bool     // the instruction goes on to the next line
	keep      bool     // and it is shell the script keeps (a RUN)
	heredoc   string   // the word that ends the heredoc being read ("" for none)
	strip     bool     // the heredoc is <<-: its end may be indented with tabs
	keepBody  bool     // the heredoc's body is shell the script keeps
	ownDoc    bool     // and its marker too: a heredoc fed to a command, which the shell reads whole
	bodyStart int      // where a heredoc in another language starts (-1 for none)
	noShell   bool     // a SHELL instruction named a shell this analysis does not read
	preset    []string // NAME=value of the platform ARGs declared (platformArg)
}

// line returns what the script holds for one line of the Dockerfile,
// which starts at byte pos of text; a heredoc in another language is
// appended to others when it ends.
func (d *dockerState) line(l string, pos int, text string, others *[]dockerBody) string {
	if d.heredoc != "" {
		end := l
		if d.strip {
			end = strings.TrimLeft(l, "\t")
		}
		if strings.TrimRight(end, "\r") != d.heredoc {
			if d.keepBody {
				return l
			}
			return ""
		}
		d.heredoc = ""
		if d.bodyStart >= 0 {
			*others = append(*others, dockerBody{d.bodyStart, pos})
			d.bodyStart = -1
		}
		if d.ownDoc {
			return l // the shell's own heredoc (python3 <<EOF) ends here
		}
		return "" // the end of a body that is the script itself, or of a file's
	}
	if d.cont {
		d.cont = dockerContinues(l)
		if !d.keep {
			return ""
		}
		if t := strings.TrimLeft(l, " \t"); strings.HasPrefix(t, "#") {
			// Docker drops a comment line inside an instruction; the shell
			// would end the command there.
			if d.cont = true; len(l) > 0 {
				return strings.Repeat(" ", len(l)-1) + `\`
			}
			return ""
		}
		return d.takeHeredoc(l, text, pos)
	}
	t := strings.TrimLeft(l, " \t")
	word, rest, _ := strings.Cut(t, " ")
	if i := strings.IndexByte(word, '\t'); i >= 0 {
		word, rest = word[:i], word[i+1:]+" "+rest
	}
	lead := len(l) - len(t) + len(word) + 1 // where rest starts in l
	d.cont, d.keep = dockerContinues(l), false
	switch strings.ToUpper(word) {
	case "ONBUILD":
		r := strings.TrimLeft(rest, " \t")
		w2, r2, _ := strings.Cut(r, " ")
		if strings.ToUpper(w2) != "RUN" {
			return ""
		}
		lead, rest = lead+len(rest)-len(r)+len(w2)+1, r2
		fallthrough
	case "RUN":
		if d.noShell {
			d.cont = dockerContinues(l)
			return ""
		}
		d.keep = true
		return strings.Repeat(" ", min(lead, len(l))) + d.takeHeredoc(runCommand(rest), text, pos)
	case "ARG":
		if name := strings.TrimSpace(rest); !strings.Contains(name, "=") {
			if v, ok := platformArg(name); ok && !slices.Contains(d.preset, name+"="+v) {
				d.preset = append(d.preset, name+"="+v)
			}
		}
		return blanked(lead, l, dockerArgs(rest, false))
	case "ENV":
		return blanked(lead, l, dockerArgs(rest, true))
	case "SHELL":
		sh := strings.ToLower(rest)
		d.noShell = !strings.Contains(sh, "sh\"") || strings.Contains(sh, "pwsh") || strings.Contains(sh, "powershell")
	case "COPY", "ADD":
		if m := heredocWord(rest); m != "" {
			d.heredoc, d.strip, d.keepBody, d.bodyStart, d.ownDoc = strings.TrimPrefix(m, "-"), strings.HasPrefix(m, "-"), false, -1, false
		}
	}
	return ""
}

// takeHeredoc returns the shell of a RUN line cmd, which starts a line
// at byte pos of text, and notes a heredoc it opens: one fed to a command
// (RUN python3 <<EOF) is the shell's own; one that is the whole command
// (RUN <<EOF) is the script itself, shell unless its first line names
// another interpreter (#!/usr/bin/env python3), when it is a dockerBody.
func (d *dockerState) takeHeredoc(cmd, text string, pos int) string {
	m := heredocWord(cmd)
	if m == "" {
		return cmd
	}
	d.heredoc, d.strip, d.keepBody, d.bodyStart, d.ownDoc = strings.TrimPrefix(m, "-"), strings.HasPrefix(m, "-"), true, -1, true
	if !strings.HasPrefix(strings.TrimSpace(cmd), "<<") {
		return cmd
	}
	d.ownDoc = false
	nl := strings.IndexByte(text[pos:], '\n')
	if body := pos + nl + 1; nl >= 0 && body < len(text) && otherShebang(text[body:]) {
		d.keepBody, d.bodyStart = false, body
	}
	return "" // the marker alone: the body is the script
}

// heredocWord returns the word after the first << of s (with a leading -
// for <<-), its quotes taken off, or "".
func heredocWord(s string) string {
	i := strings.Index(s, "<<")
	if i < 0 || strings.HasPrefix(s[i:], "<<<") {
		return ""
	}
	w := s[i+2:]
	dash := strings.HasPrefix(w, "-")
	w = strings.TrimPrefix(w, "-")
	j := 0
	for j < len(w) && w[j] != ' ' && w[j] != '\t' && w[j] != '>' && w[j] != '|' && w[j] != ';' && w[j] != '&' && w[j] != ')' {
		j++
	}
	w = strings.Trim(w[:j], `"'`)
	if w == "" {
		return ""
	}
	if dash {
		return "-" + w
	}
	return w
}

// runCommand returns a RUN instruction's command (rest, the text after
// RUN) without its options (--mount=…, --network=…), each blanked, and
// the exec form's brackets and commas blanked to leave its words.
func runCommand(rest string) string {
	b := []byte(rest)
	i := 0
	for {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if !strings.HasPrefix(string(b[i:]), "--") {
			break
		}
		for i < len(b) && b[i] != ' ' && b[i] != '\t' {
			b[i] = ' '
			i++
		}
	}
	if i < len(b) && b[i] == '[' {
		inStr := false
		for k := i; k < len(b); k++ {
			switch {
			case b[k] == '\\' && inStr:
				k++
			case b[k] == '"':
				inStr = !inStr
			case !inStr && (b[k] == '[' || b[k] == ']' || b[k] == ','):
				b[k] = ' '
			}
		}
	}
	return string(b)
}

// dockerArgs returns the shell assignments of an ARG (env false) or ENV
// instruction's text: NAME=value pairs as they are, ENV's older NAME value
// form as NAME="value"; an ARG without a default assigns nothing.
func dockerArgs(rest string, env bool) string {
	t := strings.TrimSpace(rest)
	if t == "" {
		return ""
	}
	if name, _, ok := strings.Cut(t, "="); !ok || strings.ContainsAny(name, " \t") {
		if !env {
			return ""
		}
		name, val, ok := strings.Cut(t, " ")
		if !ok || strings.ContainsAny(val, `"\`) {
			return ""
		}
		return name + `="` + strings.TrimSpace(val) + `"`
	}
	return t
}

// platformArg returns a value of one of the ARGs BuildKit sets to the
// platform it builds for or on (TARGETARCH, BUILDOS, …): a platform name,
// which holds no path a URL built from it could leave its folder by.
func platformArg(name string) (string, bool) {
	switch name {
	case "TARGETARCH", "BUILDARCH":
		return "amd64", true
	case "TARGETOS", "BUILDOS":
		return "linux", true
	case "TARGETPLATFORM", "BUILDPLATFORM":
		return "linux/amd64", true
	case "TARGETVARIANT", "BUILDVARIANT":
		return "", true
	}
	return "", false
}

// blanked returns s placed at column lead of l, at its start when it does
// not fit there, or nothing when it is longer than the line: the script
// keeps the line's length.
func blanked(lead int, l, s string) string {
	if s == "" || lead+len(s) > len(l) {
		if s != "" && len(s) <= len(l) {
			return s + strings.Repeat(" ", len(l)-len(s))
		}
		return ""
	}
	return strings.Repeat(" ", lead) + s
}

// otherShebang reports whether a script starts with a #! line naming an
// interpreter other than a POSIX shell.
func otherShebang(script string) bool {
	if !strings.HasPrefix(script, "#!") {
		return false
	}
	first, _, _ := strings.Cut(script, "\n")
	f := strings.Fields(first[2:])
	if len(f) == 0 {
		return false
	}
	prog := f[0]
	if strings.HasSuffix(prog, "/env") && len(f) > 1 {
		prog = f[1]
	}
	prog = prog[strings.LastIndexByte(prog, '/')+1:]
	switch prog {
	case "sh", "bash", "dash", "ash", "zsh", "ksh":
		return false
	}
	return true
}

// dockerContinues reports whether a Dockerfile line goes on to the next: it
// ends in a backslash.
func dockerContinues(l string) bool {
	return strings.HasSuffix(strings.TrimRight(l, " \t\r"), `\`)
}
