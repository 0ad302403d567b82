package lint

import (
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file tells a build.rs that only builds from one that does more:
// cargo runs it at every build, so it is an auto-exec warning unless all
// it does is start build tools and call build crates.

// buildRsCommand matches a process a build.rs starts, capturing what
// names the program.
var buildRsCommand = &lazyre.RE{Expr: `Command::new\s*\(\s*([^)]*)\)`}

// buildRsReach matches what in a build.rs reaches past the source tree
// and cargo: the network, a file written or removed, the home folder, a
// shell, foreign code.
var buildRsReach = &lazyre.RE{Expr: `\b(?:std::net|TcpStream|UdpSocket|reqwest|ureq|hyper|curl|attohttpc|fs::write|File::create|OpenOptions|` +
	`remove_file|remove_dir|set_permissions|home_dir|"HOME"|"USERPROFILE"|unsafe|extern\s+"C"|include_bytes!|libloading|sh\b|bash\b|cmd\.exe|powershell)`}

// buildPrograms are the programs a build.rs may start and still only
// build: git (asking about the source tree; gitWriteQuoted is not), the
// compilers and assemblers, and the code generators that write sources
// from the crate's own schemas. A build system of its own (make, cmake),
// whose scripts this does not read, is not one.
var buildPrograms = []string{"git", "rustc", "protoc", "pkg-config", "cc", "c++", "gcc", "g++", "clang", "clang++", "cl", "cl.exe",
	"nasm", "yasm", "ar", "llvm-ar", "llvm-config", "flatc", "capnp", "glib-compile-resources", "windres", "rc.exe", "xcrun", "lipo"}

// buildToolVars are the variables cargo or the build crates name a tool
// by (RUSTC, CC, PROTOC, …): a program taken from one, falling back to a
// literal, is the tool.
var buildToolVars = []string{"RUSTC", "CC", "CXX", "AR", "PROTOC", "PKG_CONFIG", "NASM", "LLVM_CONFIG", "FLATC", "CLANG"}

// buildCrates are the crates whose calls in a build.rs compile or
// generate code from the crate's own sources (cc, prost_build,
// tonic_build, bindgen, …) or read the toolchain's version.
var buildCrates = []string{"cc", "prost_build", "tonic_build", "tonic_prost_build", "bindgen", "pkg_config", "vcpkg", "autocfg",
	"rustc_version", "version_check", "built", "vergen", "shadow_rs", "cfg_aliases", "winres", "winresource", "embed_resource",
	"protobuf_codegen", "protoc_bin_vendored", "capnpc", "lalrpop", "napi_build", "pyo3_build_config", "cbindgen", "cxx_build", "glib_build_tools", "tauri_build"}

// rustRoot matches the first name of a path (env::var, cc::Build::new),
// not a method's turbofish (.parse::<i64>); rustUse a use declaration,
// capturing what it brings in; rustFn a function's name and parameters.
var (
	rustRoot = &lazyre.RE{Expr: `(?:^|[^\w:.])([a-z_][a-z0-9_]*)::`}
	rustUse  = &lazyre.RE{Expr: `(?m)^\s*(?:pub\s+)?use\s+([^;]+);`}
	rustFn   = &lazyre.RE{Expr: `\bfn\s+(\w+)\s*(?:<[^>(]*>)?\s*\(([^)]*)\)`}
)

// buildRsOnly returns what a build.rs does when all of it is building, or
// "": every process it starts is one of buildPrograms, named by a literal,
// by a variable bound to a tool's variable with a literal fallback, or by
// a helper's parameter every call gives so; every crate it calls is the
// standard library or one of buildCrates; and nothing reaches past the
// source tree and cargo (buildRsReach, gitWriteQuoted).
func buildRsOnly(text string) string {
	writes := outDirWrites(text)
	if buildRsReach.MatchString(writes) || gitWriteQuoted.MatchString(text) {
		return ""
	}
	code := rustCode(text)
	crates, ok := rustCrates(code)
	if !ok {
		return ""
	}
	cmds := buildRsCommand.FindAllStringSubmatch(text, maxBuildCommands+1)
	if len(cmds) > maxBuildCommands {
		return "" // more processes than a build script starts: read no further
	}
	var progs []string
	for _, m := range cmds {
		p, ok := rustPrograms(text, m[1], 0)
		if !ok {
			return ""
		}
		for _, q := range p {
			if !slices.Contains(progs, q) {
				progs = append(progs, q)
			}
		}
	}
	switch {
	case len(progs) == 0 && len(crates) == 0 && writes != text:
		return "it only writes generated code into cargo's OUT_DIR"
	case len(progs) == 0 && len(crates) == 0:
		return ""
	case len(crates) == 0 && len(progs) == 1 && progs[0] == "git":
		return "it only asks git about the source tree (a commit, a tag, a date)"
	}
	what := "it only builds:"
	if len(progs) > 0 {
		what += " build tools (" + strings.Join(progs, ", ") + ")"
	}
	if len(crates) > 0 {
		if len(progs) > 0 {
			what += " and"
		}
		what += " build crates (" + strings.Join(crates, ", ") + ")"
	}
	return what
}

// maxBuildCommands bounds the processes and writes of a build script
// (build.rs, setup.py) whose names the text is searched for: each costs a
// pass over the text, so past it the script is not read as one that only
// builds, and the work stays linear in its size.
const maxBuildCommands = 32

// outDirWrites returns text with each file write into cargo's OUT_DIR
// blanked (fs::write(out_dir.join("tables.rs"), code), File::create of
// a path under it): generated code is what a build script writes, and
// cargo gives it that folder for it. A write elsewhere stays.
func outDirWrites(text string) string {
	var b strings.Builder
	n := 0
	for rest := text; ; n++ {
		if n == maxBuildCommands {
			b.WriteString(rest) // the rest as it is: a write there stays a reach
			return b.String()
		}
		i := strings.Index(rest, "fs::write(")
		if j := strings.Index(rest, "File::create("); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		open := i + strings.IndexByte(rest[i:], '(')
		end := closeParen(rest[open:])
		if end < 0 {
			b.WriteString(rest)
			return b.String()
		}
		args := splitTop(rest[open+1 : open+end])
		b.WriteString(rest[:i])
		if len(args) > 0 && outDirPath(text, args[0]) {
			b.WriteString(strings.Repeat(" ", open+end+1-i))
		} else {
			b.WriteString(rest[i : open+end+1])
		}
		rest = rest[open+end+1:]
	}
}

// outDirPath reports whether a path expression of a build.rs is under
// cargo's OUT_DIR: it reads env::var("OUT_DIR") itself, or starts from a
// name that a let binds to an expression that does.
func outDirPath(text, arg string) bool {
	if strings.Contains(arg, `"OUT_DIR"`) {
		return true
	}
	name := strings.TrimLeft(strings.TrimSpace(arg), "&*")
	if i := strings.IndexFunc(name, func(r rune) bool { return r > 0x7f || !isIdentByte(byte(r)) }); i >= 0 {
		name = name[:i]
	}
	expr, ok := rustLet(text, name)
	return ok && name != "" && strings.Contains(expr, `"OUT_DIR"`)
}

// rustCrates returns the crates a build.rs's code (rustCode: comments
// and strings blanked) calls beyond the standard library, and whether
// each is one of buildCrates. A name a use declaration brings in (env
// from use std::env) is not a crate.
func rustCrates(code string) ([]string, bool) {
	local := map[string]bool{"std": true, "core": true, "alloc": true, "crate": true, "self": true, "super": true}
	for _, t := range []string{"i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64", "bool", "char", "str"} {
		local[t] = true // a primitive type's associated items (i64::MAX)
	}
	var crates []string
	add := func(root string) bool {
		if local[root] || slices.Contains(crates, root) {
			return true
		}
		if !slices.Contains(buildCrates, root) {
			return false
		}
		crates = append(crates, root)
		return true
	}
	for _, m := range rustUse.FindAllStringSubmatch(code, -1) {
		path := strings.TrimPrefix(strings.TrimSpace(m[1]), "::")
		root, _, _ := strings.Cut(path, "::")
		if !add(strings.TrimSpace(root)) {
			return nil, false
		}
		for _, item := range strings.FieldsFunc(path, func(r rune) bool { return r == ',' || r == '{' || r == '}' }) {
			item = strings.TrimSpace(item)
			if i := strings.LastIndex(item, " as "); i >= 0 {
				item = item[i+4:]
			}
			if i := strings.LastIndex(item, "::"); i >= 0 {
				item = item[i+2:]
			}
			local[strings.TrimSpace(item)] = true
		}
	}
	code = rustUse.Regexp().ReplaceAllStringFunc(code, func(u string) string { return strings.Repeat(" ", len(u)) }) // read above
	for _, m := range rustRoot.FindAllStringSubmatch(code, -1) {
		if !add(m[1]) {
			return nil, false
		}
	}
	return crates, true
}

// rustPrograms returns the programs the argument expression arg of a
// Command::new in text names, and whether each is known: a literal, a
// name bound by let to a literal or a tool's variable (buildToolVars)
// whose fallbacks are literals, or a parameter of a function every call
// of which gives such an argument. depth bounds the helpers followed.
func rustPrograms(text, arg string, depth int) ([]string, bool) {
	arg = strings.TrimSpace(arg)
	arg = strings.TrimLeft(arg, "&*")
	for _, suf := range []string{".as_str()", ".clone()", ".as_ref()", ".to_string()", ".as_os_str()"} {
		arg = strings.TrimSuffix(arg, suf)
	}
	if lit, ok := plainLiteral(arg, `"`); ok {
		return []string{lit}, slices.Contains(buildPrograms, lit)
	}
	if !isIdent(arg) || depth > 2 {
		return nil, false
	}
	if expr, ok := rustLet(text, arg); ok {
		return toolBinding(expr)
	}
	var out []string
	for _, m := range rustFn.FindAllStringSubmatchIndex(text, -1) {
		params := splitTop(text[m[4]:m[5]])
		at := slices.IndexFunc(params, func(p string) bool {
			name, _, _ := strings.Cut(p, ":")
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "mut ")) == arg
		})
		if at < 0 {
			continue
		}
		fn := text[m[2]:m[3]]
		calls := 0
		for _, args := range rustCalls(text, fn) {
			if at >= len(args) {
				return nil, false
			}
			p, ok := rustPrograms(text, args[at], depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, p...)
			calls++
		}
		return out, calls > 0
	}
	return nil, false
}

// toolBinding returns the programs a let binding's expression names: each
// string literal in it is a tool's variable (env::var("RUSTC")) or a
// program, all of them buildPrograms, and at least one program.
func toolBinding(expr string) ([]string, bool) {
	var progs []string
	for rest := expr; ; {
		i := strings.IndexByte(rest, '"')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i+1:], '"')
		if j < 0 {
			return nil, false
		}
		lit := rest[i+1 : i+1+j]
		rest = rest[i+2+j:]
		switch {
		case slices.Contains(buildToolVars, lit):
		case slices.Contains(buildPrograms, lit):
			progs = append(progs, lit)
		default:
			return nil, false
		}
	}
	return progs, len(progs) > 0
}

// rustLet returns the expression a let statement binds name to in text,
// up to its semicolon.
func rustLet(text, name string) (string, bool) {
	for off := 0; ; {
		i := strings.Index(text[off:], "let ")
		if i < 0 {
			return "", false
		}
		off += i + 4
		rest := strings.TrimPrefix(text[off:], "mut ")
		if !strings.HasPrefix(rest, name) {
			continue
		}
		rest = strings.TrimLeft(rest[len(name):], " \t")
		if strings.HasPrefix(rest, ":") {
			if k := strings.IndexByte(rest, '='); k >= 0 {
				rest = rest[k:]
			}
		}
		if !strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "==") {
			continue
		}
		end := strings.IndexByte(rest, ';')
		if end < 0 {
			return "", false
		}
		return rest[1:end], true
	}
}

// rustCalls returns the arguments of every call of the function fn in
// text (not its declaration), split at their top-level commas.
func rustCalls(text, fn string) [][]string {
	var out [][]string
	for off := 0; ; {
		i := strings.Index(text[off:], fn)
		if i < 0 {
			return out
		}
		at := off + i
		off = at + len(fn)
		if at > 0 && (isIdentByte(text[at-1]) || text[at-1] == '.') || off < len(text) && isIdentByte(text[off]) {
			continue
		}
		if strings.HasSuffix(strings.TrimRight(text[:at], " \t"), "fn") {
			continue // the declaration
		}
		rest := strings.TrimLeft(text[off:], " \t")
		if !strings.HasPrefix(rest, "(") {
			continue
		}
		if end := closeParen(rest); end > 0 {
			out = append(out, splitTop(rest[1:end]))
		}
	}
}

// closeParen returns the index of the parenthesis that closes the one s
// starts with, or -1, past string literals.
func closeParen(s string) int {
	end := -1
	brackets(s, func(i, depth int) bool {
		if depth == 0 && (s[i] == ')' || s[i] == ']' || s[i] == '}') {
			end = i
			return false
		}
		return true
	})
	return end
}

// splitTop splits s at its commas outside brackets and strings.
func splitTop(s string) []string {
	var out []string
	start := 0
	brackets(s, func(i, depth int) bool {
		if depth == 0 && s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
		return true
	})
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

// brackets calls fn with each byte of s outside string literals and the
// depth of brackets after it (an opening one counted, a closing one taken
// off), until fn returns false.
func brackets(s string, fn func(i, depth int) bool) {
	depth, str := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case str && c == '\\':
			i++
			continue
		case c == '"':
			str = !str
			continue
		case str:
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		}
		if !fn(i, depth) {
			return
		}
	}
}

// rustCode returns text with its comments and the contents of its string
// literals blanked, so that a path in a string (cargo:rustc-env=A::B) or
// a comment is not read as code.
func rustCode(text string) string {
	b := []byte(text)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			for ; i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/'); i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			if i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
			}
		case b[i] == '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' && i+1 < len(b) {
					b[i] = ' '
					i++
				}
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
		}
	}
	return string(b)
}

// cargoDirective matches a build.rs line that only tells cargo something:
// when to rerun, a library to link by name, a cfg or an environment value
// for the crate. Nothing runs, no file is read or written, and no linker
// argument or search path (which could bring in code) is set.
var cargoDirective = &lazyre.RE{Expr: `^println!\(\s*"cargo::?(?:rerun-if-changed|rerun-if-env-changed|rustc-link-lib|rustc-cfg|rustc-check-cfg|rustc-env|warning)=[^"{}\\]*"\s*\);$`}

// cargoDirectivesOnly reports a build.rs whose main only prints cargo
// directives: it runs cargo's own bookkeeping and nothing of the skill's.
// Any other statement, helper function or use line keeps it an auto-exec
// warning.
func cargoDirectivesOnly(s *scan) bool {
	body := false
	for i := range s.lines() {
		l := strings.TrimSpace(s.line(i))
		switch {
		case l == "" || strings.HasPrefix(l, "//"):
		case !body && l == "fn main() {":
			body = true
		case body && l == "}":
			body = false
		case body && cargoDirective.MatchString(l):
		default:
			return false
		}
	}
	return !body
}
