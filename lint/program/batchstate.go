package program

import (
	"fmt"
	"strings"
)

// This file is what the batch analysis (batch.go) keeps: the characters of
// an expanded line and where each came from, the variables a region set,
// and what Windows's own variables hold; and how a reference's modifier
// (%X:~1,3%, %X:a=b%) changes a value.

// maxBatchLine bounds a logical line (physical lines joined by ^) and what
// its expansion may make of it: past it the line is reported, not read.
const maxBatchLine = 4 * maxCodeLine

// maxBatchDepth bounds the commands nested in a line (for /f's command
// inside a for's command, cmd /c's string is a layer of its own).
const maxBatchDepth = 8

// A bchar is a character of an expanded line and where it came from.
type bchar struct {
	c    byte
	kind uint8 // bFile, bVar, bValue, bRef
	v    int32 // bVar, bValue: the index in batchState.vals; bRef: in refs
	off  int32 // where in the region it is (for a variable's, its %)
}

const (
	bFile  uint8 = iota // the file's own text
	bVar                // a character of a variable's known value
	bValue              // a value not known whole, standing as one character
	bRef                // a for variable or a !delayed! one, read when its command runs
	bEsc                // the file's own text, escaped by ^: never an operator
)

// bval is a variable's value as a line used it.
type bval struct {
	v    value
	name string // the variable's name, upper case ("" for an argument)
}

// batchState is the analysis of one region of batch.
type batchState struct {
	sh    *shellState // what was written to files, and the table of commands
	vars  map[string]value
	vals  []bval   // the values the current line's characters come from
	refs  []string // the names bRef characters stand for
	depth int      // open parentheses of blocks
	// tested are the variables an if tests (if "%X%"=="", if defined X):
	// an empty one is handled.
	tested map[string]bool
	nest   int // lines nested (for /f's command)
	hops   int // commands nested in one (call's, start's)
	// grow is what variables may still add to the region's lines, all
	// together: past it a variable's text is a value not seen, reported
	// once (a line of %A%%A%… would otherwise cost its length times the
	// longest value).
	grow     int
	overgrow bool
}

// charge counts a variable's text (the parts of it known) against what
// variables may add to the region (grow), and returns it, or past the bound
// a value not seen.
func (b *batchState) charge(v value, off int32) value {
	if len(v.s) > b.grow {
		if !b.overgrow {
			b.overgrow = true
			b.sh.s.opaque(int(off), fmt.Sprintf("not analysed whole: its variables expand past %d KiB", (2*len(b.sh.text)+maxValue)>>10))
		}
		return value{t: v.t | tUnknown}
	}
	b.grow -= len(v.s)
	return v
}

// lookup returns what a variable holds: set by the file, one Windows sets,
// or one the analysis cannot see.
func (b *batchState) lookup(name string) value {
	if v, ok := b.vars[name]; ok {
		return v
	}
	if v, ok := windowsFolder(name); ok {
		return v
	}
	switch name {
	case "CD":
		return lit(".")
	case "CLAUDE_SKILL_DIR", "CLAUDE_PLUGIN_ROOT":
		return shippedValue(name)
	}
	if credentialEnv(name) {
		return b.sh.s.credential(name)
	}
	return unknown()
}

// modify applies a reference's modifier to a value: a substring (~1,3) or a
// replacement (a=b), worked out when the value is known.
func (b *batchState) modify(v value, op string) value {
	if op == "" {
		return v
	}
	if !v.known {
		return value{t: v.t | tBuilt}
	}
	out := value{t: v.t | tBuilt, known: true}
	if sub, ok := strings.CutPrefix(op, "~"); ok {
		from, n, ok := substring(sub, len(v.s))
		if !ok {
			return value{t: v.t | tBuilt}
		}
		out.s = v.s[from : from+n]
	} else {
		old, repl, ok := strings.Cut(op, "=")
		if !ok || old == "" {
			return value{t: v.t | tBuilt}
		}
		star := strings.HasPrefix(old, "*")
		old = strings.TrimPrefix(old, "*")
		i := indexFold(v.s, old)
		switch {
		case old == "":
			out.s = v.s
		case star && i >= 0:
			out.s = repl + v.s[i+len(old):] // *a=b: everything up to the first a
		case star:
			out.s = v.s
		default:
			out.s = replaceFold(v.s, old, repl)
		}
	}
	out.path = classifyPath(out)
	return out
}

// substring reads ~start[,length] (negative counts from the end) against a
// string of n bytes, as cmd.exe clamps them.
func substring(spec string, n int) (from, length int, ok bool) {
	a, l, has := strings.Cut(spec, ",")
	from, ok = atoi(a)
	if !ok {
		return 0, 0, false
	}
	if from < 0 {
		from = max(0, n+from)
	}
	from = min(from, n)
	length = n - from
	if has {
		k, ok := atoi(l)
		if !ok {
			return 0, 0, false
		}
		if k < 0 {
			k = max(0, n-from+k)
		}
		length = min(k, n-from)
	}
	return from, length, true
}

// atoi reads a small decimal integer with an optional sign.
func atoi(s string) (int, bool) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n := 0
	for k := 0; k < len(s); k++ {
		if s[k] < '0' || s[k] > '9' {
			return 0, false
		}
		n = n*10 + int(s[k]-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// indexFold is strings.Index ignoring ASCII case, as cmd.exe compares.
func indexFold(s, sub string) int {
	return strings.Index(strings.ToLower(s), strings.ToLower(sub))
}

// replaceFold replaces every old in s with repl, ignoring ASCII case.
func replaceFold(s, old, repl string) string {
	var sb strings.Builder
	low, lold := strings.ToLower(s), strings.ToLower(old)
	for {
		i := strings.Index(low, lold)
		if i < 0 || len(low) != len(s) {
			sb.WriteString(s)
			return sb.String()
		}
		sb.WriteString(s[:i])
		sb.WriteString(repl)
		s, low = s[i+len(old):], low[i+len(old):]
	}
}
