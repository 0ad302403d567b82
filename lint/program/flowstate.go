package program

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// flowState is the analysis of one region.
type flowState struct {
	s      *scan
	base   int
	lang   string
	toks   []token
	pos    int
	vars   map[string]ev
	depth  int
	region string
	// The function being read (the last def or function seen) and what
	// the analysis learned of each local function: whether code from its
	// parameters runs, and what it returns.
	cur   string
	funcs map[string]*funcInfo
	// elem is what the receiver of the call whose arguments are being
	// read gives a callback each time (xs.forEach(x => …)), when it is
	// a secret's: the callback's parameters hold it.
	elem *value
	// bodies are the callbacks' block bodies met in the statement being
	// read, and the local functions it gave a secret, read after it
	// (runBodies).
	bodies []bodyRun
	chunk  int // which chunk of the region toks holds
	// answers are the names an input() of a yes-or-no prompt set, and
	// askedUntil the region's offset up to which the script runs only on
	// the user's yes (flowconsent.go).
	answers    map[string]bool
	askedUntil int
	confirms   []string // the region's PowerShell functions that ask the user yes or no, nil until looked for
}

// A bodyRun is a body to read after the statement that met it: a
// callback's, or a local function's with its parameters bound to what a
// call gave it.
type bodyRun struct {
	span [2]int        // its tokens
	bind map[string]ev // its parameters, for a function's
	fn   string        // the function's name, for a function's
}

// funcInfo is what a local function does with what it is given.
type funcInfo struct {
	execs    bool // a parameter's value reaches an exec sink
	resolves bool // a parameter's value is a host name it looks up (callResolve)
	saves    bool // it wrote a download to a file: what it returns is taken for where (tSaved)
	// runsParam says a parameter is what a command it starts runs: the
	// program, or an interpreter's script (runTarget).
	runsParam bool
	returns   taint // what its return statements give
	// retStore is the store of the secrets its return statements give
	// (joinStores of them all), once secretRet says one did.
	retStore  uint8
	secretRet bool
	// Its parameters and body (token indexes in chunk), when the analysis
	// found where the body ends: a call that gives it a secret has it read
	// again with the secret bound. running says it is being read so.
	params  []string
	body    [2]int
	chunk   int
	running bool
	reruns  int // how many times it was read so: bounded by maxReruns
}

// An ev is what an expression evaluates to: a value, and when it names
// something callable or a module, its qualified name (os.path.join); a file
// handle remembers its path and mode.
type ev struct {
	v     value
	name  string
	file  *value
	mode  string
	elems []value // a list's elements, when known
	// rows are, for a list or a mapping whose elements (or values) are
	// lists or tuples themselves, their elements: what a loop unpacks
	// (for parts in [(".aws", "credentials")], for k, parts in d.items()).
	rows  [][]value
	pairs bool   // rows are a mapping's values, which items() walks beside their keys
	recv  *ev    // for a method: the value it is called on (name is ".method")
	from  string // the name the value was read from, when it is a name's: a method that fills it (append, configparser's read) changes that name
	// emptyMap says the expression is an empty mapping literal ({}): a
	// default that says what get() gets is one (secretMethod).
	emptyMap bool
	callback bool // a function literal given as an argument: v is what its body gives
}

// peek returns the token at pos+k, or an EOL.
func (f *flowState) peek(k int) token {
	if f.pos+k < len(f.toks) {
		return f.toks[f.pos+k]
	}
	return token{kind: tokEOL, off: len(f.region)}
}

func (f *flowState) is(k int, s string) bool {
	t := f.peek(k)
	return (t.kind == tokPunct || t.kind == tokWord) && t.s == s
}

// at returns the offset in the scan's text of the token at pos+k.
func (f *flowState) at(k int) int { return f.base + f.peek(k).off }

// endOfStatement reports whether the token ends a statement.
func endOfStatement(t token) bool {
	return t.kind == tokEOL || t.kind == tokPunct && (t.s == ";" || t.s == "}" || t.s == "{")
}

// moduleName strips node: and normalises a JavaScript module name.
func moduleName(m string) string {
	m = strings.TrimPrefix(m, "node:")
	return strings.ReplaceAll(m, "/", ".")
}

// joinPath joins two path values with a slash.
func joinPath(a, b value) value {
	// A part the analysis has nothing of (an argument it did not read) is
	// a part it cannot see: never a path that starts at /.
	if a == (value{}) {
		a = unknown()
	}
	if b == (value{}) {
		b = unknown()
	}
	if a.known && b.known && strings.HasPrefix(b.s, "/") && !strings.HasPrefix(b.s, "/.") {
		return b
	}
	sep := lit("/")
	if a.known && strings.HasSuffix(a.s, "/") || b.known && strings.HasPrefix(b.s, "/") {
		return cat(a, b)
	}
	return cat(a, sep, b)
}

// joinList joins a list's elements with sep.
func joinList(l ev, sep value) ev {
	if len(l.elems) == 0 {
		return ev{v: value{t: l.v.t | tBuilt}}
	}
	parts := make([]value, 0, 2*len(l.elems))
	for i, e := range l.elems {
		if i > 0 && sep.s != "" {
			parts = append(parts, sep)
		}
		parts = append(parts, e)
	}
	v := cat(parts...)
	v.t |= tBuilt
	return ev{v: v}
}

// joinName qualifies a name.
func joinName(a, b string) string {
	if a == "" {
		return ""
	}
	return a + "." + b
}

// listOf makes a list value.
func listOf(elems []value) ev {
	var out value
	for _, e := range elems {
		out = withSecret(out, e)
	}
	return ev{v: value{t: out.t &^ tHome, store: out.store}, elems: elems}
}

// valueOf returns the value an expression stands for when used as data:
// the whole environment for os.environ, process.env, ENV.
func (f *flowState) valueOf(e ev) value {
	switch e.name {
	case "os.environ", "process.env", "ENV", "$ENV", "%ENV", "$_ENV", "$_SERVER", "env":
		return otherSecret(tEnv)
	case "import.meta.url", "import.meta.dirname", "import.meta.filename":
		return shippedValue(e.name) // an ES module's own file or folder, in the skill
	}
	if e.v == (value{}) && len(e.elems) > 0 {
		return listOf(e.elems).v
	}
	return e.v
}

// homeValue is the user's home folder.
func homeValue() value {
	v := lit(homeMark)
	v.t |= tHome
	v.path = pathHome
	return v
}

// envVar returns the value of an environment variable by name.
func (f *flowState) envVar(name string) value {
	switch strings.ToUpper(name) {
	case "HOME", "USERPROFILE":
		return homeValue()
	case "XDG_CONFIG_HOME":
		v := lit(homeMark + "/.config")
		v.t |= tHome
		return v
	}
	if skillDirVar(strings.ToUpper(name)) {
		return shippedValue(strings.ToUpper(name))
	}
	if v, ok := windowsFolder(strings.ToUpper(name)); ok {
		return v
	}
	if credentialEnv(name) {
		return f.s.credential(name)
	}
	return unknown()
}

// isCmdlet reports a PowerShell command name: Verb-Noun, or an alias.
func isCmdlet(w string) bool {
	i := strings.IndexByte(w, '-')
	return i > 0 && i < len(w)-1 && isLetter(w[0]) && !strings.HasPrefix(w, "$") || psAliases.Get()[strings.ToLower(w)]
}

// psSwitches are PowerShell parameters that take no value.
var psSwitches = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"raw": true, "recurse": true, "force": true, "noprofile": true, "noninteractive": true, "nop": true,
		"usebasicparsing": true, "useb": true, "passthru": true, "wait": true, "nonewline": true, "append": true, "whatif": true, "confirm": true,
		"asplaintext": true, "asbytestream": true, "encodedcommand": false, "noexit": true, "hidden": true, "verbose": true}
}}

// psAliases are PowerShell commands without a hyphen.
var psAliases = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"iex": true, "iwr": true, "irm": true, "curl": true, "wget": true, "gc": true, "sc": true, "ni": true,
		"rm": true, "del": true, "start": true, "saps": true, "cat": true, "echo": true, "cp": true, "copy": true}
}}

// skipLine moves past the end of the statement.
func (f *flowState) skipLine() {
	defer f.skipped(f.pos)
	for f.pos < len(f.toks) && !endOfStatement(f.peek(0)) {
		f.pos++
	}
}

// bindLoop gives a loop's names what it walks: each element of a list in
// turn (the one that matters most to a sink), a secret's names or parts
// (iterSecret), or what the analysis cannot see.
func (f *flowState) bindLoop(names []string, v ev, keys bool) {
	if len(v.rows) > 0 && len(names) > 0 && f.bindRows(names, v) {
		return
	}
	if sv := f.valueOf(v); sv.t&tSecret != 0 && len(v.elems) == 0 {
		for i, it := range iterSecret(sv, keys, len(names)) {
			f.vars[names[i]] = ev{v: it}
		}
		return
	}
	it := taintOf(^taint(0), v.v)
	it.t |= tUnknown
	if len(v.elems) == 1 {
		it = v.elems[0]
	} else if e, ok := weightiest(v.elems); ok {
		it = e // the name holds each in turn: the one that matters most to a sink
	}
	for _, n := range names {
		f.vars[n] = ev{v: it}
	}
}

// bindRows binds a loop's names to what it unpacks from rows of tuples
// (for parts in [(".aws", "credentials")], for base, name in …, for
// label, parts in hints.items()): the row that matters most
// (weightiestRow), as elements or one part to a name; false when the
// names do not fit the rows.
func (f *flowState) bindRows(names []string, v ev) bool {
	row := weightiestRow(v.rows)
	switch {
	case v.pairs && len(names) == 2:
		f.vars[names[0]] = ev{v: unknown()}
		f.vars[names[1]] = ev{v: listOf(row).v, elems: row}
	case !v.pairs && len(names) == 1:
		f.vars[names[0]] = ev{v: listOf(row).v, elems: row}
	case !v.pairs && len(names) == len(row):
		for i, n := range names {
			f.vars[n] = ev{v: row[i]}
		}
	default:
		return false
	}
	return true
}

// weightiestRow returns the row a loop's name holds for the analysis: the
// first whose parts, joined (under the home folder, unless the row starts
// there: [HOME, ".aws"]), name a secret file or folder (the
// one that matters most to a sink, as weightiest picks among values), or
// the first row.
func weightiestRow(rows [][]value) []value {
	for _, r := range rows {
		parts := r
		if len(r) == 0 || r[0].t&tHome == 0 && !strings.HasPrefix(r[0].s, homeMark) {
			parts = append([]value{homeValue()}, r...) // a row of parts under the home folder
		}
		if len(parts) == 0 {
			continue
		}
		p := parts[0]
		for _, q := range parts[1:] {
			p = joinPath(p, q)
		}
		if classifyPath(p) == pathSecret {
			return r
		}
	}
	return rows[0]
}

// skipped records, for the tokens from from to pos that the parser moved
// past without following them (a comprehension, a callback, what it does
// not read), that a secret a name among them holds may reach anything.
func (f *flowState) skipped(from int) {
	for i := max(from, 0); i < f.pos && i < len(f.toks); i++ {
		if t := f.toks[i]; t.kind == tokWord {
			if e, ok := f.vars[t.s]; ok {
				f.s.escape(f.valueOf(e))
			}
		}
	}
}
