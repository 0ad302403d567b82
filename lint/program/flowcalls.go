package program

import (
	"strings"
	"unicode/utf16"

	"github.com/skills-mcp/skills-mcp/lint/encoded"
)

// This file is what the flow analysis (flow.go) knows of functions and
// methods in Python, JavaScript, PowerShell, Ruby, Perl and PHP: sources
// (downloads, decoders, secret files, the home folder, the environment)
// and sinks (execution, network sends, writes, deletions), by qualified
// name after imports and aliases.

// call evaluates a call.
func (f *flowState) call(e ev, args []ev, kw map[string]ev, at int) ev {
	if e.recv != nil && strings.HasPrefix(e.name, ".") {
		return f.method(*e.recv, e.name[1:], args, kw, at)
	}
	name := canonical(e.name)
	if strings.HasPrefix(name, procPrefix) && (strings.HasSuffix(name, ".stdin.write") || strings.HasSuffix(name, ".stdin.end")) {
		lang := strings.SplitN(strings.TrimPrefix(name, procPrefix), ".", 2)[0]
		if len(args) > 0 {
			f.execSink(f.valueOf(args[0]), lang, at, true)
		}
		return ev{}
	}
	if v, ok := f.secretCall(name, args, kw, at); ok {
		return v
	}
	if v, ok := f.rubySend(name, args, kw, at); ok {
		return v
	}
	kind, ok := calls.Get()[name]
	if i := strings.LastIndexByte(name, '.'); !ok && i > 0 && valueMethods.Get()[strings.ToLower(name[i+1:])] {
		return f.method(ev{name: e.name[:strings.LastIndexByte(e.name, '.')]}, name[i+1:], args, kw, at)
	}
	if fi := f.funcs[name]; fi != nil && !strings.Contains(name, ".") {
		// A local function: code it runs from its parameters runs what it
		// is given here; its result is what it returns. A secret given to
		// it is followed through its body, read again with the secret
		// bound (runBodies), or where the analysis cannot: a sink.
		f.bindToFunc(name, fi, args, kw)
		if fi.execs {
			var in value
			for _, a := range args {
				in.t |= f.valueOf(a).t
			}
			in.t &= tFetched | tDecoded
			f.execSink(in, f.lang, at, false)
		}
		if fi.resolves {
			for _, a := range args {
				if dnsCarries(f.valueOf(a)) {
					f.s.emit("dns-exfil", at, SeverityError, "") // a name that carries data, given to a function that looks it up
					break
				}
			}
		}
		if fi.runsParam && savedArg(f, args) {
			f.s.emit("download-exec", at, SeverityWarning, "") // a saved download's path given to a function that runs it
		}
		// what it returns, never known here: a helper that returns an
		// environment credential returns one, one that builds a string a
		// built string
		return ev{v: value{t: fi.returns | tUnknown, store: fi.retStore}}
	}
	if !ok {
		// A function the analysis does not know: its result carries its
		// arguments' taint, and a secret given to it (print, a logger, a
		// client of a service) reaches whatever it does: a sink.
		f.escapeArgs(args, kw)
		vs := make([]value, len(args))
		var n value
		for i, a := range args {
			vs[i] = f.valueOf(a)
			n = number(n, vs[i])
		}
		if numeric(f.lang, name) {
			return ev{v: n} // Math.ceil(resp.height), int(x), len(s): a number
		}
		return ev{v: taintOf(^(tHome | tBuilt), vs...)}
	}
	arg := func(i int) value {
		if i < len(args) {
			return f.valueOf(args[i])
		}
		return value{}
	}
	switch kind {
	case callNone, callExecLang, callExecShell:
		// A process's command line and input, code run, or a call the
		// table knows does nothing the analysis follows: a secret given to
		// it reaches what it does.
		f.escapeArgs(args, kw)
	}
	switch kind {
	case callExecLang:
		lang := f.lang
		if name == "compile" {
			return ev{v: arg(0)}
		}
		if name == "Function" {
			// new Function(a, b, body): the last argument is the body.
			f.execSink(arg(len(args)-1), langJS, at, false)
			return ev{v: value{t: tCmd}}
		}
		if len(args) > 0 && arg(0) == (value{}) && args[0].name == "" {
			// The result of a call the analysis does not know, run as
			// code (exec(bytes(b ^ k for b in …).decode())): unresolved. A
			// bare name the text never sets is left alone: documentation
			// quotes eval(user_input).
			f.s.emit("dynamic-exec", at, SeverityWarning, "runs a value the analysis cannot resolve")
		}
		f.execSink(arg(0), lang, at, false)
		return ev{v: value{t: tCmd}}
	case callExecShell:
		cmd := arg(0)
		if len(args) > 0 && len(args[0].elems) > 0 {
			cmd = joinArgs(args[0].elems)
		} else if len(args) > 1 && (strings.HasPrefix(name, "child_process.") || name == "spawn" || name == "Bun.spawn") {
			rest := []value{cmd}
			rest = append(rest, args[1].elems...)
			cmd = joinArgs(rest)
		} else if len(args) > 1 && f.lang == langRuby || name == "os.execv" || name == "os.execl" || name == "os.execlp" || name == "os.execvp" {
			vs := make([]value, 0, len(args))
			for i := range args {
				vs = append(vs, arg(i))
			}
			if name != "system" {
				vs = vs[1:]
			}
			cmd = joinArgs(vs)
		}
		if f.runsFetched(cmd) || len(args) > 0 && f.runsSaved(args[0], cmd) {
			f.s.emit("download-exec", at, SeverityWarning, "")
		}
		// An interpreter started with no code reads it from its input:
		// what the program writes to its stdin runs.
		if first := strings.Fields(cmd.s); cmd.known && len(first) > 0 && len(first) <= 2 && (len(first) == 1 || first[1] == "-s" || first[1] == "-") {
			if lang, _, ok := interpreter(cmdName(lit(first[0]))); ok {
				return ev{name: procPrefix + lang}
			}
		}
		f.execSink(cmd, langShell, at, false)
		if out, ok := commandOutput(cmd); ok {
			return ev{v: out}
		}
		return ev{v: value{t: tCmd}}
	case callNamespace:
		// globals(), locals(), vars(module): a mapping of the names in
		// scope or in the module, which an index by name reaches.
		if name == "vars" && len(args) > 0 && args[0].name != "" {
			return ev{name: args[0].name}
		}
		if name == "vars" && len(args) > 0 {
			return ev{v: f.valueOf(args[0])}
		}
		return ev{name: "globals"}
	case callIdentity:
		return ev{v: otherSecret(tCmd)} // who the user is and on which machine, as the shell's whoami and hostname
	case callNumber:
		// A number: whatever it came from, an item of a file the program
		// read (json.load(f)["totals"]) is no longer an input the
		// analysis cannot see, though a secret's or a download's stays.
		v := value{t: taintOf(^(tHome | tBuilt | tUnknown), f.argValues(args)...).t}
		if v.t&tSecret == 0 {
			v.shape = shapeScalar
		}
		return ev{v: v}
	case callResolve:
		// A name looked up sends its labels to the resolvers on the way.
		if h := arg(0); dnsCarries(h) {
			f.s.emit("dns-exfil", at, SeverityError, "")
		} else if fi := f.funcs[f.cur]; fi != nil && h.t&tParam != 0 {
			fi.resolves = true
		}
		for i := range args {
			f.sendCheck(arg(i), at)
		}
		return ev{v: value{t: tCmd}}
	case callFetch, callSend:
		for i := range args {
			f.sendCheck(arg(i), at)
		}
		for _, v := range kw {
			f.sendCheck(f.valueOf(v), at)
		}
		f.credentialTo(args, kw, at)
		if name == "urllib.request.urlretrieve" || name == "urlretrieve" || name == "getstore" {
			if len(args) > 1 {
				f.wrote(arg(1), value{t: tFetched}, at)
				if n := args[1].from; n != "" {
					if v, ok := f.vars[n]; ok {
						v.v.t |= tSaved // the name now holds the path of a download
						f.vars[n] = v
					}
				}
			}
		}
		if kind == callSend {
			return ev{v: value{t: tCmd}}
		}
		return ev{v: value{t: tFetched | tCmd}}
	case callDecode:
		return ev{v: f.decodeCall(name, args)}
	case callChr:
		var parts []value
		for i := range args {
			if v := arg(i); v.known {
				if s, ok := encoded.CharCodes(v.s); ok {
					parts = append(parts, lit(s))
					continue
				}
			}
			parts = append(parts, unknown())
		}
		for _, a := range args {
			for _, el := range a.elems {
				if s, ok := encoded.CharCodes(el.s); ok && el.known {
					parts = append(parts, lit(s))
				}
			}
		}
		v := cat(parts...)
		v.t |= tBuilt
		return ev{v: v}
	case callOpen:
		p := arg(0)
		mode := "r"
		if m := arg(1); m.known {
			mode = m.s
		}
		if m, ok := kw["mode"]; ok && m.v.known {
			mode = m.v.s
		}
		if f.lang == langPerl && len(args) >= 3 {
			mode, p = arg(1).s, arg(2)
		}
		if f.lang == langPerl && len(args) == 2 && p.known && strings.HasPrefix(strings.TrimSpace(arg(1).s), "|") {
			f.execSink(lit(strings.TrimPrefix(strings.TrimSpace(arg(1).s), "|")), langShell, at, false)
		}
		if strings.HasPrefix(mode, "|") || mode == "-|" || mode == "|-" {
			f.execSink(p, langShell, at, false)
		}
		if strings.ContainsAny(mode, "wa>+") {
			f.wrote(p, value{}, at)
		}
		return ev{file: &p, mode: mode}
	case callRead:
		p := arg(0)
		if name == "file_get_contents" && p.known && strings.Contains(p.s, "://") {
			return ev{v: value{t: tFetched}}
		}
		return ev{v: f.readPath(p, at)}
	case callWrite:
		if len(args) >= 2 {
			f.wrote(arg(0), arg(1), at)
		} else if v, ok := kw["Path"]; ok {
			f.wrote(f.valueOf(v), value{}, at)
		}
	case callCopy:
		if len(args) >= 2 {
			src := f.readPath(arg(0), at)
			f.wrote(arg(1), src, at)
		}
	case callRemove:
		f.removeCheck(arg(0), at)
	case callGlob:
		// The names a pattern matches: as the analysis sees them, the
		// pattern itself (~/.ssh/id_* names keys).
		v := arg(0)
		v.path = classifyPath(v)
		return ev{v: v, elems: []value{v}}
	case callMap:
		if len(args) > 1 && args[0].name == "chr" {
			var out []value
			for _, el := range args[1].elems {
				if s, ok := encoded.CharCodes(el.s); ok && el.known {
					c := lit(s)
					c.t |= tBuilt
					out = append(out, c)
				}
			}
			l := listOf(out)
			l.v.t |= tBuilt
			return l
		}
		return ev{v: arg(1)}
	case callHome:
		if name == "site.getusersitepackages" {
			// The user's site-packages: under home, the version aside.
			v := lit(homeMark + "/.local/lib/python3/site-packages")
			v.t |= tHome
			return ev{v: v, name: "pathlib.Path"}
		}
		return ev{v: homeValue()}
	case callJoin:
		if len(args) == 0 {
			return ev{}
		}
		v := arg(0)
		for i := 1; i < len(args); i++ {
			v = joinPath(v, arg(i))
		}
		v.path = classifyPath(v)
		return ev{v: v}
	case callExpand:
		v := arg(0)
		if v.known && strings.HasPrefix(v.s, "~") {
			h := lit(homeMark + v.s[1:])
			h.t = v.t | tHome
			h.path = classifyPath(h)
			return ev{v: h}
		}
		if v.known && strings.HasPrefix(v.s, "$HOME") {
			h := lit(homeMark + v.s[5:])
			h.t = v.t | tHome
			return ev{v: h}
		}
		return ev{v: v}
	case callPath:
		v := arg(0)
		for i := 1; i < len(args); i++ {
			v = joinPath(v, arg(i))
		}
		return ev{v: v, name: "pathlib.Path"}
	case callEnvGet:
		if a := arg(0); a.known {
			return ev{v: f.envVar(a.s)}
		}
		return ev{v: unknown()}
	case callImport:
		a := arg(0)
		if a.t&(tBuilt|tDecoded) != 0 && !confinedImport(a) && !(a.known && a.t&tDecoded == 0 && localFile(a.s)) &&
			!(a.t&(tShipped|tDecoded) == tShipped && !strings.Contains(a.s, "..")) { // a module of the skill's own folder, read as its own file
			f.s.emit("dynamic-exec", at, SeverityWarning, "imports a module by a name built at run time: "+a.s)
		}
		if a.known {
			return ev{name: moduleName(a.s)}
		}
		return ev{v: unknown()}
	case callReverse:
		// Perl's reverse: of one string, the string backwards (scalar
		// reverse 'hs | …'), of a list, the list.
		if len(args) == 1 && len(args[0].elems) == 0 {
			if a := arg(0); a.known {
				v := lit(encoded.Reverse(a.s))
				v.t = a.t | tDecoded | tBuilt
				return ev{v: v}
			}
			return ev{v: value{t: arg(0).t}}
		}
		l := ev{}
		if len(args) == 1 {
			l = args[0]
		} else {
			vs := make([]value, len(args))
			for i := range args {
				vs[i] = arg(i)
			}
			l = listOf(vs)
		}
		return f.method(l, "reverse", nil, nil, at)
	case callGetattr:
		obj := args
		n := arg(1)
		if n.t&(tBuilt|tDecoded) != 0 {
			sev := SeverityWarning
			if n.s != "" && !prefixOfRisky(n.s) {
				sev = SeverityNote // getattr(dc.molnet, f"load_{name}"), f"cmd_{argv[0]}": a start no risky name has
			}
			if n.s != "" && f.ownObject(at) {
				sev = SeverityNote // getattr(self, f"check_{name}"): one of the class's own methods, read in this file
			}
			f.s.emit("dynamic-exec", at, sev, "reaches a function by a name built at run time: "+n.s)
		}
		if len(obj) > 0 && obj[0].name != "" && n.known {
			return ev{name: obj[0].name + "." + n.s}
		}
		return ev{v: unknown()}
	}
	return ev{}
}

// numeric reports a function of the language's own whose result is a
// number whatever it is given: JavaScript's Math functions, parseInt,
// parseFloat, Number; Python's int, float, len, abs, round (its min and max
// may return a string).
func numeric(lang, name string) bool {
	switch lang {
	case langJS:
		return strings.HasPrefix(name, "Math.") || name == "parseInt" || name == "parseFloat" || name == "Number" ||
			name == "Number.parseInt" || name == "Number.parseFloat"
	case langPython:
		return name == "int" || name == "float" || name == "len" || name == "abs" || name == "round" || name == "math.ceil" || name == "math.floor"
	}
	return false
}

// ownObject reports whether the getattr call at the text's offset at
// looks a name up on the object whose method it is in: getattr(self, …),
// getattr(cls, …), whose methods the file itself defines.
func (f *flowState) ownObject(at int) bool {
	if at -= f.base; at < 0 || at >= len(f.region) {
		return false
	}
	rest := f.region[at:min(len(f.region), at+64)]
	i := strings.IndexByte(rest, '(')
	if i < 0 {
		return false
	}
	first, _, ok := strings.Cut(rest[i+1:], ",")
	first = strings.TrimSpace(first)
	return ok && (first == "self" || first == "cls")
}

// confinedImport reports a module name built at run time that stays inside
// one package or folder: a known prefix naming it whole ("exporters.",
// "./plugins/") and then only what the analysis cannot see, nothing
// decoded. Such an import picks one of a package's own modules (a plugin
// by format), which is not a way to reach a module the text hides.
func confinedImport(a value) bool {
	if a.known || a.t&(tKnownHead|tDecoded) != tKnownHead {
		return false
	}
	p := a.s
	if rel, ok := strings.CutPrefix(p, "./"); ok {
		if i := strings.LastIndexByte(rel, '/'); i >= 0 && isExtension(rel[i+1:]) {
			rel = rel[:i+1] // the extension the name ends with
		}
		return strings.HasSuffix(rel, "/") && !strings.Contains(rel, "..") && len(rel) > 1
	}
	if !strings.HasSuffix(p, ".") {
		return false
	}
	for _, part := range strings.Split(strings.TrimSuffix(p, "."), ".") {
		for i := range len(part) {
			if c := part[i]; !isLetter(c) && c != '_' && (i == 0 || c < '0' || c > '9') {
				return false
			}
		}
		if part == "" {
			return false
		}
	}
	return true
}

// localFile reports a module name spelled whole that is a file of the
// skill's own beside the code ("./" + "package.json" folded to
// ./package.json): it reads that file, which the analyser reads too, and
// names no module of the system's.
func localFile(name string) bool {
	rel, ok := strings.CutPrefix(name, "./")
	return ok && rel != "" && !strings.Contains(rel, "..") && !strings.ContainsAny(rel, "\\:")
}

// argValues returns the values of a call's arguments.
func (f *flowState) argValues(args []ev) []value {
	vs := make([]value, len(args))
	for i, a := range args {
		vs[i] = f.valueOf(a)
	}
	return vs
}

// rubySend evaluates Ruby's Kernel.send(:name, args…) (also public_send,
// __send__, on Kernel, Object or a module): the call of the method its
// first argument names, and a name built at run time is dynamic-exec, as
// getattr's is, when the whole name is built or decoded.
func (f *flowState) rubySend(name string, args []ev, kw map[string]ev, at int) (ev, bool) {
	if f.lang != langRuby || len(args) == 0 {
		return ev{}, false
	}
	recv, m := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		recv, m = name[:i], name[i+1:]
	}
	if m != "send" && m != "public_send" && m != "__send__" {
		return ev{}, false
	}
	n := f.valueOf(args[0])
	if n.t&tDecoded != 0 || n.known && n.t&tBuilt != 0 {
		// A name the text hides: public_send("to_#{fmt}") picks one of
		// an object's to_ methods, which is dispatch, not hiding.
		f.s.emit("dynamic-exec", at, SeverityWarning, "calls a method by a name built at run time: "+n.s)
	}
	if !n.known {
		return ev{v: unknown()}, true
	}
	target := strings.TrimPrefix(n.s, ":")
	if recv != "" && recv != "Kernel" && recv != "Object" && recv != "self" {
		target = recv + "." + target
	}
	return f.call(ev{name: target}, args[1:], kw, at), true
}

// method evaluates recv.name(args).
func (f *flowState) method(recv ev, name string, args []ev, kw map[string]ev, at int) ev {
	arg := func(i int) value {
		if i < len(args) {
			return f.valueOf(args[i])
		}
		return value{}
	}
	rv := f.valueOf(recv)
	lower := strings.ToLower(name)
	if v, ok := f.secretMethodCall(recv, rv, name, args, kw, at); ok {
		return v
	}
	if (lower == "items" || lower == "values") && len(recv.rows) > 0 && len(args) == 0 {
		return ev{v: rv, rows: recv.rows, pairs: lower == "items"} // the tuples a loop unpacks
	}
	switch lower {
	case "read", "read_text", "read_bytes", "readlines", "readline", "readall", "readtoend":
		if recv.file != nil {
			return ev{v: f.readPath(*recv.file, at)}
		}
		if recv.name == "pathlib.Path" || rv.path != pathNone {
			return ev{v: f.readPath(rv, at)}
		}
		return ev{v: value{t: rv.t &^ tHome}}
	case "write", "write_text", "write_bytes", "writelines", "puts", "print", "dump":
		if lower == "write" && rv.t&(tFetched|tCmd) == tFetched|tCmd && f.lang == langJS {
			for i := range args {
				f.sendCheck(arg(i), at) // https.request(…).write(body)
			}
			return ev{}
		}
		if recv.file != nil {
			f.wrote(*recv.file, arg(0), at)
		} else if recv.name == "pathlib.Path" || rv.path != pathNone || rv.t&tHome != 0 {
			f.wrote(rv, arg(0), at)
		} else {
			f.escapeArgs(args, kw) // a stream's: the output, a socket
		}
		return ev{}
	case "open":
		if recv.name == "pathlib.Path" || rv.path != pathNone {
			mode := "r"
			if m := arg(0); m.known {
				mode = m.s
			}
			if strings.ContainsAny(mode, "wa") {
				f.wrote(rv, value{}, at)
			}
			return ev{file: &rv, mode: mode}
		}
	case "joinpath", "join", "resolve", "expanduser", "absolute":
		if lower == "join" && rv.known && recv.name != "pathlib.Path" && rv.path == pathNone && (len(args) == 0 || len(args[0].elems) > 0 || !args[0].v.known) {
			if len(args) > 0 {
				return joinList(args[0], rv)
			}
		}
		if lower == "join" && len(args) > 0 && len(recv.elems) > 0 {
			return joinList(recv, arg(0))
		}
		if lower == "join" && len(args) == 0 && len(recv.elems) > 0 && f.lang == langRuby {
			return joinList(recv, lit("")) // Ruby's join without a separator joins with nothing
		}
		if lower == "expanduser" && rv.known && strings.HasPrefix(rv.s, "~") {
			h := lit(homeMark + rv.s[1:])
			h.t |= tHome
			return ev{v: h, name: "pathlib.Path"}
		}
		v := rv
		for i := range args {
			v = joinPath(v, arg(i))
		}
		return ev{v: v, name: "pathlib.Path"}
	case "home":
		return ev{v: homeValue(), name: "pathlib.Path"}
	case "decode", "tostring", "getstring", "decode64", "unpack1", "unpack":
		enc := strings.ToLower(arg(0).s)
		if lower == "getstring" {
			v := arg(0)
			if strings.Contains(strings.ToLower(recv.name), "unicode") && v.known && len(v.s)%2 == 0 {
				u := make([]uint16, len(v.s)/2)
				for k := range u {
					u[k] = uint16(v.s[2*k]) | uint16(v.s[2*k+1])<<8
				}
				d := lit(string(utf16.Decode(u)))
				d.t = v.t
				return ev{v: d}
			}
			return ev{v: v}
		}
		return ev{v: decodeAs(rv, enc, lower)}
	case "encode", "strip", "lstrip", "rstrip", "lower", "upper", "trim", "text", "json", "to_s", "to_str", "to_sym", "intern", "content", "body", "data", "getvalue", "result", "then", "decode_contents", "chomp", "trimend", "trimstart":
		v := rv
		if lower == "strip" || lower == "trim" || lower == "chomp" {
			if v.known {
				v.s = strings.TrimSpace(v.s)
			}
		}
		return ev{v: v}
	case "replace", "format", "substitute", "gsub", "sub":
		vs := []value{rv}
		for i := range args {
			vs = append(vs, arg(i))
		}
		for _, v := range kw {
			vs = append(vs, f.valueOf(v))
		}
		v := taintOf(^taint(0), vs...)
		v.t |= tBuilt
		return ev{v: v}
	case "split":
		if rv.known && len(args) > 0 && arg(0).known && arg(0).s == "" {
			var elems []value
			for _, r := range rv.s {
				elems = append(elems, lit(string(r)))
			}
			return ev{v: value{t: rv.t}, elems: elems}
		}
		return ev{v: value{t: rv.t}}
	case "reverse":
		if len(recv.elems) > 0 {
			r := make([]value, len(recv.elems))
			for i, e := range recv.elems {
				r[len(r)-1-i] = e
			}
			out := listOf(r)
			out.v.t |= tDecoded
			return out
		}
		if rv.known {
			v := lit(encoded.Reverse(rv.s))
			v.t = rv.t | tDecoded
			return ev{v: v}
		}
	case "downloadstring", "downloaddata", "getstringasync", "openread":
		f.sendCheck(arg(0), at)
		return ev{v: value{t: tFetched | tCmd}}
	case "downloadfile":
		if len(args) > 1 {
			f.wrote(arg(1), value{t: tFetched}, at)
		}
		return ev{}
	case "end":
		if rv.t&(tFetched|tCmd) == tFetched|tCmd && f.lang == langJS {
			for i := range args {
				f.sendCheck(arg(i), at) // https.request(…).end(body): the request's body
			}
			return ev{}
		}
	case "uploadstring", "uploadfile", "uploaddata", "uploadvalues", "send", "sendall", "sendto", "post", "put", "request", "sendmail", "send_message", "query":
		if lower == "send" && !(strings.Contains(strings.ToLower(recv.name), "sock") || rv.t&tCmd != 0) && f.lang != langPython {
			for i := range args {
				f.sendCheck(arg(i), at)
			}
			return ev{}
		}
		for i := range args {
			f.sendCheck(arg(i), at)
		}
		for _, v := range kw {
			f.sendCheck(f.valueOf(v), at)
		}
		f.credentialTo(args, kw, at)
		return ev{v: value{t: tFetched | tCmd}}
	case "get":
		if strings.Contains(recv.name, "UserAgent") || strings.Contains(recv.name, "Tiny") || strings.Contains(recv.name, "session") || strings.Contains(recv.name, "Session") || strings.Contains(recv.name, "client") {
			f.sendCheck(arg(0), at)
			return ev{v: value{t: tFetched | tCmd}}
		}
		if recv.name == "os.environ" {
			return ev{v: f.envVar(arg(0).s)}
		}
		return ev{v: value{t: rv.t&^tHome | tUnknown}} // an item not followed: unknown, never nothing
	case "invoke", "invokescript", "invokereturnasis":
		f.execSink(rv, langPS, at, false)
		return ev{v: value{t: tCmd}}
	case "create":
		if recv.name == "[scriptblock]" {
			return ev{v: arg(0), name: ""}
		}
	case "exec", "execsync", "spawn", "spawnsync", "execfile", "execfilesync", "system", "popen", "run", "check_output", "call":
		if strings.Contains(recv.name, "child_process") || strings.Contains(recv.name, "subprocess") || recv.name == "os" || recv.name == "Kernel" || recv.name == "Open3" || recv.name == "cp" {
			f.escapeArgs(args, kw)
			f.execSink(arg(0), langShell, at, false)
			return ev{v: value{t: tCmd}}
		}
	}
	// Anything else keeps the receiver's and the arguments' taint; a
	// secret given to a method the analysis does not know (a logger's, a
	// stream's write, a service client's) reaches a sink.
	if !pureMethods.Get()[lower] {
		f.escapeArgs(args, kw)
	}
	vs := []value{rv}
	for i := range args {
		vs = append(vs, arg(i))
	}
	return ev{v: taintOf(^(tHome | tBuilt), vs...)}
}

// decodeAs decodes a value with a codec name (Python codecs, Buffer
// encodings), now when its text is known.
func decodeAs(v value, enc, method string) value {
	out := value{t: v.t}
	switch {
	case enc == "rot13" || enc == "rot_13" || enc == "rot-13":
		out.t |= tDecoded
		if v.known {
			out.s, out.known = encoded.Rot13(v.s), true
		}
	case enc == "hex" || enc == "base64" || enc == "base32" || method == "decode64" || method == "unpack1" && enc == "m" || method == "unpack" && enc == "m":
		out.t |= tDecoded
		if v.known {
			var b []byte
			var ok bool
			switch {
			case enc == "hex":
				b, ok = encoded.DecodeHex(v.s)
			case enc == "base32":
				b, ok = encoded.DecodeBase32(v.s)
			default:
				b, ok = encoded.DecodeBase64(strings.Join(strings.Fields(v.s), ""))
			}
			if ok {
				out.s, out.known = string(b), true
			}
		}
	default:
		out.s, out.known = v.s, v.known
	}
	return out
}

// decodeCall evaluates a decoder function.
func (f *flowState) decodeCall(name string, args []ev) value {
	var v value
	if len(args) > 0 {
		v = f.valueOf(args[0])
	}
	enc := ""
	if len(args) > 1 {
		enc = strings.ToLower(f.valueOf(args[1]).s)
	}
	out := value{t: v.t | tDecoded}
	if !v.known {
		return out
	}
	var b []byte
	ok := false
	t := strings.Join(strings.Fields(v.s), "")
	switch {
	case strings.Contains(name, "64") || name == "atob" || name == "base64_decode" || name == "binascii.a2b_base64" || name == "base64.decodebytes" || name == "[convert].frombase64string":
		b, ok = encoded.DecodeBase64(t)
	case strings.Contains(name, "32"):
		b, ok = encoded.DecodeBase32(t)
	case strings.Contains(name, "16") || strings.Contains(name, "hex") || name == "binascii.unhexlify" || name == "binascii.a2b_hex":
		b, ok = encoded.DecodeHex(t)
	case name == "codecs.decode" || name == "Buffer.from":
		if enc == "" {
			return v
		}
		return decodeAs(v, enc, "decode")
	case name == "str_rot13":
		return value{s: encoded.Rot13(v.s), known: true, t: out.t}
	case name == "strrev":
		return value{s: encoded.Reverse(v.s), known: true, t: out.t}
	case name == "pack":
		// pack("H*", "6375…"): the format first, then the data.
		if v.s == "H*" || v.s == "h*" {
			if len(args) > 1 {
				d := f.valueOf(args[1])
				if d.known {
					b, ok = encoded.DecodeHex(d.s)
				}
			}
		} else if strings.HasPrefix(v.s, "C") || strings.HasPrefix(v.s, "c") || strings.HasPrefix(v.s, "U") {
			var parts []value
			for _, a := range args[1:] {
				av := f.valueOf(a)
				if s, ok := encoded.CharCodes(av.s); ok && av.known {
					parts = append(parts, lit(s))
				}
			}
			c := cat(parts...)
			c.t |= tDecoded
			return c
		}
	case name == "unescape":
		return value{s: encoded.Unescape(v.s), known: true, t: out.t}
	}
	if ok {
		out.s, out.known = string(b), true
	}
	return out
}
