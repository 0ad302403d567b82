package build

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigTrailing: anything after the configuration's first JSON value is
// refused, naming the file, line and column of the first byte after it;
// white space alone is not.
func TestConfigTrailing(t *testing.T) {
	dir := t.TempDir()
	good := "{\"libraries\": [{\"namespace\": \"a\", \"root\": \"x\"}]}"
	for _, c := range []struct{ name, body, where string }{
		{"broken brace", good + "{broken", ":1:49: "},
		{"merge leftover", good + "\n>>>>>>> feature\n", ":2:1: "},
		{"second object", good + "\n  {\"libraries\":[],\"noScripts\":true}", ":2:3: "},
		{"second value after crlf", good + "\r\n\r\n0", ":3:1: "},
		{"after a code point", "{\"libraries\": [{\"namespace\": \"a\", \"root\": \"é\"}]} x", ":1:50: "},
	} {
		p := filepath.Join(dir, "skills.json")
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), p+c.where) || !strings.Contains(err.Error(), "config-trailing") {
			t.Errorf("%s: LoadConfig = %v, want an error at %s%s naming config-trailing", c.name, err, p, c.where)
		}
	}
	for _, tail := range []string{"", "\n", " \t\r\n\n"} {
		p := filepath.Join(dir, "ok.json")
		os.WriteFile(p, []byte(good+tail), 0o644)
		if _, err := LoadConfig(p); err != nil {
			t.Errorf("trailing %q: %v", tail, err)
		}
	}
}

// TestConfigSyntaxAt: a syntax or type error names the line and column too.
func TestConfigSyntaxAt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "skills.json")
	for body, where := range map[string]string{
		"{\n  \"libraries\": [\n    {\"namespace\": \"a\",, \"root\": \"x\"}]}": ":3:23: ",
		"{\"libraries\": 5}":    ":1:15: ",
		"":                      ": empty file",
		"{\n  \"libraries\": [": ":2:17: unexpected end of the file",
		"{\"libraries\": [\n {\"namespace\": \"a\", \"root\": \".\", \"bogus\": 1}]}": ":2:34: json: unknown field \"bogus\"",
	} {
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), p+where) {
			t.Errorf("%q: LoadConfig = %v, want %s%s", body, err, p, where)
		}
	}
}

// FuzzConfigJSON: the decoder never panics, and whatever it accepts is one
// JSON value followed by white space only.
func FuzzConfigJSON(f *testing.F) {
	f.Add([]byte(`{"libraries":[]}`))
	f.Add([]byte(`{"libraries":[]}{}`))
	f.Add([]byte("{\"libraries\":[]}\n>>>>>>> x"))
	f.Add([]byte(`{"libraries":[{"namespace":"a","root":"é"}]} ]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Config
		err := decodeConfigJSON("f.json", data, &c)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if !json.Valid(data) { // one value, white space around it only
			t.Fatalf("accepted %q, which is not one JSON value", data)
		}
	})
}
