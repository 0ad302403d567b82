package search

// Text analysis, the same for documents and queries (see the package
// comment): folding, words and compounds, stop words, stemming, and the
// keys under which names are matched.

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// nameAliases (built on first use) maps the nameKey of what people call a
// file format (the application that writes it) to the nameKey of the
// format's extension, under which skills for that format are often named:
// "make a PowerPoint" matches a skill named pptx. Only unambiguous names
// are listed: "word" alone is an English word, so it needs "document",
// "doc" or "file" after it.
var nameAliases = lazy.Value[map[string]string]{New: func() map[string]string {
	var tk tokenizer
	m := map[string]string{}
	for ext, apps := range map[string][]string{
		"pptx": {"powerpoint", "power point", "ppt"},
		"xlsx": {"excel", "xls"},
		"docx": {"word document", "word doc", "word file", "ms word", "microsoft word"},
	} {
		for _, a := range apps {
			m[tk.nameKey(a)] = ext
		}
	}
	return m
}}

// stops holds the stop words, dropped from documents and queries (built on
// first use): English function words
// (pronouns, determiners, auxiliaries, conjunctions and prepositions, after
// the usual Snowball list, and the longer conjunctions and prepositions
// it leaves out: whether, without, via, unless), and the words requests are wrapped in ("I need
// to …", "please use …").
var stops = lazy.Value[stopList]{New: func() stopList {
	m := map[string]bool{}
	for _, w := range strings.Fields(`i me my myself we our ours ourselves you your yours yourself yourselves
		he him his himself she her hers herself it its itself they them their theirs themselves
		someone somebody something anyone anybody anything everyone everybody everything
		what which who whom whose this that these those am is are was were be been being have has had having
		do does did doing would should could can will shall may might must an the and but if or because as
		until while of at by for with about against between into through during before after above below to
		from up down in out on off over under again further then once here there when where why how all any
		both each few more most other some such no nor not only own same so than too very just now also
		whether whereas whenever wherever whatever whichever whoever without within upon onto via per
		though although unless yet else ever etc
		please need needs want wants use used using`) {
		m[w] = true
	}
	n := 0
	for w := range m {
		n = max(n, len(w))
	}
	return stopList{m, n}
}}

// stopList is the set of stop words and the length of the longest.
type stopList struct {
	words  map[string]bool
	maxLen int
}

// foldTable (built on first use) maps lower-case Latin letters with diacritics (Latin-1
// Supplement and Latin Extended-A) and a few ligatures to plain ASCII.
var foldTable = lazy.Value[map[rune]string]{New: func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ĳ': "ij", 'þ': "th", 'ð': "d", 'ŋ': "n", 'ſ': "s"}
	for base, variants := range map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "d": "ďđ", "e": "èéêëēĕėęě", "g": "ĝğġģ", "h": "ĥħ",
		"i": "ìíîïĩīĭįı", "j": "ĵ", "k": "ķĸ", "l": "ĺļľŀł", "n": "ñńņňŉ", "o": "òóôõöøōŏő",
		"r": "ŕŗř", "s": "śŝşšș", "t": "ţťŧț", "u": "ùúûüũūŭůűų", "w": "ŵ", "y": "ýÿŷ", "z": "źżž",
	} {
		for _, r := range variants {
			m[r] = base
		}
	}
	return m
}}

// isJoiner reports whether r joins the words of a compound.
func isJoiner(r rune) bool { return r == '-' || r == '_' || r == '/' || r == '.' }

// isApostrophe reports whether r is an apostrophe, dropped inside words.
func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

// isWordRune reports whether r belongs to a word.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// appendFolded appends r lower-cased and without diacritics.
func appendFolded(b []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(b, byte(r))
	}
	r = unicode.ToLower(r)
	if s, ok := foldTable.Get()[r]; ok {
		return append(b, s...)
	}
	return utf8.AppendRune(b, r)
}

// tokenizer splits text into folded words and compounds and hands each
// index term to emit. Its buffers are reused from one call to the next.
type tokenizer struct {
	word, joined, stemmed []byte
}

// terms calls emit with each index term of text, in order. The slice passed
// to emit is only valid during the call.
func (tk *tokenizer) terms(text string, emit func(term []byte)) {
	tk.words(text, func(w []byte, compound bool) {
		if t, ok := tk.term(w, compound); ok {
			emit(t)
		}
	})
}

// term returns the index term of a word that words handed out, and false
// when the word is dropped (one letter, or a stop word that is not a
// compound). The slice is valid until the next call.
func (tk *tokenizer) term(w []byte, compound bool) ([]byte, bool) {
	if len(w) < 2 {
		return nil, false
	}
	if !compound {
		if st := stops.Get(); len(w) <= st.maxLen && st.words[string(w)] {
			return nil, false
		}
	}
	tk.stemmed = appendStem(tk.stemmed[:0], w)
	return tk.stemmed, true
}

// words calls f with each folded word of text, and after the last word of a
// compound of two or more with the compound run together (compound true).
func (tk *tokenizer) words(text string, f func(w []byte, compound bool)) {
	word, joined, parts := tk.word[:0], tk.joined[:0], 0
	flushWord := func() {
		if len(word) > 0 {
			f(word, false)
			joined = append(joined, word...)
			parts++
			word = word[:0]
		}
	}
	flushCompound := func() {
		if parts >= 2 {
			f(joined, true)
		}
		joined, parts = joined[:0], 0
	}
	for i := 0; i < len(text); {
		// ASCII, most of any text, a byte at a time through a table; the
		// rest rune by rune. Both take the same decisions.
		if l := asciiWord[text[i]]; l != 0 {
			word = append(word, l)
			i++
			continue
		}
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		i += size
		switch {
		case isWordRune(r):
			word = appendFolded(word, r)
		case r >= 0x300 && unicode.Is(unicode.Mn, r):
			// A combining mark of decomposed text: dropped, like precomposed accents.
		case isApostrophe(r) && len(word) > 0 && nextIsWord(text[i:]):
			// Inside a word: "don't" is one word.
		case isJoiner(r) && len(word) > 0 && nextIsWord(text[i:]):
			flushWord()
		default:
			flushWord()
			flushCompound()
		}
	}
	flushWord()
	flushCompound()
	tk.word, tk.joined = word, joined
}

// asciiWord maps an ASCII letter or digit to its lower case, every other
// byte to 0 (a byte of a multi-byte rune too: words decodes those). It is
// a literal, laid out by the compiler rather than computed at start-up;
// TestASCIIWordTable checks it against isWordRune and appendFolded.
var asciiWord = [256]byte{
	'0': '0', '1': '1', '2': '2', '3': '3', '4': '4', '5': '5', '6': '6', '7': '7', '8': '8', '9': '9',
	'A': 'a', 'B': 'b', 'C': 'c', 'D': 'd', 'E': 'e', 'F': 'f', 'G': 'g', 'H': 'h', 'I': 'i', 'J': 'j', 'K': 'k', 'L': 'l', 'M': 'm',
	'N': 'n', 'O': 'o', 'P': 'p', 'Q': 'q', 'R': 'r', 'S': 's', 'T': 't', 'U': 'u', 'V': 'v', 'W': 'w', 'X': 'x', 'Y': 'y', 'Z': 'z',
	'a': 'a', 'b': 'b', 'c': 'c', 'd': 'd', 'e': 'e', 'f': 'f', 'g': 'g', 'h': 'h', 'i': 'i', 'j': 'j', 'k': 'k', 'l': 'l', 'm': 'm',
	'n': 'n', 'o': 'o', 'p': 'p', 'q': 'q', 'r': 'r', 's': 's', 't': 't', 'u': 'u', 'v': 'v', 'w': 'w', 'x': 'x', 'y': 'y', 'z': 'z',
}

// nextIsWord reports whether rest starts with a rune of a word.
func nextIsWord(rest string) bool {
	if rest == "" {
		return false
	}
	if l := asciiWord[rest[0]]; l != 0 {
		return true
	}
	next, _ := utf8.DecodeRuneInString(rest)
	return isWordRune(next)
}

// appendStem appends the stem of the folded word w: a light English
// stemmer (plurals, -ing, -ed, a final e; -ise → -ize, and a few other
// British spellings). Words with
// characters other than a-z are kept as they are. Every rule keeps or
// shortens the word, so it works in place on the appended copy.
func appendStem(dst, w []byte) []byte {
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return append(dst, w...)
		}
	}
	start := len(dst)
	dst = append(dst, w...)
	s := dst[start:]
	if len(s) > 6 {
		for _, sfx := range []string{"isation", "ising", "ised", "ises", "ise"} {
			if hasSuffix(s, sfx) {
				s[len(s)-len(sfx)+1] = 'z'
				break
			}
		}
	}
	switch {
	case len(s) <= 3:
	case hasSuffix(s, "sses"):
		s = s[:len(s)-2]
	case hasSuffix(s, "ies") && len(s) > 4:
		s = append(s[:len(s)-3], 'y')
	case hasSuffix(s, "xes") || hasSuffix(s, "ches") || hasSuffix(s, "shes") || hasSuffix(s, "zes"):
		s = s[:len(s)-2]
	case hasSuffix(s, "ss") || hasSuffix(s, "us") || hasSuffix(s, "is"):
	case hasSuffix(s, "s"):
		s = s[:len(s)-1]
	}
	inflected := true // -ing or -ed taken off
	switch {
	case len(s) > 5 && hasSuffix(s, "ing") && hasVowel(s[:len(s)-3]):
		s = undouble(s[:len(s)-3])
	case len(s) > 4 && hasSuffix(s, "ed") && !hasSuffix(s, "eed") && hasVowel(s[:len(s)-2]):
		s = undouble(s[:len(s)-2])
	default:
		inflected = false
	}
	if len(s) > 4 && s[len(s)-1] == 'e' {
		s = s[:len(s)-1]
	}
	// British spellings: behaviour → behavior, analys(e) → analyz,
	// modell(ing) → model.
	switch n := len(s); {
	case n > 5 && hasSuffix(s, "our"):
		s = append(s[:n-2], 'r')
	case n > 5 && hasSuffix(s, "lys"):
		s[n-1] = 'z'
	case n > 5 && inflected && hasSuffix(s, "ell"):
		s = s[:n-1]
	}
	return dst[:start+len(s)]
}

func hasSuffix(s []byte, sfx string) bool {
	return len(s) >= len(sfx) && string(s[len(s)-len(sfx):]) == sfx
}

func hasVowel(s []byte) bool { return bytes.ContainsAny(s, "aeiouy") }

// undouble drops one letter of a final doubled consonant (running → run),
// except l, s and z, which English keeps doubled (billing → bill).
func undouble(s []byte) []byte {
	if n := len(s); n >= 2 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouylsz", rune(s[n-1])) {
		return s[:n-1]
	}
	return s
}

// foldName is s folded with only its letters and digits kept: the form in
// which a query equals a name ("PDF processing" and "pdf-processing" both
// give "pdfprocessing").
func foldName(s string) string {
	var b []byte
	for _, r := range s {
		if isWordRune(r) {
			b = appendFolded(b, r)
		}
	}
	return string(b)
}

// nameKey is the key under which a name is matched by a run of query
// words: its words stemmed and run together ("PDF files" and "pdf-file"
// both give "pdffile").
func (tk *tokenizer) nameKey(s string) string {
	var b []byte
	tk.words(s, func(w []byte, compound bool) {
		if !compound {
			b = appendStem(b, w)
		}
	})
	return string(b)
}

// family is the key of a stem's word family: a noun or adjective derived
// from a verb is keyed by the verb's stem ("communication" and
// "communicat" give "communic", "configuration" and "configur"
// "configur", "management" "manag", "prediction" and "predictiv"
// "predict", "containerization" "containeriz"), any other stem by itself.
// Agent nouns (reviewer, manager) are left apart: they often name a role
// rather than the act. What is left is at least four letters, five where
// a shorter word would be another word's ("format" is not "form",
// "mention" not "ment"). A family key is a prefix of each of its stems.
func family(stem string) string {
	cut := func(sfx string, keep, min int) (string, bool) {
		if rest := len(stem) - len(sfx); rest >= min && strings.HasSuffix(stem, sfx) {
			return stem[:rest+keep], true
		}
		return "", false
	}
	for _, r := range []struct {
		sfx       string
		keep, min int
	}{
		{"ization", 2, 4}, {"ation", 0, 4}, {"at", 0, 5}, {"ment", 0, 5}, {"tion", 1, 4}, {"sion", 1, 4},
		{"tiv", 1, 4}, {"siv", 1, 4}, {"ity", 0, 4},
	} {
		if k, ok := cut(r.sfx, r.keep, r.min); ok {
			if r.sfx == "ment" && strings.HasSuffix(k, "e") {
				k = k[:len(k)-1] // manage(ment) is manag
			}
			return k
		}
	}
	return stem
}
