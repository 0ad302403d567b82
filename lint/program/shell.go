package program

import (
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/lint/encoded"
	"mvdan.cc/sh/v3/syntax"
)

// This file is the shell analysis's walk: the statements of a region
// (shellregion.go parses it with mvdan.cc/sh: assignments, pipes, command
// and process substitution, here-documents) in order, keeping what each
// variable and each file written may hold (value.go), and the commands
// they run, whose sinks shellsinks.go reports.

// stmts walks statements with no input and returns what they print.
func (st *shellState) stmts(list []*syntax.Stmt) value {
	var out value
	for _, x := range list {
		out = cat(out, st.stmt(x, value{}))
	}
	out.t &^= tBuilt
	return out
}

// stmt walks one statement, with stdin as its input, and returns what it
// prints.
func (st *shellState) stmt(x *syntax.Stmt, stdin value) value {
	st.steps++
	if x == nil {
		return value{}
	}
	if st.steps > len(st.text)+64 {
		if st.steps == len(st.text)+65 {
			st.s.opaque(st.off(x.Pos()), "not analysed: more statements than the text has bytes")
		}
		return value{}
	}
	// Input redirections and here-documents come first.
	var outFile []*syntax.Redirect
	st.stdinFile = value{}
	readIn, toSocket := false, false
	for _, r := range x.Redirs {
		if st.socketRedirect(x, r) {
			toSocket = true
			continue
		}
		switch r.Op {
		case syntax.RdrIn:
			st.stdinFile = st.word(r.Word)
			stdin = st.readSecret(st.stdinFile, st.off(r.OpPos))
			readIn = true
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				stdin = st.word(r.Hdoc)
			}
		case syntax.WordHdoc:
			stdin = st.word(r.Word)
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
			if r.N == nil || r.N.Value == "1" {
				outFile = append(outFile, r)
			}
		}
	}
	out := st.command(x.Cmd, stdin)
	if x.Cmd == nil && readIn {
		out = stdin // $(<file): bash prints the file
	}
	if toSocket {
		st.send(out, st.off(x.Pos())) // printf … >&"$s", s a /dev/tcp socket
	}
	own := ""
	if call, ok := x.Cmd.(*syntax.CallExpr); ok && len(outFile) == 1 && outFile[0].Op == syntax.RdrOut && len(call.Args) > 0 &&
		slices.Contains([]string{"grep", "sed", "awk"}, call.Args[0].Lit()) && !substitutes(call) {
		// its words read again: none runs a command, so nothing is walked twice
		args := make([]value, len(call.Args))
		for i, w := range call.Args {
			args[i] = st.word(w)
		}
		own = st.lineFilter(args)
	}
	for _, r := range outFile {
		target := st.word(r.Word)
		if k := fileKey(target); own != "" && k != "" && k != own {
			delete(st.files, k)
			st.wrote(target, lit(""), st.off(r.OpPos)) // the file's own lines, some left out: nothing new
			st.files[k].own = own
			continue
		}
		st.wrote(target, out, st.off(r.OpPos))
	}
	if len(outFile) > 0 {
		return value{}
	}
	return out
}

// spelledWord reports whether text spells name as a word of its own
// (PY=python3, B="python3 tools/x.py"): a command name put together at run
// time from parts no one of which spells it (cu""rl) hides it; one the
// script spells out whole, then splits or joins, hides nothing.
func spelledWord(text, name string) bool {
	for off := 0; name != ""; {
		i := strings.Index(text[off:], name)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(name)
		if (i == 0 || !isIdentByte(text[i-1]) && text[i-1] != '-') && (end == len(text) || !isIdentByte(text[end]) && text[end] != '-') {
			return true
		}
		off = i + 1
	}
	return false
}

// socketRedirect reads a redirection of statement x that opens a socket
// (exec {s}<>/dev/tcp/host/port, exec 3>/dev/udp/…, recorded in sockets)
// or writes to one opened so (>&3, >&"$s"), and reports the latter.
func (st *shellState) socketRedirect(x *syntax.Stmt, r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrInOut, syntax.RdrOut, syntax.AppOut:
		call, ok := x.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) != 1 || call.Args[0].Lit() != "exec" || r.N == nil {
			return false
		}
		if t := st.wordSource(r.Word); strings.HasPrefix(strings.Trim(t, `"'`), "/dev/tcp/") || strings.HasPrefix(strings.Trim(t, `"'`), "/dev/udp/") {
			if st.sockets == nil {
				st.sockets = map[string]bool{}
			}
			st.sockets[strings.Trim(r.N.Value, "{}")] = true
		}
	case syntax.DplOut:
		fd := strings.Trim(st.wordSource(r.Word), `"'${}`)
		return fd != "" && st.sockets[fd]
	}
	return false
}

// substitutes reports whether a command's words run commands of their
// own: a command or process substitution.
func substitutes(call *syntax.CallExpr) bool {
	found := false
	syntax.Walk(call, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// command walks a command and returns what it prints.
func (st *shellState) command(c syntax.Command, stdin value) value {
	switch c := c.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			for _, a := range c.Assigns {
				st.assign(a)
			}
			return value{}
		}
		return st.call(c, stdin)
	case *syntax.DeclClause:
		for _, a := range c.Args {
			st.assign(a)
			if c.Variant != nil && c.Variant.Value == "export" && a.Name != nil {
				st.s.escape(st.vars[a.Name.Value]) // in the environment of every command after it
			}
		}
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			return st.stmt(c.Y, st.stmt(c.X, stdin))
		}
		yes := st.consent([]*syntax.Stmt{c.X})
		x := st.stmt(c.X, stdin)
		switch {
		case yes > 0 && c.Op == syntax.AndStmt, yes < 0 && c.Op == syntax.OrStmt:
			defer st.asking(true)() // [[ $ok == y ]] && install: only on yes
		case yes > 0 && c.Op == syntax.OrStmt && exits([]*syntax.Stmt{c.Y}):
			st.s.asked = true // [[ $ok == [yY]* ]] || exit 1: the rest runs only on yes
		}
		if call, ok := c.Y.Cmd.(*syntax.CallExpr); ok && c.Op == syntax.OrStmt && len(call.Args) == 1 && (call.Args[0].Lit() == "true" || call.Args[0].Lit() == ":") {
			return x // grep -v "$m" || true: what the command printed, and nothing more
		}
		return cat(x, st.stmt(c.Y, value{}))
	case *syntax.Block:
		return st.stmtsIn(c.Stmts, stdin)
	case *syntax.Subshell:
		dir, asked := st.dir, st.s.asked
		defer func() { st.dir, st.s.asked = dir, asked }() // a subshell's cd and exit stay in it
		return st.stmtsIn(c.Stmts, stdin)
	case *syntax.IfClause:
		yes := st.consent(c.Cond)
		out := st.stmts(c.Cond)
		then := st.asking(yes > 0)
		out = cat(out, st.stmts(c.Then))
		then()
		if c.Else != nil {
			els := st.asking(yes < 0)
			out = cat(out, st.command(c.Else, value{}))
			els()
		}
		if yes < 0 && exits(c.Then) {
			st.s.asked = true // if [[ $ok != y ]]; then exit; fi: the rest runs only on yes
		}
		return out
	case *syntax.WhileClause:
		return cat(st.stmtsIn(c.Cond, stdin), st.stmts(c.Do)) // while read … done < file: the condition reads the input
	case *syntax.ForClause:
		if w, ok := c.Loop.(*syntax.WordIter); ok {
			var items value
			each := make([]value, len(w.Items))
			for i, it := range w.Items {
				each[i] = st.word(it)
				items = cat(items, each[i])
			}
			items.known = false
			items.s = ""
			items.t |= tUnknown
			if e, ok := weightiest(each); ok {
				items = e // the name holds each in turn: the one that matters most to a sink
			}
			st.vars[w.Name.Value] = items
		}
		return st.stmts(c.Do)
	case *syntax.CaseClause:
		var out value
		answer := st.namesAnswer(st.wordSource(c.Word))
		yesOnly, hasYes := answer, false
		for _, it := range c.Items {
			yes := answer && yesItem(it)
			hasYes = hasYes || yes
			if !yes && !exits(it.Stmts) {
				yesOnly = false
			}
			done := st.asking(yes)
			out = cat(out, st.stmts(it.Stmts))
			done()
		}
		if yesOnly && hasYes {
			st.s.asked = true // case $ans in y|Y) ;; *) exit 0 ;; esac: the rest runs only on yes
		}
		return out
	case *syntax.FuncDecl:
		// Walked where it is called; a wrapper that runs its arguments
		// (run() { "$@"; }) once, at the end, as its calls are commands of
		// their own.
		f := &shellFunc{body: c.Body, base: st.base, wrapper: runsArgs(c.Body), asks: asksYes(c.Body)}
		switch {
		case c.Name != nil:
			f.name = c.Name.Value
		case len(c.Names) > 0 && c.Names[0] != nil:
			f.name = c.Names[0].Value
		default:
			return st.stmt(c.Body, stdin) // an anonymous function runs where it is (zsh's () { … })
		}
		st.funcs = append(st.funcs, f)
	case *syntax.TimeClause:
		return st.stmt(c.Stmt, stdin)
	case *syntax.CoprocClause:
		return st.stmt(c.Stmt, stdin)
	}
	return value{}
}

// stmtsIn walks a list whose first statement reads stdin.
func (st *shellState) stmtsIn(list []*syntax.Stmt, stdin value) value {
	var out value
	for i, x := range list {
		in := value{}
		if i == 0 {
			in = stdin
		}
		out = cat(out, st.stmt(x, in))
	}
	out.t &^= tBuilt
	return out
}

// assign records a variable's value.
func (st *shellState) assign(a *syntax.Assign) {
	if a.Name == nil {
		return
	}
	var v value
	switch {
	case a.Value != nil:
		v = st.word(a.Value)
	case a.Array != nil:
		for _, e := range a.Array.Elems {
			if e.Value != nil {
				v = cat(v, lit(" "), st.word(e.Value))
			}
		}
	default:
		return
	}
	if a.Append {
		v = cat(st.vars[a.Name.Value], v)
	}
	st.vars[a.Name.Value] = v
}

// word evaluates a word.
func (st *shellState) word(w *syntax.Word) value {
	if w == nil {
		return value{}
	}
	if len(w.Parts) == 1 {
		return st.part(w.Parts[0], true)
	}
	vs := make([]value, 0, len(w.Parts))
	for i, p := range w.Parts {
		vs = append(vs, st.part(p, i == 0))
	}
	return cat(vs...)
}

// part evaluates one part of a word; first says whether it starts the word
// (where ~ is the home folder).
func (st *shellState) part(p syntax.WordPart, first bool) value {
	switch p := p.(type) {
	case *syntax.Lit:
		if first && (p.Value == "~" || strings.HasPrefix(p.Value, "~/")) {
			v := lit(homeMark + p.Value[1:])
			v.t |= tHome
			v.path = classifyPath(v)
			return v
		}
		v := lit(p.Value)
		v.path = classifyPath(v)
		return v
	case *syntax.SglQuoted:
		if p.Dollar {
			v := lit(encoded.Unescape(p.Value))
			if strings.Contains(p.Value, `\x`) || strings.Contains(p.Value, `\0`) || strings.Contains(p.Value, `\u`) {
				v.t |= tBuilt
			}
			return v
		}
		return lit(p.Value)
	case *syntax.DblQuoted:
		vs := make([]value, 0, len(p.Parts))
		for i, q := range p.Parts {
			if l, ok := q.(*syntax.Lit); ok && strings.IndexByte(l.Value, '\\') >= 0 {
				vs = append(vs, lit(dqUnescape(l.Value))) // "eval \"\$(x)\"" holds eval "$(x)"
				continue
			}
			vs = append(vs, st.part(q, first && i == 0 && false))
		}
		if len(vs) == 0 {
			return lit("")
		}
		if len(vs) == 1 {
			return vs[0]
		}
		return cat(vs...)
	case *syntax.ParamExp:
		return st.param(p)
	case *syntax.CmdSubst:
		dir := st.dir
		v := st.stmts(p.Stmts)
		st.dir = dir
		return v
	case *syntax.ProcSubst:
		out := st.stmts(p.Stmts)
		v := lit("/dev/fd/63")
		if p.Op == syntax.CmdIn {
			name := "/dev/fd/63"
			// A project's own install script alone (value.installer) is run
			// as when piped to the shell: runFile grades it so.
			st.files[name] = &shFile{holds: out.t, off: st.off(p.OpPos), installer: out.installer && out.t&^(tFetched|tCmd) == 0}
		}
		return v
	case *syntax.ArithmExp:
		return value{}
	}
	return value{}
}

// spell returns the word w spelled with holeMark (inlinecode.go) for each
// parameter whose value the analysis cannot see and no one but the user
// chooses (the environment, an argument, a name never set), or "" when w
// holds no such hole or any other part it cannot spell: a command's
// output, whose text a file or the network may give.
func (st *shellState) spell(w *syntax.Word) string {
	var b strings.Builder
	holes := 0
	var walk func(parts []syntax.WordPart) bool
	walk = func(parts []syntax.WordPart) bool {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(dqUnescape(p.Value))
			case *syntax.SglQuoted:
				if p.Dollar {
					return false
				}
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				if !walk(p.Parts) {
					return false
				}
			case *syntax.ParamExp:
				v := st.param(p)
				switch {
				case v.known:
					b.WriteString(v.s)
				case v.t&^(tUnknown|tParam|tGuarded|tKnownHead|tHostHead|tNamed|tBuilt) == 0:
					b.WriteString(holeMark)
					holes++
				default:
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if w == nil || !walk(w.Parts) || holes == 0 {
		return ""
	}
	return b.String()
}

// param evaluates a parameter expansion.
func (st *shellState) param(p *syntax.ParamExp) value {
	if p.Param == nil {
		return unknown()
	}
	name := p.Param.Value
	v, ok := st.vars[name]
	if !ok && st.pos != nil {
		v, ok = st.positional(name)
	}
	if !ok {
		switch name {
		case "HOME":
			v = lit(homeMark)
			v.t |= tHome
		case "XDG_CONFIG_HOME":
			v = lit(homeMark + "/.config")
			v.t |= tHome
		case "USERPROFILE", "APPDATA":
			v = lit(homeMark)
			v.t |= tHome
		case "0", "BASH_SOURCE", "CLAUDE_SKILL_DIR", "CLAUDE_PLUGIN_ROOT":
			v = shippedValue(name) // the skill's folder, or this script in it
		default:
			if credentialEnv(name) {
				v = st.s.credential(name)
				break
			}
			v = unknown()
		}
	}
	if p.Length || p.Excl || p.Slice != nil {
		return value{t: v.t &^ tHome}
	}
	if p.Repl != nil {
		if out, ok := st.replaced(v, p.Repl); ok {
			return out
		}
		r := value{t: v.t | tBuilt}
		return r
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
			if v.known && p.Exp.Word == nil {
				out := v
				out.s = caseModified(v.s, p.Exp.Op)
				out.t |= tBuilt
				return out
			}
			return value{t: v.t | tBuilt}
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
			if !ok || !v.known {
				d := st.word(p.Exp.Word)
				d.t |= v.t &^ tUnknown
				if d.store == 0 {
					d.store = v.store // ${GITHUB_TOKEN:-…} is still the environment's credential
				}
				return d
			}
		case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			v.t |= tGuarded
			if !v.known {
				v.t &^= tUnknown
			}
		default:
			return value{t: v.t | tBuilt}
		}
	}
	return v
}

// replaced evaluates ${v/orig/with} and ${v//orig/with} when v and both
// words are known and orig holds no pattern characters: c=cXuXrXl;
// ${c//X/} is curl.
func (st *shellState) replaced(v value, r *syntax.Replace) (value, bool) {
	if !v.known || r.Orig == nil {
		return value{}, false
	}
	orig := st.word(r.Orig)
	with := lit("")
	if r.With != nil {
		with = st.word(r.With)
	}
	if !orig.known || !with.known || orig.s == "" || strings.ContainsAny(orig.s, "*?[#%") {
		return value{}, false
	}
	n := 1
	if r.All {
		n = -1
	}
	out := v
	out.s = strings.Replace(v.s, orig.s, with.s, n)
	out.t |= tBuilt
	return out, true
}

// call walks a simple command and returns what it prints.
func (st *shellState) call(c *syntax.CallExpr, stdin value) value {
	args := make([]value, 0, len(c.Args))
	words := make([]*syntax.Word, 0, len(c.Args))
	for _, w := range c.Args {
		if st.pos != nil && allArgs(w) {
			for _, a := range st.pos {
				args, words = append(args, a), append(words, nil) // "$@": each argument a word
			}
			continue
		}
		v := st.word(w)
		if f := splitFields(w, v); f != nil {
			for _, x := range f {
				args, words = append(args, x), append(words, nil) // $CMD unquoted: the shell splits it into words
			}
			continue
		}
		args, words = append(args, v), append(words, w)
	}
	at := st.off(c.Pos())
	env := map[string]value{}
	for _, a := range c.Assigns {
		if a.Name != nil && a.Value != nil {
			env[a.Name.Value] = st.word(a.Value)
		}
	}
	// Wrappers: sudo -u x cmd, env A=b cmd, timeout 5 cmd.
	for len(args) > 1 && wrappers.Get()[cmdName(args[0])] {
		w := cmdName(args[0])
		args, words = args[1:], words[1:]
		for len(args) > 1 && args[0].known && (strings.HasPrefix(args[0].s, "-") || w == "env" && strings.Contains(args[0].s, "=") ||
			w == "timeout" && strings.Trim(args[0].s, "0123456789.smhd") == "") {
			if w == "env" && strings.Contains(args[0].s, "=") {
				k, v, _ := strings.Cut(args[0].s, "=")
				env[k] = lit(v)
			}
			args, words = args[1:], words[1:]
		}
	}
	if len(args) > 0 && args[0].known && st.depth < maxCallDepth {
		if f := st.function(args[0].s); f != nil && !f.wrapper && f.calls < maxInline {
			return st.inline(f, args[1:], stdin)
		}
	}
	return st.run(args, words, env, stdin, at)
}

// run walks a simple command given its arguments as values (the words they
// came from, when the shell parsed them, or nil), the variables set for it
// alone, and its input, and returns what it prints. The batch analysis
// hands its commands here too.
func (st *shellState) run(args []value, words []*syntax.Word, env map[string]value, stdin value, at int) value {
	if len(args) == 0 {
		return value{}
	}
	head := args[0]
	name := cmdName(head)
	if f, ok := st.files[fileKey(head)]; ok && fileKey(head) != "" && (strings.Contains(head.s, "/") || !head.known) && f.holds&tFetched != 0 {
		st.s.emit("download-exec", at, downloadSev(f), downloadExcerpt(f))
	} else if head.known && head.s != "" && !strings.Contains(head.s, "/") {
		if f := st.fetchedOnPath(head.s); f != nil {
			st.s.emit("download-exec", at, downloadSev(f), downloadExcerpt(f)) // saved into a bin folder, run by its name
		}
	}
	if checksumTool(cmdName(head), args[1:]) {
		st.verify(args[1:], stdin)
	}
	if !head.known {
		switch {
		case head.t&tDecoded != 0:
			st.s.emit("eval-decode", at, SeverityError, "")
		case head.t&tFetched != 0:
			st.s.emit("remote-exec", at, SeverityWarning, "")
		}
		return value{t: tCmd}
	}
	if (head.t&tDecoded != 0 || head.t&tBuilt != 0 && head.t&tNamed == 0 && !spelledWord(st.text, name)) && sensitiveCmds.Get()[name] {
		st.s.emit("dynamic-exec", at, SeverityWarning, "command name built at run time: "+name)
	}
	rest := args[1:]
	if lang, opt, ok := interpreter(name); ok {
		st.s.escapeAll(rest...)
		st.s.escape(stdin)
		var spelled []string
		if holeLang(lang) && len(words) == len(args) {
			spelled = make([]string, len(rest))
			for i, w := range words[1:] {
				if !rest[i].known {
					spelled[i] = st.spell(w)
				}
			}
		}
		return st.interp(lang, opt, name, rest, spelled, stdin, at)
	}
	switch name {
	case "curl", "wget", "http", "https", "aria2c", "invoke-webrequest", "iwr", "irm", "invoke-restmethod", "fetch":
		st.ownCA = tlsEnv(env) || tlsEnv(st.vars)
		return st.fetch(name, rest, stdin, at)
	case "read":
		if st.answers == nil {
			st.answers = map[string]bool{}
		}
		st.answers[readAnswer(rest)] = true
	case "nc", "ncat", "netcat", "socat", "telnet":
		st.send(stdin, at)
		return value{t: tCmd}
	case "openssl":
		if len(rest) > 0 && rest[0].s == "s_client" {
			st.send(stdin, at)
		}
		if has(rest, "-d") || has(rest, "-base64") && has(rest, "-d") {
			return st.decoded(stdin, "base64")
		}
		return value{t: tCmd | stdin.t&(tSecret|tEnv)}
	case "dig", "nslookup", "host", "drill", "resolvectl", "resolve-dnsname":
		for _, a := range rest {
			if dnsCarries(a) && !strings.HasPrefix(a.s, "-") {
				st.s.emit("dns-exfil", at, SeverityError, "")
			}
		}
		return value{t: tCmd}
	case "base64", "base32", "basenc", "xxd", "uudecode", "gunzip", "zcat", "bunzip2", "unxz", "unzstd":
		in := stdin
		if f := firstFile(rest); f != nil {
			in = st.fileContent(*f)
		}
		switch {
		case name == "base64" && (has(rest, "-d") || has(rest, "--decode") || has(rest, "-D") || hasFlag(rest, 'd')):
			return st.decoded(in, "base64")
		case name == "base32" && (has(rest, "-d") || has(rest, "--decode")):
			return st.decoded(in, "base32")
		case name == "xxd" && (has(rest, "-r") || hasFlag(rest, 'r')):
			return st.decoded(in, "hex")
		case name == "basenc" && (has(rest, "-d") || has(rest, "--decode")):
			return value{t: in.t | tDecoded}
		case name == "gunzip" || name == "zcat" || name == "bunzip2" || name == "unxz" || name == "unzstd" || name == "uudecode":
			return value{t: in.t | tDecoded}
		}
		return value{t: in.t&(tSecret|tEnv|tFetched) | tCmd}
	case "gzip", "xz", "bzip2", "zstd":
		if has(rest, "-d") || has(rest, "--decompress") {
			return value{t: stdin.t | tDecoded}
		}
		return value{t: stdin.t&(tSecret|tEnv|tFetched) | tCmd}
	case "rev":
		if stdin.known {
			v := lit(encoded.Reverse(strings.TrimSuffix(stdin.s, "\n")))
			v.t = stdin.t | tDecoded
			return v
		}
		return value{t: stdin.t | tDecoded}
	case "tr":
		if len(rest) >= 2 && isRot13(rest[len(rest)-2].s, rest[len(rest)-1].s) {
			if stdin.known {
				v := lit(encoded.Rot13(stdin.s))
				v.t = stdin.t | tDecoded
				return v
			}
			return value{t: stdin.t | tDecoded}
		}
		return value{t: stdin.t | tBuilt}
	case "cd", "pushd", "set-location":
		st.dir = value{}
		if n := len(rest); n > 0 && !strings.HasPrefix(rest[n-1].s, "-") {
			st.dir = rest[n-1]
		}
	case "pwd", "get-location":
		return value{t: tCmd | st.dir.t&tShipped}
	case "dirname", "realpath", "readlink":
		out := value{t: tCmd}
		for _, a := range rest {
			out.t |= a.t & tShipped // a folder of the skill's own
		}
		return out
	case "printf":
		return st.printf(rest)
	case "echo", "print":
		return st.echo(rest)
	case "cat", "head", "tail", "less", "more", "strings", "sqlite3", "sort", "uniq", "awk", "sed", "grep", "cut", "jq", "yq", "od", "hexdump", "type", "get-content", "gc":
		return st.readFiles(name, rest, stdin, at)
	case "env", "printenv", "set", "export", "declare":
		if len(rest) == 0 || name == "export" && has(rest, "-p") || name == "declare" && has(rest, "-p") {
			return otherSecret(tEnv | tCmd)
		}
	case "wc", "test", "[", "true", "false", ":":
		return value{t: tCmd, id: at + 1} // a count, a yes or no
	case "whoami", "hostname", "id":
		return otherSecret(tCmd)
	case "uname":
		if platformOnly(rest) {
			return value{t: tCmd, id: at + 1} // what a download picks its file by
		}
		return otherSecret(tCmd) // the host's name or its kernel's build: who it is
	case "tar", "zip", "7z", "rar", "cpio":
		return st.archive(name, rest, at)
	case "cp", "mv", "install", "ln", "rsync", "scp", "copy-item", "move-item":
		st.copy(name, rest, at)
	case "tee", "set-content", "add-content", "out-file":
		for _, a := range rest {
			if !strings.HasPrefix(a.s, "-") {
				st.wrote(a, stdin, at)
			}
		}
		return stdin
	case "dd":
		var in value
		for _, a := range rest {
			if strings.HasPrefix(a.s, "if=") {
				in = st.fileContent(lit(a.s[3:]))
			}
			if strings.HasPrefix(a.s, "of=") && (isDisk(a.s[3:]) || a.t&tDevice != 0 || !a.known && a.s == "of=/dev/") {
				st.s.emit("disk-wipe", at, SeverityWarning, "")
			}
		}
		return in
	case "mkfs", "wipefs", "shred", "fdisk", "sfdisk", "parted":
		for _, a := range rest {
			if (isDisk(a.s) || a.t&tDevice != 0 || !a.known && a.s == "/dev/") && (name != "fdisk" && name != "parted" || !has(rest, "-l")) {
				st.s.emit("disk-wipe", at, SeverityWarning, "")
			}
		}
	case "eval", "invoke-expression", "iex":
		st.exec(joinArgs(rest), langShell, at, false)
	case "source", ".":
		if len(rest) > 0 {
			st.runFile(rest[0], langShell, at, true)
		}
	case "chmod":
		st.chmod(rest, at)
	case "rm", "remove-item", "rmdir":
		if len(words) >= len(rest) {
			words = words[len(words)-len(rest):]
		}
		st.rm(rest, words, at)
	case "find":
		st.find(rest, at)
	case "git":
		if v := st.git(rest, at); v != (value{}) {
			return v
		}
	case "crontab":
		if v, ok := st.crontab(rest, env, stdin, at); ok {
			return v
		}
	case "launchctl":
		st.launchctl(rest, at)
	case "claude":
		st.claudeMCP(rest, at)
	case "lsblk", "findmnt", "blkid", "df", "diskutil", "mount", "losetup":
		if name == "losetup" && loopOfImage(rest) {
			return value{t: tCmd, id: at + 1} // the loop device of an image file: formatting it writes the file
		}
		return value{t: tCmd | tDevice, id: at + 1}
	case "gh", "aws", "gcloud", "az", "op", "vault", "heroku", "doppler", "kubectl", "npm", "pass", "bw", "lpass":
		if printsSecret(name, rest) {
			if item := storeItem(name, rest); item != "" {
				return st.s.credential(item)
			}
			v := otherSecret(tCmd)
			v.id, v.issuer = at+1, issuerOf(name, rest)
			return v
		}
	default:
		if strings.HasPrefix(name, "mkfs.") {
			for _, a := range rest {
				if isDisk(a.s) || a.t&tDevice != 0 {
					st.s.emit("disk-wipe", at, SeverityWarning, "")
				}
			}
		}
	}
	// A secret on a command line, in the input or the environment of a
	// command the analysis does not follow reaches whatever it does.
	st.s.escapeAll(rest...)
	st.s.escape(stdin)
	for _, v := range env {
		st.s.escape(v)
	}
	return value{t: tCmd, id: at + 1}
}

// rm walks a deletion: of /, of home, of "$V/"* when V may be empty.
func (st *shellState) rm(rest []value, words []*syntax.Word, at int) {
	recursive := false
	for _, a := range rest {
		if a.known && strings.HasPrefix(a.s, "-") && (a.s == "--recursive" || !strings.HasPrefix(a.s, "--") && strings.ContainsAny(a.s, "rR") || strings.EqualFold(a.s, "-recurse")) {
			recursive = true
		}
	}
	if !recursive {
		return
	}
	for i, a := range rest {
		if a.known && strings.HasPrefix(a.s, "-") {
			continue
		}
		switch classifyPath(a) {
		case pathRoot:
			st.s.emit("destructive-rm", at, SeverityError, "")
			continue
		case pathHome:
			st.s.emit("destructive-rm", at, SeverityWarning, "")
			continue
		}
		if i < len(words) && words[i] != nil && st.mayBeEmptyPrefix(words[i]) {
			st.s.emit("destructive-rm", at, SeverityWarning, "deletes from / when the variable is empty (no ${V:?} guard)")
		}
	}
}

// mayBeEmptyPrefix reports whether a word starts with a variable that may
// be empty, followed by a slash: "$V/"*, "$V"/*, ${V}/x.
func (st *shellState) mayBeEmptyPrefix(w *syntax.Word) bool {
	var parts []syntax.WordPart
	for _, p := range w.Parts {
		if q, ok := p.(*syntax.DblQuoted); ok {
			parts = append(parts, q.Parts...)
		} else {
			parts = append(parts, p)
		}
	}
	if len(parts) < 2 {
		return false
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Exp != nil && (pe.Exp.Op == syntax.ErrorUnset || pe.Exp.Op == syntax.ErrorUnsetOrNull ||
		pe.Exp.Op == syntax.DefaultUnset || pe.Exp.Op == syntax.DefaultUnsetOrNull) {
		return false
	}
	v := st.param(pe)
	if v.t&tGuarded != 0 || v.known && v.s != "" || v.t&tHome != 0 {
		return false
	}
	rest := make([]value, 0, len(parts)-1)
	for _, p := range parts[1:] {
		rest = append(rest, st.part(p, false))
	}
	tail := cat(rest...)
	switch tail.s {
	case "/", "/*", "/.*", "/**":
		return tail.known
	}
	return false
}

// inline walks a function's body for a call with args and stdin, and
// returns what it prints.
func (st *shellState) inline(f *shellFunc, args []value, stdin value) value {
	pos, base, asked := st.pos, st.base, st.s.asked
	st.pos, st.base = append([]value{}, args...), f.base
	st.depth++
	f.calls++
	out := st.stmt(f.body, stdin)
	st.depth--
	st.pos, st.base = pos, base
	st.s.asked = asked // a return on no ends the function, not the script
	return out
}
