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
	base  int // the region's offset in the text
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
