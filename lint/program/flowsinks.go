package program

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// execSink reports code run: fetched, decoded, unresolved (but a shell
// command the flow analysis hands on, which its own analysis grades), or
// known (then analysed again in its language).
func (f *flowState) execSink(code value, lang string, at int, stdin bool) {
	if fi := f.funcs[f.cur]; fi != nil && code.t&tParam != 0 && !(lang == langShell && namedCommand(code.s)) {
		fi.execs = true
	}
	f.s.gradeExec(code, at, stdin, lang != langShell)
	if lang != f.lang || code.t&(tBuilt|tDecoded) != 0 || lang == langShell {
		f.s.runLayer(code, lang, at)
	}
}

// namedCommand reports a shell command whose text starts with a program
// it names whole, then its arguments (python3 "…/stitch.py", convert "$p"
// out.png): a value of the function's in it is an argument, not code it
// runs, unless the program runs its arguments as a command (a wrapper,
// eval, xargs, ssh) or as code (an interpreter given its code option,
// sh -c, python3 -c, or a module, -m).
func namedCommand(s string) bool {
	first, rest, ok := strings.Cut(s, " ")
	if !ok || first == "" || strings.TrimSpace(rest) == "" || strings.ContainsAny(first, "$\"'`(){};|&<>=") {
		return false
	}
	name := path.Base(first)
	switch {
	case wrappers.Get()[name], name == "eval", name == "xargs", name == "ssh", name == "osascript", name == "cmd", name == "npx", name == "uvx":
		return false
	}
	if _, opt, ok := interpreter(name); ok {
		return !strings.Contains(rest, opt) && !strings.Contains(rest, "-m")
	}
	return true
}

// sendCheck reports a secret reaching the network.
func (f *flowState) sendCheck(v value, at int) { f.s.gradeSend(v, at) }

// credentialTo grades a request's credentials from the environment by
// its address, the first argument that holds one (scan.gradeCredentialTo).
func (f *flowState) credentialTo(args []ev, kw map[string]ev, at int) {
	var vs []value
	url := ""
	for _, a := range args {
		v := f.valueOf(a)
		if url == "" && strings.Contains(v.s, "://") {
			url = v.s
		}
		vs = append(vs, v)
		vs = append(vs, a.elems...)
	}
	if u, ok := kw["url"]; ok && url == "" {
		url = f.valueOf(u).s
	}
	for _, a := range kw {
		vs = append(vs, f.valueOf(a))
	}
	f.s.gradeCredentialTo(url, vs, at)
}

// readPath returns what reading the file at p gives, and reports a read of
// a secret through a path the program built.
func (f *flowState) readPath(p value, at int) value {
	k := p.path
	if k == pathNone {
		k = classifyPath(p)
	}
	if k != pathSecret {
		return value{t: p.t & (tFetched | tShipped)}
	}
	built := p.t&(tBuilt|tHome) != 0
	if n := normPath(p.s); browserDir(n) || strings.Contains(n, "keychain") || strings.Contains(n, "keyring") {
		if built {
			f.s.emit("credential-store", at, SeverityWarning, "")
		}
		return otherSecret(0)
	}
	c := f.s.readStore(p, at, built) // graded when the text is analysed: by what reaches a sink
	if f.lang != langPython && f.lang != langJS && f.lang != langPS {
		// Ruby's and Perl's blocks, PHP's and Go's closures are not
		// followed: where the content goes is not seen, so it may go anywhere.
		f.s.escape(c)
	}
	return c
}

// wrote reports a write to a place that runs later or configures an agent
// (scan.gradeWrite, the rule the shell analysis shares).
func (f *flowState) wrote(target, content value, at int) {
	f.s.gradeWrite(target, content, at)
	if fi := f.funcs[f.cur]; fi != nil && content.t&tFetched != 0 {
		fi.saves = true
	}
	if target.known && target.s != "" && content.t&tFetched != 0 {
		f.vars["\x00file:"+target.s] = ev{v: value{t: tFetched}} // a download saved: what runsFetched looks for
	}
}

// runsFetched reports whether a command line runs a file this program
// saved from a download: as the program, or as the script an interpreter
// is given (bash /tmp/x.sh, python3 -u /tmp/x.py).
func (f *flowState) runsFetched(cmd value) bool {
	if !cmd.known {
		return false
	}
	w := strings.Fields(cmd.s)
	if len(w) == 0 {
		return false
	}
	prog := w[0]
	if _, _, ok := interpreter(cmdName(lit(prog))); ok {
		prog = ""
		for _, a := range w[1:] {
			if !strings.HasPrefix(a, "-") {
				prog = a
				break
			}
		}
	}
	fl, ok := f.vars["\x00file:"+prog]
	return ok && prog != "" && fl.v.t&tFetched != 0
}

// runTarget returns what a command given as a list (its elements) or as
// a name alone (os.system(p)) runs: the program, or an interpreter's
// script. ok is false for a string built around a value ("cat " + p),
// which does not run it.
func runTarget(cmd ev, v value) (value, bool) {
	elems := cmd.elems
	if len(elems) == 0 {
		return v, cmd.from != ""
	}
	prog := elems[0]
	if _, _, ok := interpreter(cmdName(prog)); ok && prog.known {
		for _, a := range elems[1:] {
			if !(a.known && strings.HasPrefix(a.s, "-")) {
				return a, true
			}
		}
	}
	return prog, true
}

// runsSaved reports whether a command runs a path a download was saved to
// (tSaved), a path the analysis may not spell (runTarget); in a function,
// it records that the function runs a parameter (funcInfo.runsParam).
func (f *flowState) runsSaved(cmd ev, v value) bool {
	t, ok := runTarget(cmd, v)
	if !ok {
		return false
	}
	if fi := f.funcs[f.cur]; fi != nil && t.t&tParam != 0 {
		fi.runsParam = true
	}
	return t.t&tSaved != 0
}

// removeCheck reports a recursive deletion of / or home.
func (f *flowState) removeCheck(p value, at int) {
	switch classifyPath(p) {
	case pathRoot:
		f.s.emit("destructive-rm", at, SeverityError, "")
	case pathHome:
		f.s.emit("destructive-rm", at, SeverityWarning, "")
	}
}

// taskMark starts the value of a scheduled task's action
// (New-ScheduledTaskAction): the program and its arguments follow.
const taskMark = "\x00task:"

// psHostFile matches a PowerShell host given a script file to run, and the
// switches that change nothing of what it runs (a window style is how it
// shows, not what it does).
var psHostFile = &lazyre.RE{Expr: `(?i)^\s*["']?(?:powershell|pwsh)(?:\.exe)?["']?((?:\s+-(?:noprofile|nop|noninteractive|noni|nologo|file|f|executionpolicy\s+\w+|ep\s+\w+|windowstyle\s+\w+|w\s+\w+))*)\s*$`}

// plainTask reports whether a task's action runs only a program, or a
// script this file wrote with plain content (plainCommand) or copied from
// the skill's own files, given only its own parameters (a -File script
// takes every later argument as its own, so values the analysis cannot
// see there run nothing): the task is that write's grade. Anything
// fetched, decoded or secret in the action, a script it runs that this
// file did not write, or an action not seen whole before its script is
// not plain.
func (f *flowState) plainTask(action value) bool {
	cmd, ok := strings.CutPrefix(action.s, taskMark)
	if !ok || action.t&(tFetched|tDecoded|tSecret|tEnv) != 0 {
		return false
	}
	script, body := "", value{}
	for k, fl := range f.vars {
		p, ok := strings.CutPrefix(k, "\x00file:")
		if !ok || !strings.Contains(cmd, p) {
			continue
		}
		// the longest: the script, not the folder it is in; of two as long,
		// the first in order, so that the map's order never changes the grade
		if len(p) > len(script) || len(p) == len(script) && p < script {
			script, body = p, fl.v
		}
	}
	if script != "" {
		host, args := cmd, ""
		for _, q := range []string{`"` + script + `"`, `'` + script + `'`, script} {
			if i := strings.Index(cmd, q); i >= 0 {
				host, args = cmd[:i], cmd[i+len(q):]
				break
			}
		}
		// a host told more than to run the script (-Command, -EncodedCommand,
		// other files) is not plain; what follows the script is its own
		// parameters, data for code the file wrote
		if !psHostFile.MatchString(host) || !scriptArgs(args) {
			return false
		}
		shipped := body.t&tShipped != 0 && body.t&(tFetched|tDecoded|tSecret|tEnv) == 0 // a copy of the skill's own script, read on its own
		return plainCommand(body) || shipped
	}
	if action.t&tShipped != 0 {
		// a script of the skill's own folder ("${$PSScriptRoot}/x.ps1"),
		// read on its own, run by a host told only to run it
		if i := strings.Index(strings.ToLower(cmd), "${$psscriptroot}"); i >= 0 {
			host := strings.TrimRight(cmd[:i], `"'`)
			end := strings.IndexAny(cmd[i:], "\"' ")
			if end < 0 {
				end = len(cmd) - i
			}
			if psHostFile.MatchString(host) && scriptArgs(strings.TrimLeft(cmd[i+end:], `"'`)) {
				return true
			}
		}
	}
	return action.known && plainCommand(lit(cmd))
}

// encodedTask reports a task's action that hands PowerShell an encoded
// command, which no one agreeing to the task has read.
func encodedTask(cmd string) bool {
	for _, w := range strings.Fields(strings.ToLower(cmd)) {
		switch strings.Trim(w, `"'`) {
		case "-encodedcommand", "-enc", "-ec", "-e":
			return true
		}
	}
	return false
}

// scriptArgs reports whether the text after a task's script names only
// the script's own parameters (-Path "…" -Days 30): no second command, no
// redirection, no host switch that runs more (-Command, -EncodedCommand).
func scriptArgs(args string) bool {
	if strings.ContainsAny(args, ";|&<>`") {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(args)) {
		switch strings.Trim(w, `"'`) {
		case "-command", "-c", "-encodedcommand", "-enc", "-e", "-file", "-f":
			return false
		}
	}
	return true
}

// gradeRunKey grades a registry value Windows runs later (autorunKey) that
// a cmdlet sets: what it runs, as a scheduled task's action is graded
// (plainTask). A plain one is a note the line rules leave to the analysis
// (New-ItemProperty is persistence's, Set-ItemProperty autorun-config's);
// anything else a warning.
func (f *flowState) gradeRunKey(cmdlet, key string, data value, at int) {
	rule := "autorun-config"
	if cmdlet == "new-itemproperty" {
		rule = "persistence"
	}
	if i := indexFold(key, `\CurrentVersion\`); i >= 0 {
		key = "…" + key[i:]
	}
	f.gradeLater(rule, cmdlet+" "+key, data, at)
}

// gradeLater grades cmd, what a registry value or a task runs later, as a
// scheduled task's action is graded (plainTask): a plain one is a note the
// line rules for rule leave to the analysis, anything else a warning.
func (f *flowState) gradeLater(rule, what string, cmd value, at int) {
	if f.plainTask(cat(lit(taskMark), cmd)) {
		f.s.graded = append(f.s.graded, Finding{Rule: rule, Off: max(0, min(at, len(f.s.text)))})
		f.s.emit(rule, at, SeverityNote, "")
		return
	}
	f.s.emit(rule, at, SeverityWarning, what+": what it runs later is fetched, decoded, hidden or not seen")
}

// savedArg reports whether an argument of a call holds a path a download
// was saved to (tSaved).
func savedArg(f *flowState, args []ev) bool {
	for _, a := range args {
		if f.valueOf(a).t&tSaved != 0 {
			return true
		}
	}
	return false
}
