package program

import (
	"strings"
	"testing"
)

// TestManyCallbacks proves a test file of many callbacks in one describe
// (each it's body read once, after its statement) is analysed whole: no
// bound of the analysis is reached.
func TestManyCallbacks(t *testing.T) {
	var b strings.Builder
	b.WriteString("describe('parser', () => {\n")
	for range 500 {
		b.WriteString("  it('parses', () => {\n    expect(parse('a')).toEqual(['a']);\n  });\n")
	}
	b.WriteString("});\n")
	in := Input{File: "parse.test.js", Kind: Script, Text: b.String()}
	if f, ok := opaqueOf(in); ok {
		t.Errorf("unanalysed-code %q at %d", f.Excerpt, f.Off)
	}
}
