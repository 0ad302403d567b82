package search

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// specWords is the specification of tokenizer.words, rune by rune (the
// tokenizer takes ASCII a byte at a time through a table).
func specWords(text string) []string {
	var out []string
	var word, joined []byte
	parts := 0
	isWord := func(rest string) bool {
		r, _ := utf8.DecodeRuneInString(rest)
		return rest != "" && isWordRune(r)
	}
	flushWord := func() {
		if len(word) > 0 {
			out = append(out, string(word))
			joined = append(joined, word...)
			parts++
			word = word[:0]
		}
	}
	flushCompound := func() {
		if parts >= 2 {
			out = append(out, "+"+string(joined))
		}
		joined, parts = joined[:0], 0
	}
	for i, r := range text {
		_, size := utf8.DecodeRuneInString(text[i:])
		next := text[i+size:]
		switch {
		case isWordRune(r):
			word = appendFolded(word, r)
		case r >= 0x300 && unicode.Is(unicode.Mn, r):
		case isApostrophe(r) && len(word) > 0 && isWord(next):
		case isJoiner(r) && len(word) > 0 && isWord(next):
			flushWord()
		default:
			flushWord()
			flushCompound()
		}
	}
	flushWord()
	flushCompound()
	return out
}

// FuzzWords checks the tokenizer's words against specWords.
func FuzzWords(f *testing.F) {
	for _, s := range []string{"", "PDF-Processing", "don't DON’T", "e\u0301te\u0301", "a-\u0301b", "x-ÿ y'é", "\xff-a",
		"a-\xff", "CI/CD node.js", "Straße", "a\u2019b", "日本語-テキスト", "a--b", "a-'b", "ǅ", "ﬁ", "Ａｂｃ", "a\u0301-b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var tk tokenizer
		var got []string
		tk.words(text, func(w []byte, compound bool) {
			if compound {
				got = append(got, "+"+string(w))
			} else {
				got = append(got, string(w))
			}
		})
		if want := specWords(text); !slices.Equal(got, want) {
			t.Errorf("words(%q) = %q, want %q", text, got, want)
		}
	})
}

// FuzzTermMemo checks termMemo against a map over the words of a text,
// each stored with the order of its first occurrence.
func FuzzTermMemo(f *testing.F) {
	f.Add("a b a ab ba b")
	f.Add(strings.Repeat("x ", 3000))
	var many strings.Builder
	for i := range 3000 { // past several growths
		fmt.Fprintf(&many, "w%d ", i%2100)
	}
	f.Add(many.String())
	f.Fuzz(func(t *testing.T, text string) {
		var m termMemo
		want := map[string]int32{}
		for w := range strings.FieldsSeq(text) {
			got, ok := m.lookup([]byte(w))
			if v, in := want[w]; ok != in || ok && got != v {
				t.Fatalf("lookup(%q) = %d, %v, want %d, %v", w, got, ok, v, in)
			}
			if !ok {
				want[w] = int32(len(want))
				m.store([]byte(w), want[w])
			}
		}
		if m.used != len(want) {
			t.Errorf("%d words in the memo, want %d", m.used, len(want))
		}
	})
}

// FuzzIndexTerms checks that indexing (which analyses each distinct word
// once per chunk of documents) gives every document the terms tk.terms
// gives its fields, and two documents of the same text the same
// postings.
func FuzzIndexTerms(f *testing.F) {
	f.Add("pdf-processing", "Extract text from PDF files", "# Usage\nRun the script. Running scripts, don't.")
	f.Add("a", "the the a-b", "```\n# not a heading\n```\n# Heading café")
	f.Fuzz(func(t *testing.T, name, desc, body string) {
		d := [4]string{name, desc, "tag-one \n tag", body}
		ix := newTestIndex(d, [4]string{"other", "unrelated words", "", ""}, d)
		want := map[string]bool{}
		var tk tokenizer
		add := func(s string) { tk.terms(s, func(t []byte) { want[string(t)] = true }) }
		for _, s := range d[:fieldBody] {
			add(s)
		}
		splitHeadings(body, func(text string, _ bool) { add(text) })
		got := map[string]bool{}
		for term, id := range ix.terms {
			var w0, w2 []float32
			for _, p := range ix.post[id] {
				switch p.doc {
				case 0:
					w0 = append(w0, p.w)
				case 2:
					w2 = append(w2, p.w)
				}
			}
			if len(w0) > 0 {
				got[term] = true
			}
			if !slices.Equal(w0, w2) {
				t.Errorf("term %q: weights %v and %v for the same text", term, w0, w2)
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("indexed terms %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	})
}

// TestASCIIWordTable wants the literal table of ASCII word bytes to be
// what isWordRune and appendFolded say of each byte.
func TestASCIIWordTable(t *testing.T) {
	for c := range 256 {
		var want byte
		if c < utf8.RuneSelf && isWordRune(rune(c)) {
			want = appendFolded(nil, rune(c))[0]
		}
		if asciiWord[c] != want {
			t.Errorf("asciiWord[%#x] = %q, want %q", c, asciiWord[c], want)
		}
	}
}
