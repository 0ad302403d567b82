package program

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/lint/encoded"
)

// This file is what the flow analysis (flowexpr.go) makes of a string with
// interpolation: its literal parts decoded, and the names it interpolates.

// template evaluates a string with interpolation: the literal parts, and
// the names it interpolates when they are simple.
func (f *flowState) template(body string) value {
	var parts []value
	for len(body) > 0 {
		i, j, name := nextInterp(body, f.lang)
		if i < 0 {
			parts = append(parts, lit(unescapeFor(body, f.lang)))
			break
		}
		parts = append(parts, lit(unescapeFor(body[:i], f.lang)))
		parts = append(parts, f.interp(name))
		body = body[j:]
	}
	v := cat(parts...)
	if len(parts) > 1 {
		v.t |= tBuilt
	}
	return v
}

// psUnescape decodes PowerShell's backtick escapes in a template; built once,
// on first use, rather than for every PowerShell template part.
var psUnescape = lazy.Value[*strings.Replacer]{New: func() *strings.Replacer {
	return strings.NewReplacer("`n", "\n", "`t", "\t", "``", "`", "`\"", "\"")
}}

// unescapeFor decodes a template's literal part.
func unescapeFor(s, lang string) string {
	if lang == langPS {
		return psUnescape.Get().Replace(s)
	}
	return encoded.Unescape(s)
}

// nextInterp finds the next interpolation in a template body: its start,
// end and the expression inside.
func nextInterp(body, lang string) (int, int, string) {
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && lang != langPS:
			i++
		case c == '{' && (lang == langPython) && i+1 < len(body) && body[i+1] == '{':
			i++
		case c == '{' && lang == langPython, c == '$' && i+1 < len(body) && body[i+1] == '{' && lang == langJS,
			c == '#' && i+1 < len(body) && body[i+1] == '{' && lang == langRuby:
			start := i
			open := strings.IndexByte(body[i:], '{') + i
			end := strings.IndexByte(body[open:], '}')
			if end < 0 {
				return -1, -1, ""
			}
			expr := body[open+1 : open+end]
			if k := strings.IndexAny(expr, "!:"); k >= 0 && lang == langPython {
				expr = expr[:k]
			}
			return start, open + end + 1, strings.TrimSpace(expr)
		case c == '$' && (lang == langPS || lang == langPerl) && i+1 < len(body) && (isLetter(body[i+1]) || body[i+1] == '_' || body[i+1] == '{' || body[i+1] == '('):
			j := i + 1
			if body[j] == '{' || body[j] == '(' {
				closer := map[byte]byte{'{': '}', '(': ')'}[body[j]]
				end := strings.IndexByte(body[j:], closer)
				if end < 0 {
					return -1, -1, ""
				}
				return i, j + end + 1, "$" + strings.Trim(body[j+1:j+end], "$ ")
			}
			for j < len(body) && (encoded.IsIdentByte(body[j]) || body[j] == ':' && lang == langPS && j+1 < len(body) && isLetter(body[j+1])) {
				j++
			}
			return i, j, body[i:j]
		}
	}
	return -1, -1, ""
}

// interp evaluates a simple interpolated expression: a name, a dotted
// name, $env:NAME.
func (f *flowState) interp(expr string) value {
	if strings.HasPrefix(strings.ToLower(expr), "$env:") {
		return f.envVar(expr[5:])
	}
	if f.lang == langPS && strings.EqualFold(expr, "$home") {
		return homeValue()
	}
	if i := strings.IndexAny(expr, "!:"); f.lang == langPython && i > 0 && !strings.ContainsAny(expr[:i], "[({") {
		expr = expr[:i] // a conversion or format spec: {pct:.1f}, {name!r}
	}
	name := expr
	if i := strings.IndexAny(name, ".[("); i >= 0 {
		name = name[:i]
	}
	if e, ok := f.vars[name]; ok {
		if name == expr {
			return f.valueOf(e)
		}
		if v, ok := f.interpSecret(e, expr); ok {
			return v
		}
		// A part of it (an attribute, an item) the analysis does not
		// follow: its taint, never nothing.
		return value{t: f.valueOf(e).t&^tHome | tUnknown}
	}
	if (f.lang == langPS || f.lang == langPerl) && strings.EqualFold(name, "$home") {
		return homeValue()
	}
	return unknown()
}

// interpSecret evaluates an interpolated expression on a name that holds a
// secret (f"{c['name']}", `${cfg.auths[r].auth}`), a chain of fields,
// items by a literal and get() of one, as a field of the secret is, so
// that a part named for what it is stays structure; false when the name
// holds no secret, or the expression is not such a chain.
func (f *flowState) interpSecret(e ev, expr string) (value, bool) {
	v := f.valueOf(e)
	if v.t&tSecret == 0 || f.lang != langPython && f.lang != langJS {
		return value{}, false
	}
	toks, _ := tokenChunk(expr, f.lang, 0, nil)
	for len(toks) > 0 && toks[len(toks)-1].kind == tokEOL {
		toks = toks[:len(toks)-1]
	}
	is := func(i int, s string) bool { return i < len(toks) && toks[i].kind == tokPunct && toks[i].s == s }
	for i := 1; i < len(toks); {
		switch {
		case (is(i, ".") || is(i, "?.")) && i+1 < len(toks) && toks[i+1].kind == tokWord && toks[i+1].s == "get" && is(i+2, "(") &&
			i+3 < len(toks) && toks[i+3].kind == tokString:
			v = field(v, lit(toks[i+3].s))
			j := i + 4
			for ; j < len(toks) && !is(j, ")"); j++ {
				if t := toks[j]; t.kind != tokString && !is(j, ",") && !(t.kind == tokWord && (isDigits(t.s) || t.s == "None" || t.s == "True" || t.s == "False")) {
					return value{}, false // a default that is not a literal
				}
			}
			i = j + 1
		case (is(i, ".") || is(i, "?.")) && i+1 < len(toks) && toks[i+1].kind == tokWord && !is(i+2, "("):
			v = field(v, lit(toks[i+1].s))
			i += 2
		case is(i, "[") && i+2 < len(toks) && (toks[i+1].kind == tokString || toks[i+1].kind == tokWord && isDigits(toks[i+1].s)) && is(i+2, "]"):
			v = field(v, lit(toks[i+1].s))
			i += 3
		default:
			return value{}, false
		}
	}
	return v, true
}

// isDigits reports a non-empty run of decimal digits.
func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// imageQuery finds a Markdown or HTML image whose URL has a query, as the
// image-exfil rule reads one: ![…](https://…?…), <img src="https://…?…">.
var imageQuery = &lazyre.RE{Expr: `!\[[^\]]*\]\(\s*https?://[^)\s]*\?|(?i:<img\b[^>]*?\bsrc\s*=\s*["']?)https?://[^"'\s>]*\?`}

// dataTaint is what makes a value data someone else should not receive
// in an image's URL: a secret, the environment, a download, a command's
// output, something decoded, an input or a parameter the analysis cannot
// see.
const dataTaint = tSecret | tEnv | tFetched | tCmd | tDecoded | tUnknown | tParam | tSaved

// scalar reports a value that holds no text the program read or was
// given: a literal, a number it computed, a literal it chose by a test.
func scalar(v value) bool { return v.known || v.shape == shapeScalar }

// gradeImage grades a template at byte at that builds an image URL with a
// query: when every value it interpolates is a literal the analysis saw
// whole or a number the program computed (round(cov["totals"]["pct"])),
// carrying none of dataTaint, rendering the image sends no text, and the
// image-exfil line rule leaves the line to it. Otherwise (a file's text,
// an input, a secret) the line rule's warning stands.
func (f *flowState) gradeImage(body string, at int) {
	if !strings.Contains(body, "://") || imageQuery.Regexp().FindStringIndex(body) == nil {
		return
	}
	for rest := body; ; {
		i, j, name := nextInterp(rest, f.lang)
		if i < 0 {
			break
		}
		if v := f.interp(name); v.t&dataTaint != 0 || !scalar(v) {
			return // data, or a value the analysis did not see whole: a file's text
		}
		rest = rest[j:]
	}
	f.s.graded = append(f.s.graded, Finding{Rule: "image-exfil", Off: max(0, min(at, len(f.s.text)))})
}
