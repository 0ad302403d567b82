package lint

import "strings"

// This file finds where a sentence and a clause start and end, for the
// injection rules (inject.go) and the reading of their polarity
// (polarity.go).

// maxSentence bounds how far apart two terms of one sentence may be.
const maxSentence = 400

// sentenceEnds are what ends a sentence, for forbidden.
var sentenceEnds = []string{". ", ".\n", "! ", "? ", ".** ", ".**\n", ".* ", "._ ", ".` ", "。", "！", "？", "\n\n"}

// lastBoundary returns where the last sentence of t starts, after its last
// full stop, question or exclamation mark or blank line, or at the last
// list item or heading; -1 for none.
func lastBoundary(t string) int {
	k := -1
	for _, b := range sentenceEnds {
		if i := strings.LastIndex(t, b); i >= 0 && i+len(b) > k {
			k = i + len(b)
		}
	}
	for _, b := range itemStarts {
		if i := strings.LastIndex(t, b); i >= 0 && i+1 > k {
			k = i + 1 // a list item or a heading starts after its line break, its marker kept
		}
	}
	return k
}

// itemStarts begin a line that starts a sentence of its own whatever the
// line before ends with: a list item, a heading.
var itemStarts = []string{"\n- ", "\n* ", "\n+ ", "\n#"}

// clauseEnds end the clause an imperative negation governs: a comma or
// semicolon, a colon, a dash, or a coordinated second instruction.
var clauseEnds = []string{",", ";", ":", "—", "(", ")", "，", "；", "：", " and ", " then ", " y ", " e ", " und ", " et ", " и ", "然后", "并且", "、"}

// clauseStart returns where the clause holding byte i of t starts, within
// its sentence.
func clauseStart(t string, i int) int {
	from := max(0, i-maxSentence)
	before := t[from:i]
	k := 0
	if b := lastBoundary(before); b >= 0 {
		k = b
	}
	for _, e := range clauseEnds {
		if j := strings.LastIndex(before, e); j >= 0 && j+len(e) > k {
			k = j + len(e)
		}
	}
	return from + k
}
