package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"
	"github.com/skills-mcp/skills-mcp/internal/bundletest"
)

// TestServeCLIParsesLikeCLI parses serve's command lines with the whole
// tree and with ServeCLI alone, and wants the same command and flags.
func TestServeCLIParsesLikeCLI(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"a.skb"},
		{"serve", "a.skb", "b.skb"},
		{"a.skb", "--http", "8080", "--name", "team"},
		{"--http", ":8080", "a.skb"},
		{"serve", "--root", "skills", "--no-watch", "--rescan-seconds", "5"},
		{"serve", "--lib", "team=skills", "--show-disabled", "--describe-skills", "--prefix", "x"},
		{"serve", "--config", "skills.json", "--trust", "allowed_signers", "--", "-odd.skb"},
		{"a.skb,b.skb", "--allowed-hosts", "x.example,y.example", "--host", "0.0.0.0"},
		{"a.skb", "--http", "8080", "--metrics-addr", "127.0.0.1:9090"},
	} {
		if !servesOnly(args) {
			t.Errorf("servesOnly(%q) = false", args)
			continue
		}
		var all CLI
		want, err := newParser(&all).Parse(args)
		if err != nil {
			t.Fatalf("CLI: %q: %v", args, err)
		}
		var serve ServeCLI
		got, err := newServeParser(&serve).Parse(args)
		if err != nil {
			t.Fatalf("ServeCLI: %q: %v", args, err)
		}
		if got.Command() != want.Command() {
			t.Errorf("%q: ServeCLI runs %q, CLI %q", args, got.Command(), want.Command())
		}
		if !reflect.DeepEqual(serve.Serve, all.Serve) {
			t.Errorf("%q: ServeCLI parses\n%+v\nCLI parses\n%+v", args, serve.Serve, all.Serve)
		}
		// The stdio tree parses the same ServeFlags, or refuses a flag
		// of the HTTP endpoint, which parse then gives to ServeCLI.
		var bare bareServeStdioCLI
		sg, err := newServeParser(&bare).Parse(args)
		var stdio ServeStdioCLI
		copyFields(reflect.ValueOf(&stdio).Elem(), reflect.ValueOf(&bare).Elem())
		http := all.Serve.HTTP != ""
		switch {
		case err != nil && !http:
			t.Errorf("ServeStdioCLI: %q: %v", args, err)
		case err == nil && sg.Command() != want.Command():
			t.Errorf("%q: ServeStdioCLI runs %q, CLI %q", args, sg.Command(), want.Command())
		case err == nil && !reflect.DeepEqual(stdio.Serve.ServeFlags, all.Serve.ServeFlags):
			t.Errorf("%q: ServeStdioCLI parses\n%+v\nCLI parses\n%+v", args, stdio.Serve.ServeFlags, all.Serve.ServeFlags)
		}
		if got, err := parse(args); err != nil || hasFlag(got, "metrics-addr") != http {
			t.Errorf("%q: parse: HTTP asked %v, but the tree it used has the endpoint's flags %v (%v)", args, http, !http, err)
		}
	}
}

// TestServeTreesLikeWhole compares, field by field, every flag and argument
// of the serve-only trees with the whole tree's serve command: the same
// name, type, default, environment variables, enum, placeholder, short
// name and the rest of what kong parses by, all but the help text, which
// the serve-only trees drop (help is shown by the whole tree).
func TestServeTreesLikeWhole(t *testing.T) {
	whole := map[string]*kong.Value{}
	model := newParser(&CLI{}).Model
	for _, cmd := range model.Children {
		if cmd.Name == "serve" {
			for _, f := range cmd.Flags {
				whole["--"+f.Name] = f.Value
			}
			for _, a := range cmd.Positional {
				whole[a.Name] = a
			}
		}
	}
	for _, f := range model.Flags {
		whole["--"+f.Name] = f.Value
	}
	for name, grammar := range map[string]any{"the stdio tree": &bareServeStdioCLI{}, "ServeCLI": &ServeCLI{}} {
		m := newServeParser(grammar).Model
		n := 0
		seen := map[string]bool{}
		check := func(key string, v *kong.Value) {
			n++
			seen[key] = true
			w, ok := whole[key]
			if !ok {
				t.Errorf("%s: %s is not in the whole tree", name, key)
				return
			}
			if v.Help != "" {
				t.Errorf("%s: %s keeps its help %q", name, key, v.Help)
			}
			type parsed struct {
				Name, Default, Enum, PlaceHolder, Format string
				HasDefault, Required, Passthrough        bool
				Type                                     reflect.Type
				Envs, Aliases, Xor, And                  []string
				Short                                    rune
				Hidden, Negated                          bool
				Position                                 int
			}
			of := func(v *kong.Value) parsed {
				p := parsed{Name: v.Name, Default: v.Default, Enum: v.Enum, Format: v.Format, HasDefault: v.HasDefault,
					Required: v.Required, Passthrough: v.Passthrough, Type: v.Target.Type(), Position: v.Position}
				if f := v.Flag; f != nil {
					p.PlaceHolder, p.Envs, p.Aliases, p.Xor, p.And = f.PlaceHolder, f.Envs, f.Aliases, f.Xor, f.And
					p.Short, p.Hidden, p.Negated = f.Short, f.Hidden, f.Negated
				}
				return p
			}
			if got, want := of(v), of(w); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %s is\n%+v\nin the whole tree\n%+v", name, key, got, want)
			}
		}
		for _, node := range append([]*kong.Node{m.Node}, m.Children...) {
			for _, f := range node.Flags {
				check("--"+f.Name, f.Value)
			}
			for _, a := range node.Positional {
				check(a.Name, a)
			}
			if node.Help != "" || node.Detail != "" {
				t.Errorf("%s: node %s keeps its help", name, node.Name)
			}
		}
		if n < 30 {
			t.Errorf("%s: only %d flags and arguments", name, n)
		}
		// And every flag of the whole tree's serve is there, but the
		// HTTP endpoint's in the stdio tree (and the help flag).
		web := map[string]bool{"--help": true}
		if name == "the stdio tree" {
			for _, f := range newParser(&ServeCLI{}).Model.Children[0].Flags {
				web["--"+f.Name] = true
			}
			for _, f := range newServeParser(&bareServeStdioCLI{}).Model.Children[0].Flags {
				delete(web, "--"+f.Name)
			}
			web["--help"] = true
		}
		for key := range whole {
			if !seen[key] && !web[key] {
				t.Errorf("%s: %s of the whole tree is missing", name, key)
			}
		}
	}
}

// TestParseHelpAndErrorsAsWhole: what parse prints and returns for a help
// flag or a bad serve command line (flags, values, environment) is what
// the whole tree gives, though parse tries the serve-only trees first.
func TestParseHelpAndErrorsAsWhole(t *testing.T) {
	type outcome struct {
		Out, Err string
		Exit     int
	}
	run := func(p func(...kong.Option) (*kong.Context, error)) (o outcome) {
		var out strings.Builder
		o.Exit = -1
		func() {
			defer func() {
				if r := recover(); r != nil && r != errExited {
					panic(r)
				}
			}()
			_, err := p(kong.Writers(&out, &out), kong.Exit(func(code int) { o.Exit = code; panic(errExited) }))
			if err != nil {
				o.Err = err.Error()
			}
		}()
		o.Out = out.String()
		return o
	}
	for _, tc := range []struct {
		args []string
		env  string
	}{
		{args: []string{"serve", "--help"}},
		{args: []string{"--help"}},
		{args: []string{"-h"}},
		{args: []string{"a.skb", "--help"}},
		{args: []string{"serve", "--help=true"}},
		{args: []string{"serve", "-hx"}},
		{args: []string{"serve", "--nope", "a.skb"}},
		{args: []string{"a.skb", "--catalog", "bogus"}},
		{args: []string{"serve", "--prompt-limit", "many"}},
		{args: []string{"--http", "8080", "--max-conns", "x", "a.skb"}},
		{args: []string{"a.skb"}, env: "SKILLS_PROMPT_LIMIT=many"},
		{args: []string{"a.skb"}, env: "SKILLS_MAX_CONNS=x"},
		{args: []string{"serve", "--version=x"}},
	} {
		if k, v, ok := strings.Cut(tc.env, "="); ok {
			t.Setenv(k, v)
		}
		got := run(func(o ...kong.Option) (*kong.Context, error) { return parse(tc.args, o...) })
		want := run(func(o ...kong.Option) (*kong.Context, error) { return newParser(&CLI{}, o...).Parse(tc.args) })
		if got != want {
			t.Errorf("%q %s: parse gives\n%+v\nthe whole tree\n%+v", tc.args, tc.env, got, want)
		}
		if got.Out == "" && got.Err == "" {
			t.Errorf("%q %s: neither help nor an error", tc.args, tc.env)
		}
		if k, _, ok := strings.Cut(tc.env, "="); ok {
			os.Unsetenv(k)
		}
	}
}

// errExited is what the tests' kong.Exit panics with.
var errExited = errors.New("exited")

// hasFlag reports whether the tree kctx was parsed with has flag name.
func hasFlag(kctx *kong.Context, name string) bool {
	for _, f := range kctx.Flags() {
		if f.Name == name {
			return true
		}
	}
	return false
}

// TestServesOnly wants the whole tree for every other command, and for help.
func TestServesOnly(t *testing.T) {
	model := newParser(&CLI{}).Model
	n := 0
	for _, cmd := range model.Children {
		if cmd.Type != kong.CommandNode || cmd.Name == "serve" {
			continue
		}
		n++
		if servesOnly([]string{cmd.Name, "x"}) || servesOnly([]string{"--verbose", cmd.Name}) {
			t.Errorf("servesOnly takes command %q for serve", cmd.Name)
		}
	}
	if n == 0 {
		t.Fatal("no commands besides serve in the model")
	}
	for _, args := range [][]string{{"--help"}, {"serve", "-h"}, {"a.skb", "--help"}} {
		if servesOnly(args) {
			t.Errorf("servesOnly(%q) = true", args)
		}
	}
}

// BenchmarkParse measures kong building its model and parsing a serve
// command line, with the whole tree and with ServeCLI.
func BenchmarkParse(b *testing.B) {
	for _, tc := range []struct {
		name    string
		grammar func() any
	}{
		{"all", func() any { return &CLI{} }},
		{"serve", func() any { return &ServeCLI{} }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := newParser(tc.grammar()).Parse([]string{"serve", "a.skb", "--http", "8080"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestOpenEarly: bundle arguments are opened while kong parses, serve takes
// them (the file may be gone by then), and the ones serve does not take are
// closed.
func TestOpenEarly(t *testing.T) {
	data := bundletest.Config(t, "../../testdata/example/skills.json")
	dir := t.TempDir()
	t.Chdir(dir)
	for _, name := range []string{"a.skb", "b.skb"} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	early := openEarly([]string{"serve", "a.skb", "--name", "x", "--trust=k.skb", "b.skb", "missing.skb", "a.skb"})
	var keys []string
	for p := range early {
		keys = append(keys, p)
	}
	slices.Sort(keys)
	want := []string{filepath.Join(dir, "a.skb"), filepath.Join(dir, "b.skb"), filepath.Join(dir, "missing.skb")}
	if !slices.Equal(keys, want) {
		t.Fatalf("opened early %q, want %q (by the path kong makes of each)", keys, want)
	}
	for len(early[want[0]]) == 0 { // until a.skb is open
		time.Sleep(time.Millisecond)
	}
	if err := os.Remove("a.skb"); err != nil {
		t.Fatal(err)
	}
	b, err := early.open(filepath.Join(dir, "a.skb"))
	if err != nil {
		t.Fatalf("a.skb, opened before it was removed: %v", err)
	}
	defer b.Close()
	if _, err := b.Stat("acme"); err != nil {
		t.Errorf("early bundle: %v", err)
	}
	if _, err := early.open(filepath.Join(dir, "missing.skb")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing.skb: %v, want the error of opening it", err)
	}
	if _, err := early.open(filepath.Join(dir, "a.skb")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a.skb taken twice: %v, want it opened again (and gone)", err)
	}
	// b.skb was opened early and never taken: close unmaps it, after which
	// reading it fails (the fault is caught) where it read before.
	untaken := <-early[want[1]]
	early[want[1]] <- untaken
	if untaken.err != nil {
		t.Fatalf("b.skb: %v", untaken.err)
	}
	if _, err := untaken.b.ManifestBytes(); err != nil {
		t.Fatalf("b.skb before close: %v", err)
	}
	early.close()
	if len(early) != 0 {
		t.Errorf("after close, %d left", len(early))
	}
	if _, err := untaken.b.ManifestBytes(); err == nil {
		t.Error("b.skb, opened early and not taken, is still open after close")
	}
}

// TestHelpIsASCII renders every command's help and wants plain ASCII: kong
// renders help as go/doc text, which turns ” into a typographic quote, and
// a command copied from help with one runs wrong or not at all.
func TestHelpIsASCII(t *testing.T) {
	helps := commandHelps(t)
	if len(helps) < 10 {
		t.Fatalf("only %d commands in the model", len(helps)-1)
	}
	for _, h := range helps {
		for i, line := range strings.Split(h.text, "\n") {
			for _, r := range line {
				if r > 0x7e || (r < 0x20 && r != '\t') {
					t.Errorf("%q help line %d: %U in %q", h.args, i+1, r, line)
					break
				}
			}
		}
	}
}

// TestBuildVersion wants the module version of a go-installed binary, the
// pseudo-version of one built in a clone, the VCS revision when the go
// command recorded no version, and "dev" with neither.
func TestBuildVersion(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "1b247ed0123456789abcdef"}}
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "dev"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: rev}, true, "v1.4.0"},
		// A build in a clone: Go records its commit's pseudo-version, as the README says.
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261202015300-1a9373ab66a8+dirty"}, Settings: rev}, true, "v0.0.0-20261202015300-1a9373ab66a8+dirty"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, true, "dev-1b247ed01234"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"})}, true, "dev-1b247ed01234-dirty"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "dev"},
	} {
		if got := buildVersion(tc.bi, tc.ok); got != tc.want {
			t.Errorf("buildVersion(%+v) = %q, want %q", tc.bi, got, tc.want)
		}
	}
}
