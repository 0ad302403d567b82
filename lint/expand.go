package lint

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/lint/program"
)

// This file holds the syntax variants of what the host runs before the
// model reads a skill: fenced blocks with a run marker (```!), expansions
// of read-only commands, expansions quoted as documentation, and the forms
// YAML allows for a frontmatter key (quoted, escaped, explicit "? key").

// maxExpansions bounds the expansions graded in one file.
const maxExpansions = 64

// fencedRuns finds fenced blocks whose info string starts with "!"
// (```!, ~~~!, ````!): hosts run the block as a command, as they run
// !`command`. It looks only at lines that open with a fence.
func fencedRuns(s *scan) []hit {
	var out []hit
	for _, fence := range []string{"```", "~~~"} {
		for off := 0; len(out) < maxExpansions; {
			i := strings.Index(s.text[off:], fence)
			if i < 0 {
				break
			}
			at := off + i
			off = at + len(fence)
			ls := strings.LastIndexByte(s.text[:at], '\n') + 1
			if strings.TrimLeft(s.text[ls:at], " \t") != "" {
				continue // not at a line's start
			}
			le := strings.IndexByte(s.text[at:], '\n')
			if le < 0 {
				le = len(s.text) - at
			}
			f, info, ok := program.OpenFence(s.text[ls : at+le])
			if !ok {
				continue
			}
			off = at + len(f)
			if strings.HasPrefix(strings.TrimSpace(info), "!") {
				out = append(out, hit{off: at, sev: SeverityWarning})
			}
		}
	}
	return out
}

// readOnlyCommand matches a command that only reads the repository or the
// clock: what !`command` is for (git status, git diff, ls, …), with no
// pipe, list, substitution or redirection.
var readOnlyCommand = &lazyre.RE{Expr: `^(?:git\s+(?:status|diff|log|show|branch|rev-parse|describe|remote\s+-v|config\s+--get\s+[\w.]+)|ls|pwd|date|whoami|uname|wc|head|tail|cat|echo|node\s+--version|python3?\s+--version|go\s+version)(?:\s+[\w@./:=~^+,%-]+)*\s*$`}

// expansionSeverity grades !`command` at byte at of text: a read-only
// command of the working tree (no home, absolute or parent path) is a
// note, and so is an expansion quoted as documentation (in a
// code span opened with two backticks); anything else is a warning.
func expansionSeverity(text string, at int, cmd string) string {
	if strings.HasSuffix(strings.TrimRight(text[max(0, at-4):at], " "), "``") {
		return SeverityNote
	}
	if !strings.ContainsAny(cmd, "|;&<>$`~") && !strings.Contains(cmd, " /") && !strings.Contains(cmd, "..") &&
		readOnlyCommand.MatchString(strings.TrimSpace(cmd)) {
		return SeverityNote
	}
	return SeverityWarning
}

// hookKey matches the frontmatter keys that make a host run a command.
var hookKey = &lazyre.RE{Expr: `^(?:hooks|(?:pre|post)[-_]?(?:install|run|load|start)|on[-_]?(?:load|start|activate|install)|(?:setup|init|startup)[-_]?commands?)$`}

// frontmatterHookKey accepts a frontmatter line whose key, in any of
// YAML's spellings, is one of hookKey's.
func frontmatterHookKey(s *scan, i int, m []int) string {
	if k := frontmatterKey(s.line(i)); k != "" && hookKey.MatchString(k) {
		return SeverityWarning
	}
	return ""
}

// grantRE matches one entry of an allowed-tools list: a tool's name and
// the command pattern in parentheses, if any.
var grantRE = &lazyre.RE{Expr: `([A-Za-z][\w-]*)\s*(?:\(([^)]*)\))?`}

// shellTools are the tools that run commands, by lowercase name.
var shellTools = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"bash": true, "shell": true, "powershell": true, "terminal": true}
}}

// anyCommand names the commands that run whatever their arguments say: a
// grant of one as a command prefix grants every command.
var anyCommand = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "pwsh": true,
		"powershell": true, "cmd": true, "python": true, "python3": true, "node": true, "deno": true, "bun": true, "ruby": true,
		"perl": true, "php": true, "eval": true, "exec": true, "env": true, "xargs": true, "sudo": true, "su": true, "doas": true,
		"nohup": true, "timeout": true, "nice": true, "command": true, "source": true, ".": true, "iex": true, "invoke-expression": true}
}}

// toolGrant accepts a frontmatter allowed-tools key whose value, on its
// line or in the block list under it, pre-approves any command. A pattern
// that spells out any command (Bash(*), Bash(:*)) or names a shell or an
// interpreter as its command prefix (Bash(sh:*), Bash(python3 -c:*)),
// which runs whatever it is given, is a warning; the shell tool named
// whole in a list of tools (Bash, Read, Write), as most skills that run
// commands write it, grants the same and is a note, its capability still
// shown. A grant of named commands (Bash(git diff:*)) is what the key is
// for.
func toolGrant(s *scan, i int, m []int) string {
	l := s.line(i)
	if k := strings.ToLower(frontmatterKey(l)); k != "allowed-tools" && k != "allowed_tools" {
		return ""
	}
	_, val, _ := strings.Cut(l[m[1]:], ":")
	for j := i + 1; strings.TrimSpace(l[m[1]:]) == ":" && j < s.lines() && s.flag(j)&lineFront != 0; j++ {
		n := s.line(j)
		if n == "" || n[0] != ' ' && n[0] != '\t' && n[0] != '-' {
			break
		}
		val += "," + n
	}
	sev := ""
	for _, g := range grantRE.FindAllStringSubmatchIndex(val, -1) {
		if !shellTools.Get()[strings.ToLower(val[g[2]:g[3]])] {
			continue
		}
		if g[4] < 0 {
			sev = SeverityNote // the tool named whole, as a list of the tools a skill uses names it
			continue
		}
		cmd := strings.TrimSpace(val[g[4]:g[5]])
		if i := strings.IndexAny(cmd, ": \t"); i >= 0 {
			cmd = cmd[:i]
		}
		if cmd == "" || strings.Trim(cmd, "*") == "" || anyCommand.Get()[strings.ToLower(path.Base(cmd))] {
			return SeverityWarning
		}
	}
	return sev
}
