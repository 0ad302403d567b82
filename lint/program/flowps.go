package program

import (
	"path"
	"strings"
)

// This file is what the flow analysis (flowcalls.go) knows of PowerShell's
// command statements: a cmdlet, its parameters and arguments, and what
// invoking an expression runs.

// psCommand reads a PowerShell command statement: a cmdlet, its
// parameters and arguments.
func (f *flowState) psCommand() value {
	at := f.at(0)
	name := f.peek(0).s
	f.pos++
	var pos []value
	params := map[string]value{}
	for f.pos < len(f.toks) && !endOfStatement(f.peek(0)) && !f.is(0, "|") && !f.is(0, ")") {
		t := f.peek(0)
		if t.kind == tokWord && strings.HasPrefix(t.s, "-") && len(t.s) > 1 {
			p := strings.ToLower(t.s[1:])
			f.pos++
			if psSwitches[p] || endOfStatement(f.peek(0)) || f.peek(0).kind == tokWord && strings.HasPrefix(f.peek(0).s, "-") && len(f.peek(0).s) > 1 || f.is(0, "|") {
				params[p] = lit("true")
				continue
			}
			params[p] = f.valueOf(f.unary())
			continue
		}
		start := f.pos
		pos = append(pos, f.valueOf(f.unary()))
		if f.pos == start {
			f.pos++
		}
	}
	first := func(keys ...string) value {
		for _, k := range keys {
			if v, ok := params[k]; ok {
				return v
			}
		}
		if len(pos) > 0 {
			return pos[0]
		}
		return value{}
	}
	var out value
	switch strings.ToLower(name) {
	case "invoke-expression", "iex":
		f.execSink(first("command"), langPS, at, false)
	case "invoke-webrequest", "iwr", "invoke-restmethod", "irm", "curl", "wget", "start-bitstransfer":
		for _, v := range params {
			f.sendCheck(v, at)
		}
		if b, ok := params["infile"]; ok {
			f.sendCheck(f.readPath(b, at), at)
		}
		if o, ok := params["outfile"]; ok {
			f.wrote(o, value{t: tFetched}, at)
			f.vars["\x00file:"+o.s] = ev{v: value{t: tFetched}}
		} else if d, ok := params["destination"]; ok {
			f.vars["\x00file:"+d.s] = ev{v: value{t: tFetched}}
		} else {
			out = value{t: tFetched | tCmd}
		}
	case "start-process", "saps", "start":
		p := first("filepath")
		if fl, ok := f.vars["\x00file:"+p.s]; ok && p.s != "" && fl.v.t&tFetched != 0 {
			f.s.emit("download-exec", at, SeverityWarning, "")
		}
	case "set-content", "add-content", "out-file", "sc", "ni", "new-item":
		p := first("path", "filepath", "literalpath")
		content, ok := params["value"]
		if l := strings.ToLower(name); !ok && (l == "ni" || l == "new-item") {
			content = lit("") // an empty file, or a folder
		}
		f.wrote(p, content, at)
	case "remove-item", "rm", "del":
		if _, ok := params["recurse"]; ok {
			f.removeCheck(first("path", "literalpath"), at)
		}
	case "get-content", "gc", "cat":
		out = f.readPath(first("path", "literalpath"), at)
	case "copy-item", "cp", "copy":
		src := first("path")
		dst := params["destination"]
		if len(pos) > 1 {
			dst = pos[1]
		}
		f.wrote(dst, f.readPath(src, at), at)
	case "join-path":
		out = joinPath(first("path"), params["childpath"])
		if len(pos) > 1 {
			out = joinPath(pos[0], pos[1])
		}
	}
	if f.is(0, "|") {
		f.pos++
		if f.peek(0).kind == tokWord && (strings.EqualFold(f.peek(0).s, "iex") || strings.EqualFold(f.peek(0).s, "invoke-expression")) {
			f.execSink(out, langPS, at, true)
		}
	}
	return out
}

// psInvoke reports & $x: running a command or script block by value.
func (f *flowState) psInvoke(target ev, at int) {
	v := f.valueOf(target)
	if fl, ok := f.vars["\x00file:"+v.s]; ok && v.s != "" && fl.v.t&tFetched != 0 {
		f.s.emit("download-exec", at, SeverityWarning, "")
		return
	}
	if v.t&(tFetched|tDecoded) != 0 {
		f.execSink(v, langPS, at, false)
	}
}

// psWildcardLookup reports whether the tokens at pos are a command looked
// up by a wildcard pattern, (Get-Command i*k*-ex*) or (gcm i*e*x), and
// returns the pattern, lower case. It moves nothing.
func (f *flowState) psWildcardLookup() (string, bool) {
	if !f.is(0, "(") {
		return "", false
	}
	return f.psWildcardAt(1)
}

// wildPrefix marks a value that holds a command found by a wildcard
// pattern ($c = Get-Command i*-ex*): the pattern follows it.
const wildPrefix = "\x00wild:"

// psWildcardAt is psWildcardLookup for a Get-Command at pos+at, outside
// parentheses.
func (f *flowState) psWildcardAt(at int) (string, bool) {
	if c := strings.ToLower(f.peek(at).s); f.peek(at).kind != tokWord || c != "get-command" && c != "gcm" {
		return "", false
	}
	var b strings.Builder
	wild := false
	for k := at + 1; k < at+64; k++ {
		t := f.peek(k)
		if t.kind == tokEOL || t.kind == tokPunct && (t.s == ")" || t.s == ";" || t.s == "|") {
			break
		}
		if t.kind == tokString {
			b.WriteString(t.s)
			wild = wild || strings.ContainsAny(t.s, "*?")
			continue
		}
		if t.s == "*" || t.s == "?" {
			wild = true
		}
		b.WriteString(t.s)
	}
	return strings.ToLower(b.String()), wild
}

// psRunsCode are the commands that run the text they are given as code.
var psRunsCode = []string{"invoke-expression", "iex", "invoke-command", "icm"}

// psWildcardCall grades a call of a command found by a wildcard pattern:
// the script never spells the name it runs, which is a finding in itself,
// and when the pattern matches a command that runs text as code, the
// argument after it is that code.
func (f *flowState) psWildcardCall(pattern string, at int) {
	f.s.emit("dynamic-exec", at, SeverityWarning, "calls a command found by the wildcard pattern "+pattern)
	for _, c := range psRunsCode {
		if ok, _ := path.Match(pattern, c); ok && !endOfStatement(f.peek(0)) {
			f.execSink(f.valueOf(f.expr()), langPS, at, false)
			return
		}
	}
}
