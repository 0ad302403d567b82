package program

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// This file is what the flow analysis (flowcalls.go) does with the content
// of a secret file (secretread.go) in calls: the functions and methods that
// parse it, take a part of it (secretfields.go) or give it on unchanged,
// and the calls through which it reaches a sink because the analysis does
// not know where they send what they are given.

// escapeArgs records that the secrets among a call's arguments reached a
// sink.
func (f *flowState) escapeArgs(args []ev, kw map[string]ev) {
	for _, a := range args {
		f.s.escape(f.valueOf(a))
		for _, e := range a.elems {
			f.s.escape(e)
		}
	}
	for _, a := range kw {
		f.s.escape(f.valueOf(a))
	}
}

// secretCall evaluates a function of secretFuncs: false for any other
// name. A parser given a file handle reads the file.
func (f *flowState) secretCall(name string, args []ev, kw map[string]ev, at int) (ev, bool) {
	if name == "netrc.netrc" {
		// Python's netrc module: the file given, or ~/.netrc, parsed
		p := lit(homeMark + "/.netrc")
		p.t |= tHome
		if len(args) > 0 {
			p = f.valueOf(args[0])
		}
		return ev{v: parsedFrom(f.readPath(p, at), shapeMap)}, true
	}
	kind := secretFuncs.Get()[name]
	if kind == fnNone {
		return ev{}, false
	}
	var v value
	if len(args) > 0 {
		v = f.valueOf(args[0])
		if args[0].file != nil && kind == fnParse {
			v = f.readPath(*args[0].file, at)
		}
		if kind == fnKeep || kind == fnStructure {
			vs := make([]value, 0, len(args))
			for _, a := range args {
				vs = append(vs, f.valueOf(a))
			}
			v = taintOf(^(tHome | tBuilt), vs...)
		}
	}
	if v.t&tSecret == 0 {
		if kind == fnParse || kind == fnKeep || kind == fnNames {
			return ev{v: taintOf(^(tHome | tBuilt), v)}, true
		}
		return ev{v: value{t: v.t &^ (tHome | tBuilt)}}, true
	}
	switch kind {
	case fnStructure:
		return ev{v: structure(v)}, true
	case fnKeys:
		return ev{v: structureOf(v)}, true
	case fnNames:
		if v.shape == shapeMap || v.shape == shapeINI {
			return ev{v: structure(v)}, true // a mapping's names
		}
		if v.shape == shapePairs {
			return ev{v: v}, true
		}
		return ev{v: secretPart(v, shapeTree)}, true
	case fnKeep:
		return ev{v: secretPart(v, shapeRaw)}, true
	case fnParse:
		return ev{v: parsedFrom(v, shapeMap)}, true // a store's top is a mapping
	case fnValues:
		return ev{v: secretPart(v, shapeTree)}, true
	case fnEntries:
		return ev{v: secretPart(v, shapePairs)}, true
	}
	return ev{}, false
}

// pureMethods are methods that give a value made from their receiver and
// arguments and send them nowhere: a secret given to one is still only in
// what it gives.
var pureMethods = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"format", "join", "replace", "get", "startswith", "endswith", "split", "rsplit", "strip", "encode",
		"decode", "index", "find", "count", "concat", "slice", "substring", "substr", "includes", "indexof", "has", "map", "filter",
		"sort", "sorted", "lower", "upper", "tostring", "tojson", "equals", "compare", "localecompare", "match", "test", "search",
		"padstart", "padend", "ljust", "rjust", "center", "zfill", "trim", "removeprefix", "removesuffix", "partition", "fromkeys",
		"keys", "values", "items", "entries", "then", "copy", "deepcopy", "add", "append", "extend", "insert", "push", "unshift",
		"update", "setdefault", "set", "put", "merge", "assign"} {
		m[n] = true
	}
	return m
}}

// fillMethods put what they are given into their receiver.
var fillMethods = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"append": true, "extend": true, "insert": true, "push": true, "unshift": true, "add": true, "update": true,
		"setdefault": true, "set": true, "put": true, "merge": true, "assign": true}
}}

// secretMethodCall evaluates recv.name(args) when a secret is in it: a
// method of a secret's tree or text that gives a part of it
// (secretMethod), configparser's read of a secret file into its receiver,
// a method that puts a secret into its receiver (the name then holds it).
// False for any other call, which method goes on with.
func (f *flowState) secretMethodCall(recv ev, rv value, name string, args []ev, kw map[string]ev, at int) (ev, bool) {
	lower := strings.ToLower(name)
	if (lower == "read" || lower == "read_file") && recv.file == nil && recv.name != "pathlib.Path" && rv.path == pathNone && len(args) > 0 && recv.from != "" {
		// configparser's read(path): the parser now holds the file
		p := f.valueOf(args[0])
		if p.path == pathSecret || classifyPath(p) == pathSecret {
			c := parsedFrom(f.readPath(p, at), shapeINI)
			if c.t&tSecret != 0 {
				old := f.vars[recv.from]
				old.v = c
				f.vars[recv.from] = old
				return ev{}, true
			}
		}
	}
	if fillMethods.Get()[lower] && recv.from != "" {
		vs := []value{rv}
		for _, a := range args {
			vs = append(vs, f.valueOf(a))
		}
		if in := taintOf(tSecret, vs[1:]...); in.t&tSecret != 0 {
			old := f.vars[recv.from]
			old.v = taintOf(^tHome, vs...)
			old.v.shape = shapeRaw // a container the program fills: raw, whatever it names its parts
			f.vars[recv.from] = old
			return ev{}, true
		}
	}
	if rv.t&tSecret == 0 {
		return ev{}, false
	}
	if len(args) > 0 && args[0].callback {
		switch lower {
		case "map", "flatmap":
			return ev{v: args[0].v}, true // what the callback gives for each
		case "foreach":
			return ev{}, true
		case "some", "every", "findindex":
			return ev{v: structure(rv)}, true
		}
	}
	vs := make([]value, len(args))
	for i, a := range args {
		vs[i] = f.valueOf(a)
	}
	mapDefault := len(args) > 1 && args[1].emptyMap
	if v, ok := secretMethod(rv, name, vs, mapDefault); ok {
		return ev{v: v}, true
	}
	return ev{}, false
}

// maxReruns bounds how many times one function's body is read again for
// the secrets calls give it: past it, such a call is a sink, and the work
// of a file stays linear in its size.
const maxReruns = 16

// bindToFunc has the body of local function name read again with the
// secrets a call gives it, or the places (placeArg), bound to its
// parameters, after the statement (runBodies): what it does with them is
// graded there (a helper save(path, data) given ~/.claude/settings.json
// writes the agent's configuration). For a secret, a function whose body
// the analysis did not find whole, one being read so already, or a call
// with keyword or more arguments than it names, is a sink.
func (f *flowState) bindToFunc(name string, fi *funcInfo, args []ev, kw map[string]ev) {
	secret, place := false, false
	note := func(a ev) {
		v := f.valueOf(a)
		secret, place = secret || v.t&tSecret != 0, place || placeArg(v)
	}
	for _, a := range args {
		note(a)
	}
	for _, a := range kw {
		note(a)
	}
	if !secret && !place {
		return
	}
	if fi.running || fi.body == [2]int{} || fi.chunk != f.chunk || len(kw) > 0 || len(args) > len(fi.params) || fi.reruns >= maxReruns {
		if secret {
			f.escapeArgs(args, kw) // a place alone is graded only where a body can be read with it
		}
		return
	}
	fi.reruns++
	bind := map[string]ev{}
	for i, a := range args {
		bind[fi.params[i]] = a
	}
	f.bodies = append(f.bodies, bodyRun{span: fi.body, bind: bind, fn: name})
}

// placeArg reports a value that is a path to a place a write or a
// deletion there is graded at: what runs later, an agent's configuration,
// the home folder, the root.
func placeArg(v value) bool {
	switch classifyPath(v) {
	case pathPersist, pathAgentConfig, pathHome, pathRoot:
		return true
	}
	return false
}
