package program

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// This file is how the shell analysis takes a region of shell: parsed with
// mvdan.cc/sh, a console transcript's prompts blanked first, walked
// statement by statement (shell.go), resumed on the next line after a
// parse error, and the functions no call reached walked at the end.

// shellRegion analyses one region of shell.
func (s *scan) shellRegion(r region) {
	text := r.text
	if at, deep := tooNested(text); deep {
		s.opaque(r.off+at, fmt.Sprintf("not analysed: nested deeper than %d brackets", maxNesting))
		return
	}
	if s.roles&Markdown != 0 {
		text = stripPrompts(text)
	}
	st := &shellState{s: s, base: r.off, start: r.off, text: text, vars: map[string]value{}, files: map[string]*shFile{}, remotes: map[string]string{}}
	for _, kv := range r.preset {
		k, v, _ := strings.Cut(kv, "=")
		st.vars[k] = lit(v)
	}
	s.asked = false // a yes in one region is not one in the next
	defer st.uncalled()
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	for from := 0; from < len(text); {
		rest := text[from:]
		var perr error
		// The loop never breaks: the parser's iterator may yield again after
		// its body returns false (a panic), so what follows an error is
		// skipped instead.
		for stmt, err := range p.StmtsSeq(strings.NewReader(rest)) {
			if err != nil && perr == nil {
				perr = err
			}
			if perr != nil || stmt == nil {
				continue
			}
			st.base = r.off + from
			s.escape(st.stmt(stmt, value{})) // what the script prints is the output: an agent's transcript
		}
		if perr == nil {
			return
		}
		// Resume after the line the error is on.
		at := len(rest)
		var pe syntax.ParseError
		if errors.As(perr, &pe) {
			at = int(pe.Pos.Offset())
		}
		nl := strings.IndexByte(rest[min(at, len(rest)):], '\n')
		if nl < 0 {
			return
		}
		from += at + nl + 1
	}
}

// parsers keeps shell parsers for reuse: a Markdown file may hold many
// fenced blocks, and a parser is large next to a block.
var parsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false))
}}

// stripPrompts blanks a "$ " or "> " prompt at the start of lines of a
// console transcript, keeping offsets.
func stripPrompts(text string) string {
	if !strings.Contains(text, "$ ") {
		return text
	}
	b := []byte(text)
	for i := 0; i < len(b); {
		j := i
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		if j+1 < len(b) && b[j] == '$' && b[j+1] == ' ' {
			b[j] = ' '
		}
		nl := strings.IndexByte(text[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	return string(b)
}

// uncalled walks, with their arguments unknown, the functions no call
// reached, so what they would do is graded still.
func (st *shellState) uncalled() {
	for _, f := range st.funcs {
		if f.calls == 0 {
			f.calls = maxInline // a call from inside itself walks as unknown
			base := st.base
			st.base = f.base
			st.s.escape(st.stmt(f.body, value{})) // printed where it is called
			st.base = base
		}
	}
}
