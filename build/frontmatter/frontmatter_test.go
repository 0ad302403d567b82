package frontmatter

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

func init() {
	// -update rewrites golden files. Other golden tests in this package may
	// define the same flag; define it only once.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files in testdata")
	}
}

// updateFrontmatterGolden reports whether -update was given.
func updateFrontmatterGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// frontmatterJSON parses a SKILL.md whose frontmatter is yamlText and
// returns the rendered JSON.
func frontmatterJSON(t *testing.T, yamlText string) string {
	t.Helper()
	fm, err := Parse([]byte("---\n" + yamlText + "\n---\nbody\n"))
	if err != nil {
		t.Fatalf("Parse(%q): %v", yamlText, err)
	}
	return string(fm.JSON)
}

// The expected JSON below follows the YAML 1.2.2 core schema (§10.3.2):
// null is null|Null|NULL|~|empty; booleans are true|True|TRUE and
// false|False|FALSE; integers are [-+]?[0-9]+, 0o[0-7]+ and
// 0x[0-9a-fA-F]+; floats are [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?;
// everything else is a string. Floats are written as ECMAScript
// Number::toString writes them.
func TestParseFrontmatterScalars(t *testing.T) {
	tests := []struct {
		yaml, want string
	}{
		// Strings that YAML 1.1 would read as timestamps or booleans.
		{"2026-01-02", `"2026-01-02"`},
		{"2001-12-14t21:59:43.10-05:00", `"2001-12-14t21:59:43.10-05:00"`},
		{"yes", `"yes"`},
		{"No", `"No"`},
		{"on", `"on"`},
		{"OFF", `"OFF"`},
		{"y", `"y"`},
		{"12:30:45", `"12:30:45"`},
		// Booleans.
		{"true", `true`},
		{"True", `true`},
		{"TRUE", `true`},
		{"false", `false`},
		{"False", `false`},
		{"FALSE", `false`},
		{"tRue", `"tRue"`},
		// Nulls.
		{"", `null`},
		{"~", `null`},
		{"null", `null`},
		{"Null", `null`},
		{"NULL", `null`},
		{"nULL", `"nULL"`},
		// Integers.
		{"0", `0`},
		{"-0", `0`},
		{"+12", `12`},
		{"010", `10`},
		{"-012", `-12`},
		{"00", `0`},
		{"0x1F", `31`},
		{"0x1f", `31`},
		{"0x0", `0`},
		{"0o17", `15`},
		{"0o0", `0`},
		{"9223372036854775807", `9223372036854775807`},
		{"-9223372036854775809", `-9223372036854775809`},
		{"9007199254740993", `9007199254740993`},
		{"123456789012345678901234", `123456789012345678901234`},
		{"0xFFFFFFFFFFFFFFFFFFFF", `1208925819614629174706175`},
		// Not integers in the core schema.
		{"0o8", `"0o8"`},
		{"0x", `"0x"`},
		{"0o", `"0o"`},
		{"0X1F", `"0X1F"`},
		{"-0x1F", `"-0x1F"`},
		{"+0x1F", `"+0x1F"`},
		{"0b101", `"0b101"`},
		{"1_000", `"1_000"`},
		// Floats.
		{"1.10", `1.1`},
		{"1.0", `1`},
		{".5", `0.5`},
		{"5.", `5`},
		{"-.5", `-0.5`},
		{"+.5", `0.5`},
		{"-0.0", `0`},
		{"0e0", `0`},
		{"1e3", `1000`},
		{"1E-7", `1e-7`},
		{"1e-6", `0.000001`},
		{"0.0000001", `1e-7`},
		{"1.5e-7", `1.5e-7`},
		{"1e20", `100000000000000000000`},
		{"1e21", `1e+21`},
		{"1.5e300", `1.5e+300`},
		{"123456789.123456789", `123456789.12345679`},
		{"4.35", `4.35`},
		{"0.1", `0.1`},
		{"5e-324", `5e-324`},
		{"1e-400", `0`},
		{"1.7976931348623157e308", `1.7976931348623157e+308`},
		// Not floats in the core schema.
		{"1e", `"1e"`},
		{".", `"."`},
		{"+.nan", `"+.nan"`},
		{"1.2.3", `"1.2.3"`},
		// Quoted and block scalars are strings.
		{`"123"`, `"123"`},
		{`'true'`, `"true"`},
		{`"~"`, `"~"`},
		{`""`, `""`},
		{`"\u00e9\t\x41"`, `"é\tA"`},
		{`'it''s'`, `"it's"`},
		{"|\n  a\n   b\n", `"a\n b\n"`},
		{">-\n  a\n  b", `"a b"`},
		{"<b>&amp;</b>", `"<b>&amp;</b>"`},
		{`"\u2028"`, `"\u2028"`},
		{`"\x00"`, `"\u0000"`},
		// Collections.
		{"[1, 0x10, yes, ~, \"x\"]", `[1,16,"yes",null,"x"]`},
		{"{x: 1, y: .5}", `{"x":1,"y":0.5}`},
		{"[]", `[]`},
		{"{}", `{}`},
		{"\n  - a\n  - - b", `["a",["b"]]`},
		// Tags that agree with the core schema.
		{"!!str 5", `"5"`},
		{"!!str", `""`},
		{"!!str true", `"true"`},
		{"!<tag:yaml.org,2002:str> 7", `"7"`},
		{"! 12", `"12"`},
		{"!", `""`},
		{"! ~", `"~"`},
		{"&a ! 5", `"5"`},
		{"! &a 5", `"5"`},
		{"&a\n  ! 5", `"5"`},
		{"&a 5", `5`},
		{"!!int 5", `5`},
		{"!!int 0x10", `16`},
		{"!!float 1.5", `1.5`},
		{"!!bool True", `true`},
		{"!!null ~", `null`},
		{"!!null", `null`},
		{"!!map {a: 1}", `{"a":1}`},
		{"!!seq [1]", `[1]`},
		{"[! , x]", `["","x"]`},
	}
	for _, tt := range tests {
		got := frontmatterJSON(t, "v: "+tt.yaml)
		if want := `{"v":` + tt.want + `}`; got != want {
			t.Errorf("v: %s\ngot  %s\nwant %s", tt.yaml, got, want)
		}
	}
}

func TestParseFrontmatterNonSpecificTagPosition(t *testing.T) {
	// yaml.v3 drops the non-specific tag "!"; it is found from the node's
	// position, which counts characters, not bytes, and treats CR as a line end.
	tests := []struct {
		yaml, want string
	}{
		{"é: ! 1\nü: ! 2", `{"é":"1","ü":"2"}`},
		{"日本: [1, ! 2, 3]", `{"日本":[1,"2",3]}`},
		{"a: 1\rb: ! 2", `{"a":1,"b":"2"}`},
		{"! 1: a", `{"1":"a"}`},
		{"a:\n! b: c", `{"a":null,"b":"c"}`},
		{"a: &x # comment\n  ! 12", `{"a":"12"}`},
		{"a: &x\n! b: c", `{"a":null,"b":"c"}`},
		{"a: &x\n&y ! b: c", `{"a":null,"b":"c"}`},
		{"a: [&x , ! y]", `{"a":[null,"y"]}`},
	}
	for _, tt := range tests {
		if got := frontmatterJSON(t, tt.yaml); got != tt.want {
			t.Errorf("%q\ngot  %s\nwant %s", tt.yaml, got, tt.want)
		}
	}
}

func TestParseFrontmatterOrderAndAliases(t *testing.T) {
	got := frontmatterJSON(t, strings.Join([]string{
		"zeta: 1",
		`"10": ten`,
		"alpha: &base",
		"  z: 1",
		"  a: [&s x, *s]",
		"mid: *base",
		"__proto__: p",
		"2026-01-02: date key",
	}, "\n"))
	want := `{"zeta":1,"10":"ten","alpha":{"z":1,"a":["x","x"]},"mid":{"z":1,"a":["x","x"]},"__proto__":"p","2026-01-02":"date key"}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestParseFrontmatterFraming(t *testing.T) {
	tests := []struct {
		name, in, json, body string
	}{
		{"lf", "---\nname: x\n---\nbody\n", `{"name":"x"}`, "body\n"},
		{"bom and crlf", "\uFEFF---\r\nname: x\r\ndescription: |\r\n  a\r\n  b\r\n---\r\nbody\r\n", `{"name":"x","description":"a\nb\n"}`, "body\r\n"},
		{"marker trailing space", "--- \t\nname: x\n---  \nbody", `{"name":"x"}`, "body"},
		{"closing at end of file", "---\nname: x\n---", `{"name":"x"}`, ""},
		{"empty", "---\n---\n", `{}`, ""},
		{"blank lines only", "---\n\n\n---\nb", `{}`, "b"},
		{"comments only", "---\n# c\n---\n", `{}`, ""},
		{"document end marker", "---\nname: x\n...\n# after\n---\nb", `{"name":"x"}`, "b"},
		{"first closing line wins", "---\nname: x\n---\n---\n", `{"name":"x"}`, "---\n"},
		{"indented dashes are content", "---\nd: |\n  ---\n---\n", `{"d":"---\n"}`, ""},
		{"body keeps dashes", "---\nname: x\n---\n---\nmore: y\n---\n", `{"name":"x"}`, "---\nmore: y\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(fm.JSON) != tt.json {
				t.Errorf("JSON = %s, want %s", fm.JSON, tt.json)
			}
			if string(fm.Body) != tt.body {
				t.Errorf("Body = %q, want %q", fm.Body, tt.body)
			}
			if fm.Fields == nil {
				t.Errorf("Fields is nil, want a map")
			}
		})
	}
}

func TestParseFrontmatterFields(t *testing.T) {
	fm, err := Parse([]byte("---\nname: x\ncount: 3\nratio: .5\non: yes\nlist: [a, 1]\nmeta: {k: ~}\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"name":  "x",
		"count": float64(3),
		"ratio": 0.5,
		"on":    "yes",
		"list":  []any{"a", float64(1)},
		"meta":  map[string]any{"k": nil},
	}
	if !reflect.DeepEqual(fm.Fields, want) {
		t.Errorf("Fields = %#v\nwant %#v", fm.Fields, want)
	}
}

func TestParseFrontmatterErrors(t *testing.T) {
	tests := []struct {
		name, in string
		rule     string
		line     int
	}{
		{"empty file", "", "no-frontmatter", 1},
		{"no marker", "name: x\n---\n", "no-frontmatter", 1},
		{"marker with text", "--- name: x\n---\n", "no-frontmatter", 1},
		{"four dashes", "----\nname: x\n---\n", "no-frontmatter", 1},
		{"indented marker", " ---\nname: x\n---\n", "no-frontmatter", 1},
		{"two boms", "\uFEFF\uFEFF---\nname: x\n---\n", "no-frontmatter", 1},
		{"marker only", "---", "unterminated-frontmatter", 1},
		{"no closing", "---\nname: x\n", "unterminated-frontmatter", 1},
		{"dots do not close", "---\nname: x\n...\n", "unterminated-frontmatter", 1},
		{"closing with text", "---\nname: x\n--- x\n", "unterminated-frontmatter", 1},
		{"syntax", "---\nname: x\nd: [a\ne: f\n---\n", "invalid-yaml", 3},
		{"bad indent", "---\nname: x\n  d: y\n---\n", "invalid-yaml", 3},
		{"two documents", "---\nname: x\n...\nd: y\n---\n", "invalid-yaml", 4},
		{"second document", "---\nname: x\n...\n--- second\n---\n", "invalid-yaml", 4},
		{"unknown alias", "---\nname: *nope\n---\n", "invalid-yaml", 0},
		{"escape unknown to yaml 1.1", "---\nname: \"a\\/b\"\n---\n", "invalid-yaml", 0},
		{"raw line separator", "---\nname: x\nd: a\u2028b\n---\n", "invalid-yaml", 3},
		{"raw next line", "---\nname: x\nd: |\n  a\u0085b\n---\n", "invalid-yaml", 4},
		{"bom inside", "---\n\uFEFFa: ! 1\n---\n", "invalid-yaml", 2},
		{"bom in value", "---\nname: x\nd: a\uFEFFb\n---\n", "invalid-yaml", 3},
		{"sequence", "---\n- a\n---\n", "frontmatter-not-mapping", 2},
		{"scalar", "---\nhello\n---\n", "frontmatter-not-mapping", 2},
		{"null", "---\n~\n---\n", "frontmatter-not-mapping", 2},
		{"int key", "---\nname: x\n1: one\n---\n", "frontmatter-key", 3},
		{"bool key", "---\ntrue: x\n---\n", "frontmatter-key", 2},
		{"null key", "---\n~: x\n---\n", "frontmatter-key", 2},
		{"empty key", "---\n?\n: x\n---\n", "frontmatter-key", 2},
		{"float key", "---\n1.5: x\n---\n", "frontmatter-key", 2},
		{"nested int key", "---\nmetadata:\n  a: 1\n  2: b\n---\n", "frontmatter-key", 4},
		{"sequence key", "---\n? [a]\n: x\n---\n", "frontmatter-key", 2},
		{"mapping key", "---\n? {a: b}\n: x\n---\n", "frontmatter-key", 2},
		{"alias key", "---\na: &k key\n*k : x\n---\n", "frontmatter-key", 3},
		{"duplicate", "---\nname: x\nname: y\n---\n", "frontmatter-key", 3},
		{"duplicate quoted", "---\nname: x\n'name': y\n---\n", "frontmatter-key", 3},
		{"duplicate nested", "---\nm: {a: 1, b: 2, a: 3}\n---\n", "frontmatter-key", 2},
		{"duplicate in aliased", "---\nm: &m {a: 1, a: 2}\n---\n", "frontmatter-key", 2},
		{"merge key", "---\nb: &b {x: 1}\nc:\n  <<: *b\n---\n", "frontmatter-key", 4},
		{"inf", "---\nv: .inf\n---\n", "frontmatter-value", 2},
		{"negative inf", "---\nv: -.Inf\n---\n", "frontmatter-value", 2},
		{"positive inf", "---\nv: +.INF\n---\n", "frontmatter-value", 2},
		{"nan", "---\nv: .nan\n---\n", "frontmatter-value", 2},
		{"nan in list", "---\nv:\n  - 1\n  - .NAN\n---\n", "frontmatter-value", 4},
		{"float overflow", "---\nv: 1e400\n---\n", "frontmatter-value", 2},
		{"int overflow", "---\nv: 1" + strings.Repeat("0", 400) + "\n---\n", "frontmatter-value", 2},
		{"hex overflow", "---\nv: 0x1" + strings.Repeat("0", 300) + "\n---\n", "frontmatter-value", 2},
		{"custom tag", "---\nv: !foo bar\n---\n", "frontmatter-value", 2},
		{"binary tag", "---\nv: !!binary aGk=\n---\n", "frontmatter-value", 2},
		{"timestamp tag", "---\nv: !!timestamp 2026-01-02\n---\n", "frontmatter-value", 2},
		{"set tag", "---\nv: !!set {a}\n---\n", "frontmatter-value", 2},
		{"int tag on string", "---\nv: !!int \"5\"\n---\n", "frontmatter-value", 2},
		{"int tag on word", "---\nv: !!int five\n---\n", "frontmatter-value", 2},
		{"float tag on int", "---\nv: !!float 1\n---\n", "frontmatter-value", 2},
		{"bool tag on yes", "---\nv: !!bool yes\n---\n", "frontmatter-value", 2},
		{"null tag on empty quotes", "---\nv: !!null \"\"\n---\n", "frontmatter-value", 2},
		{"str tag on sequence", "---\nv: !!str [1]\n---\n", "frontmatter-value", 2},
		{"seq tag on mapping", "---\nv: !!seq {a: 1}\n---\n", "frontmatter-value", 2},
		{"verbatim non-specific", "---\nv: !<!> 5\n---\n", "frontmatter-value", 2},
		{"custom tag on key", "---\n!foo k: v\n---\n", "frontmatter-value", 2},
		{"alias cycle", "---\na: &a [*a]\n---\n", "frontmatter-value", 2},
		{"mapping alias cycle", "---\na: &a {b: *a}\n---\n", "frontmatter-value", 2},
		{"keep chomping at end", "---\nname: x\nd: |+\n  text\n\n---\n", "frontmatter-value", 3},
		{"keep chomping with indent", "---\nd: >2+\n  text\n---\n", "frontmatter-value", 2},
		{"keep chomping after properties", "---\nd: &x !<tag:yaml.org,2002:str> |+\n  text\n---\n", "frontmatter-value", 2},
		{"keep chomping nested at end", "---\nm:\n  - |+\n    t\n---\n", "frontmatter-value", 3},
		{"too deep", "---\nv: " + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + "\n---\n", "frontmatter-too-large", 2},
		{"too large", "---\nname: x\nd: " + strings.Repeat("a", MaxSize) + "\n---\n", "frontmatter-too-large", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("accepted, JSON %s", fm.JSON)
			}
			fe, ok := errors.AsType[*Error](err)
			if !ok {
				t.Fatalf("error %v is not a *Error", err)
			}
			if fe.Rule != tt.rule || fe.Line != tt.line {
				t.Errorf("rule %s line %d, want rule %s line %d: %v", fe.Rule, fe.Line, tt.rule, tt.line, err)
			}
		})
	}
}

func TestParseFrontmatterAccepted(t *testing.T) {
	// Neighbours of refused inputs that must still be accepted.
	tests := []string{
		"---\nd: |+\n  text\n\nname: x\n---\n",       // keep chomping not at the end
		"---\nname: x\nd: |\n  text\n\n---\n",        // clip chomping at the end
		"---\nname: x\nd: \"a\\u2028b\\x85\"\n---\n", // escaped line separators
		"---\nname: x\nd: \".inf\"\n---\n",           // quoted .inf
		"---\nname: x\nd: !!str .nan\n---\n",         // tagged .nan
		"---\n\"<<\": x\n---\n",                      // quoted merge key
		"---\nv: " + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + "\n---\n",
		"---\nd: " + strings.Repeat("a", MaxSize-4) + "\n---\n", // exactly the limit
	}
	for _, in := range tests {
		if _, err := Parse([]byte(in)); err != nil {
			t.Errorf("%.60q: %v", in, err)
		}
	}
}

func TestFrontmatterErrorMessage(t *testing.T) {
	_, err := Parse([]byte("---\nname: x\ndescription: d\nname: y\n---\n"))
	want := `line 4: frontmatter-key: duplicate key "name" (first at line 2)`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
	_, err = Parse([]byte("---\nname: x\n  bad: y\n---\n"))
	want = "line 3: invalid-yaml: mapping values are not allowed in this context"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestParseFrontmatterAliasBomb(t *testing.T) {
	// Billion laughs: nine levels of ten aliases each would expand to 10^9
	// strings.
	var b strings.Builder
	b.WriteString("---\nname: bomb\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 9; i++ {
		p := "*a" + string(rune('0'+i-1))
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.Repeat(p+", ", 9) + p + "]\n")
	}
	b.WriteString("---\n")
	start := time.Now()
	_, err := Parse([]byte(b.String()))
	elapsed := time.Since(start)
	fe, ok := errors.AsType[*Error](err)
	if !ok || fe.Rule != "frontmatter-too-large" {
		t.Fatalf("error = %v, want rule frontmatter-too-large", err)
	}
	if elapsed > 5*time.Second {
		t.Errorf("refusing the bomb took %v", elapsed)
	}
}

func TestFormatJSNumber(t *testing.T) {
	// Expected strings are what ECMAScript Number::toString yields.
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1.5, "-1.5"},
		{0.1, "0.1"},
		{math.Nextafter(0.3, 1), "0.30000000000000004"},
		{100, "100"},
		{1e20, "100000000000000000000"},
		{123456789012345680000, "123456789012345680000"},
		{1e21, "1e+21"},
		{1.5e21, "1.5e+21"},
		{1e-6, "0.000001"},
		{1.25e-6, "0.00000125"},
		{1e-7, "1e-7"},
		{-1.5e-7, "-1.5e-7"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{9007199254740993, "9007199254740992"},
	}
	for _, tt := range tests {
		if got := formatJSNumber(tt.f); got != tt.want {
			t.Errorf("formatJSNumber(%v) = %s, want %s", tt.f, got, tt.want)
		}
	}
}

func TestParseFrontmatterGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files in testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			input, wantIdx := -1, -1
			for i, f := range ar.Files {
				switch f.Name {
				case "SKILL.md":
					input = i
				case "want.json", "want.err":
					wantIdx = i
				default:
					t.Fatalf("unexpected section %q", f.Name)
				}
			}
			if input < 0 || wantIdx < 0 {
				t.Fatal("need a SKILL.md section and a want.json or want.err section")
			}
			var got []byte
			fm, err := Parse(ar.Files[input].Data)
			switch {
			case err == nil && ar.Files[wantIdx].Name == "want.json":
				got = append(fm.JSON, '\n')
			case err != nil && ar.Files[wantIdx].Name == "want.err":
				got = []byte(err.Error() + "\n")
			case err == nil:
				t.Fatalf("accepted, want an error; JSON %s", fm.JSON)
			default:
				t.Fatalf("want JSON, got error %v", err)
			}
			if updateFrontmatterGolden() {
				ar.Files[wantIdx].Data = got
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := ar.Files[wantIdx].Data; !bytes.Equal(got, want) {
				t.Errorf("got  %s\nwant %s(run go test -run TestParseFrontmatterGolden -update to rewrite)", got, want)
			}
		})
	}
}

func FuzzParseFrontmatter(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if af.Name == "SKILL.md" {
				f.Add(af.Data)
			}
		}
	}
	for _, s := range []string{
		"\uFEFF---\r\nname: x\r\n---\r\n",
		"---\na: &a [*a]\n---\n",
		"---\nv: ! 1\nw: &x ! [*x]\n---\n",
		"---\n? [a]\n: b\n---\n",
		"---\nv: !!float 1.5e300\n---\n",
	} {
		f.Add([]byte(s))
	}
	rules := map[string]bool{
		"no-frontmatter": true, "unterminated-frontmatter": true, "frontmatter-too-large": true,
		"invalid-yaml": true, "frontmatter-not-mapping": true, "frontmatter-key": true, "frontmatter-value": true,
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fm, err := Parse(data)
		if err != nil {
			fe, ok := errors.AsType[*Error](err)
			if !ok || !rules[fe.Rule] {
				t.Fatalf("error %v has no known rule", err)
			}
			return
		}
		if !json.Valid(fm.JSON) || len(fm.JSON) == 0 || fm.JSON[0] != '{' {
			t.Fatalf("JSON %q is not a JSON object", fm.JSON)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, fm.JSON); err != nil || !bytes.Equal(compact.Bytes(), fm.JSON) {
			t.Fatalf("JSON %q is not compact", fm.JSON)
		}
		if len(fm.JSON) > MaxJSONSize {
			t.Fatalf("JSON is %d bytes", len(fm.JSON))
		}
		var fields map[string]any
		if err := json.Unmarshal(fm.JSON, &fields); err != nil || !reflect.DeepEqual(fields, fm.Fields) {
			t.Fatalf("Fields %#v do not match JSON %s", fm.Fields, fm.JSON)
		}
		if !bytes.HasSuffix(data, fm.Body) {
			t.Fatalf("Body %q is not the end of the input", fm.Body)
		}
	})
}

// plainPairsAgree fails unless renderPlainPairs declines text or writes
// what the YAML path writes for it.
func plainPairsAgree(t testing.TB, text []byte) bool {
	t.Helper()
	fast := frontmatterRenderer{src: text}
	if !fast.renderPlainPairs() {
		return false
	}
	slow := frontmatterRenderer{src: text}
	if err := slow.renderYAML(); err != nil {
		t.Fatalf("%q: the plain path wrote %s, the YAML path refuses it: %v", text, fast.buf.Bytes(), err)
	}
	if !bytes.Equal(fast.buf.Bytes(), slow.buf.Bytes()) {
		t.Fatalf("%q: the plain path wrote %s, the YAML path %s", text, fast.buf.Bytes(), slow.buf.Bytes())
	}
	return true
}

// TestPlainPairs checks the parser-free path against the YAML path on
// frontmatter it takes and on near misses it must leave to the parser.
func TestPlainPairs(t *testing.T) {
	takes := []string{
		"name: pdf-processing\ndescription: Extract text and tables from PDF files.\n",
		"name: x\ndescription: Use when the user asks (see https://x.example/a?b=c#d).\nlicense: MIT\n",
		"n: null\nt: true\nf: False\ni: 0x1F\no: 0o17\nfl: 1.50e3\nz: 007\nd: +5\ns: yes\nnum: 12345678901234567890\n",
		"desc: café — naïve 日本語 😀 tab-less, [brackets] {braces}, 'quotes' \"double\" a*b&c!d|e>f%g@h`i\n",
		"key: value with :colon and - dash, ? mark\nKey2: v\nk_3-x: v\n",
	}
	for _, s := range takes {
		if !plainPairsAgree(t, []byte(s)) {
			t.Errorf("%q: the plain path declined it", s)
		}
	}
	declines := []string{
		"", "name: x", "name: x\r\n", "name:  x\n", "name: x \n", "name: x #c\n", "name: a: b\n", "name: a:\n",
		"name: 'x'\n", "name: \"x\"\n", "name: -x\n", "name: [x]\n", "name: {x: 1}\n", "name: &a x\n", "name: *a\n",
		"name: !x y\n", "name: |\n", "name: >\n", "name: %x\n", "name: @x\n", "name: `x\n", "name: ?x\n", "name: #x\n",
		"name: x\nname: y\n", "true: x\n", "null: x\n", "1: x\n", "<<: x\n", " name: x\n", "name: x\n\n", "# c\nname: x\n",
		"name: 1e400\n", "name: x\tx\n", "name: \xff\n", "name: \u0085\n", "name: \x7f\n", "name: \u00a0\u0080\n",
		"na me: x\n", "name:x\n", "name: x\n---\n", "n.ame: x\n",
	}
	for _, s := range declines {
		if plainPairsAgree(t, []byte(s)) {
			t.Errorf("%q: the plain path took it", s)
		}
	}
}

// FuzzPlainPairs checks that the parser-free path never writes anything
// but what the YAML path writes.
func FuzzPlainPairs(f *testing.F) {
	for _, s := range []string{
		"name: pdf-processing\ndescription: Extract text and tables from PDF files.\n",
		"n: null\nt: true\ni: 0x1F\nfl: 1.50e3\ns: yes\n",
		"desc: café — [x] {y} 'q' \"d\" a:b\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) { plainPairsAgree(t, text) })
}
