package program

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shellState is the analysis of one region of shell.
type shellState struct {
	s     *scan
	base  int // the offset in the file of the text being parsed (the region's, or where parsing resumed in it)
	start int // the region's offset in the file: text starts there
	text  string
	vars  map[string]value
	files map[string]*shFile // what the region wrote to files, by path as written
	// folded is files by path in lower case, for a region of batch (nil
	// for shell): Windows's names do not tell case apart.
	folded map[string]*shFile
	// what the region did that a later command completes
	staged  bool              // secrets copied into or added to a git work tree
	remotes map[string]string // git remotes added: name → URL
	steps   int               // statements walked: bounded by the text's size
	// ownCA says the fetch being walked has a CA or a configuration file
	// named by the environment (tlsEnv): its certificate check is not the
	// system's.
	ownCA bool
	// dir is the folder the last cd went to: pwd prints it, so the
	// script-folder idiom $(cd "$(dirname "$0")" && pwd) keeps the skill's
	// folder. A subshell's cd stays in it.
	dir value
	// funcs are the functions the region defined, in order: each is walked
	// where it is called, with its arguments ($1, "$@") bound, so a wrapper
	// (api() { curl -H "$auth" "$@"; }) is graded by what a call gives it;
	// one never called is walked once at the end with them unknown.
	funcs []*shellFunc
	// cronLists are the ids of the outputs of crontab -l, the user's own
	// crontab: grep -v keeps one, so that a pipeline that only leaves lines
	// out of it is told from one that adds to it.
	cronLists []int
	// sockets are the file descriptors exec opened on /dev/tcp or
	// /dev/udp (exec 3<>/dev/tcp/h/80, exec {s}<>…: "3", "s"): what is
	// written to one (>&3, >&"$s") is sent over the network.
	sockets map[string]bool
	// stdinFile is the file the statement being walked reads its input
	// from (< FILE), or none: an interpreter told to read its program
	// there runs that file.
	stdinFile value
	// answers are the variables a read stored the user's answer in: a
	// test of one for a yes is the user's consent (shellconsent.go).
	answers map[string]bool
	// pos are the arguments of the function being walked, nil outside one.
	pos   []value
	depth int // functions being walked inside each other
}

// A shellFunc is a function a region defined.
type shellFunc struct {
	name  string
	body  *syntax.Stmt
	base  int // the region's offset in the text where it was parsed
	calls int // the calls walked, bounded by maxInline
	// wrapper says the body runs its arguments as a command (runsArgs):
	// it is not walked at its calls.
	wrapper bool
	asks    bool // the body asks the user and returns whether they said yes (asksYes)
}

// Bounds of walking functions where they are called: per function, and
// nested.
const (
	maxInline    = 8
	maxCallDepth = 4
)

// function returns the function named name the region defined last, nil
// for none.
func (st *shellState) function(name string) *shellFunc {
	for i := len(st.funcs) - 1; i >= 0; i-- {
		if st.funcs[i].name == name {
			return st.funcs[i]
		}
	}
	return nil
}

// runsArgs reports a function body that runs its arguments as a command
// ("$@", $1 at a command's head): a dry-run or retry wrapper, whose calls
// are commands of their own.
func runsArgs(body *syntax.Stmt) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			p := soleParam(c.Args[0])
			found = p == "@" || p == "*" || len(p) == 1 && '1' <= p[0] && p[0] <= '9'
		}
		return !found
	})
	return found
}

// allArgs reports a word that is "$@" or $@ (or $*): it expands to the
// arguments, each a word.
func allArgs(w *syntax.Word) bool {
	p := soleParam(w)
	return p == "@" || p == "*"
}

// soleParam returns the name of the parameter a word is, whole and plain
// ($1, "$@", ${x}; no operator, index or slice), or "".
func soleParam(w *syntax.Word) string {
	if len(w.Parts) != 1 {
		return ""
	}
	p := w.Parts[0]
	if q, ok := p.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
		p = q.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Length || pe.Excl || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Index != nil {
		return ""
	}
	return pe.Param.Value
}

// shFile is what the region put in a file.
type shFile struct {
	holds taint
	// text is what was written, the writes joined up to maxValue bytes;
	// unseen says a part of it was not known whole, or past the bound (a
	// task graded by what it runs reads it: body).
	text   []byte
	unseen bool
	exec   bool // made executable
	off    int  // where it was written
	// src is the URL a download came from, when known whole; verified
	// says a checksum tool read the file since (sha256sum -c, gpg --verify),
	// pinned that the text spells out a hash for that check to compare.
	src              string
	verified, pinned bool
	// installer says the file holds one download, whole, of a project's
	// own install script (value.installer), and nothing else.
	installer bool
	// own names the file (fileKey) whose lines, some left out, the file
	// starts with (grep -v "$mark" "$rc" > "$tmp"): what the user's file
	// already held, which text does not count; moved back over that same
	// file, only what was added to it is new.
	own string
}

// off returns the offset in the scan's text of a position.
func (st *shellState) off(p syntax.Pos) int { return st.base + int(p.Offset()) }

// fileContent returns what reading the file at path v gives.
func (st *shellState) fileContent(v value) value {
	if f, ok := st.files[fileKey(v)]; ok && fileKey(v) != "" {
		return value{t: f.holds}
	}
	if v.path == pathSecret || classifyPath(v) == pathSecret {
		return value{t: tSecret}
	}
	if v.known && (v.s == "/proc/self/environ" || strings.HasPrefix(v.s, "/proc/") && strings.HasSuffix(v.s, "/environ")) {
		return otherSecret(tEnv)
	}
	return value{}
}

// wrote records that the region wrote out to the file at target, at off,
// and reports a write to a place that runs later or configures an agent.
func (st *shellState) wrote(target, out value, off int) {
	key := fileKey(target)
	if key == "" {
		if out.t&tFetched != 0 {
			st.s.fact(FactSaved, off, target) // a path the analysis sees only in part: another file may run it
		}
		return
	}
	f := st.files[key]
	if f == nil {
		f = &shFile{}
		st.files[key] = f
		if st.folded != nil {
			st.folded[strings.ToLower(key)] = f
		}
		f.installer = out.installer
	} else {
		f.installer = false // a second write: no longer the installer alone
	}
	f.holds |= out.t
	if out.t&tFetched != 0 {
		st.s.fact(FactSaved, off, target)
	}
	if !out.known || len(f.text)+len(out.s) > maxValue {
		f.unseen = true
	} else {
		f.text = append(f.text, out.s...)
	}
	f.off = off
	st.s.gradeWrite(target, out, off)
	// A script written out is code: a hook, a unit's command, a file
	// that starts with #!.
	if out.known && out.s != "" {
		if lang := langOf(target.s, out.s); lang != "" {
			st.s.layer(off, "writes "+path.Base(target.s), out.s, lang)
		}
	}
}

// body returns what the region wrote to the file: known when every write
// was, with the taint of them all.
func (f *shFile) body() value {
	return value{s: string(f.text), known: !f.unseen, t: f.holds}
}

// fileKey names the file a value stands for: its path, or for a path the
// analysis cannot know (mktemp's), the command that printed it.
func fileKey(v value) string {
	switch {
	case v.known:
		return v.s
	case v.id != 0 && v.s == "":
		return "\x00" + strconv.Itoa(v.id)
	}
	return ""
}

// positional returns a positional parameter of the function being walked
// ($1 … $9, $#, $@ and $* joined), and whether name is one.
func (st *shellState) positional(name string) (value, bool) {
	switch name {
	case "#":
		return lit(strconv.Itoa(len(st.pos))), true
	case "@", "*":
		var out value
		for i, a := range st.pos {
			if i > 0 {
				out = cat(out, lit(" "))
			}
			out = cat(out, a)
		}
		return out, true
	}
	if len(name) == 1 && '1' <= name[0] && name[0] <= '9' {
		if n := int(name[0] - '0'); n <= len(st.pos) {
			return st.pos[n-1], true
		}
		return lit(""), true
	}
	return value{}, false
}
