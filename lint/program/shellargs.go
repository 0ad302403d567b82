package program

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"mvdan.cc/sh/v3/syntax"
)

// This file holds the questions the shell analysis asks of a command's
// arguments (a literal, a flag, the first file, the last URL) and of the
// names they give (a disk device, a rot13 table). They read values only.

// has reports whether args hold the literal s.
func has(args []value, s string) bool {
	for _, a := range args {
		if a.known && a.s == s {
			return true
		}
	}
	return false
}

// hasFlag reports whether a short-option cluster (-xd) holds c.
func hasFlag(args []value, c byte) bool {
	for _, a := range args {
		if a.known && len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' && strings.IndexByte(a.s[1:], c) >= 0 {
			return true
		}
	}
	return false
}

// firstFile returns the first argument that is no option.
func firstFile(args []value) *value {
	for i := range args {
		if !(args[i].known && strings.HasPrefix(args[i].s, "-")) {
			return &args[i]
		}
	}
	return nil
}

// lastURL returns the last argument that is a URL.
func lastURL(args []value) string {
	u := ""
	for _, a := range args {
		if strings.Contains(a.s, "://") {
			u = a.s
		}
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return u
}

// firstFiles returns the arguments that are no option.
func firstFiles(args []value) []value {
	var out []value
	for _, a := range args {
		if !(a.known && strings.HasPrefix(a.s, "-")) {
			out = append(out, a)
		}
	}
	return out
}

// splitFields returns the words the shell splits the word w into, whose
// value is v, when w is one unquoted expansion of a value the analysis
// knows that holds blanks (fetch="curl -fsSL"; $fetch URL, as a Makefile's
// $(FETCH) becomes): nil for any other word, which stays one.
func splitFields(w *syntax.Word, v value) []value {
	if len(w.Parts) != 1 || !v.known || !strings.ContainsAny(v.s, " \t") {
		return nil
	}
	if _, ok := w.Parts[0].(*syntax.ParamExp); !ok {
		return nil
	}
	var out []value
	for _, f := range strings.Fields(v.s) {
		x := lit(f)
		x.t |= v.t &^ (tKnownHead | tHostHead | tNamed)
		out = append(out, x)
	}
	return out
}

// loopOfImage reports losetup's words attaching a file that is not a
// device (losetup --find --show disk.img): what it prints is a loop
// device backed by that file, not a disk.
func loopOfImage(rest []value) bool {
	file := false
	for _, a := range rest {
		switch {
		case !a.known && a.t&tDevice != 0:
			return false
		case a.known && strings.HasPrefix(a.s, "-"):
		case a.known && strings.HasPrefix(a.s, "/dev/"):
			return false
		default:
			file = true
		}
	}
	return file && (has(rest, "--show") || has(rest, "--find") || hasFlag(rest, 'f'))
}

// isDisk reports a block device.
func isDisk(p string) bool {
	for _, d := range []string{"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk", "/dev/disk", "/dev/rdisk"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// isRot13 reports tr sets that rotate by 13.
func isRot13(a, b string) bool {
	a, b = strings.Trim(a, `'"[]`), strings.Trim(b, `'"[]`)
	return strings.Contains(a, "a-z") && (strings.Contains(b, "n-za-m") || strings.Contains(b, "N-ZA-M")) ||
		strings.Contains(a, "A-Z") && strings.Contains(b, "N-ZA-M")
}

// optionIs reports whether the option opt is given the value val as the
// next argument.
func optionIs(args []value, opt, val string) bool {
	for i := 0; i+1 < len(args); i++ {
		if args[i].known && args[i].s == opt {
			return args[i+1].known && args[i+1].s == val
		}
	}
	return false
}

// base returns the command name of a value: the last element of a path.
func cmdName(v value) string {
	if !v.known {
		return ""
	}
	n := path.Base(strings.ReplaceAll(v.s, `\`, "/"))
	return strings.TrimSuffix(strings.ToLower(n), ".exe")
}

// interpreters maps an interpreter to the language it runs and the option
// that gives it code as an argument.
var interpreters = lazy.Value[map[string]struct{ lang, opt string }]{New: func() map[string]struct{ lang, opt string } {
	return map[string]struct{ lang, opt string }{
		"sh": {langShell, "-c"}, "bash": {langShell, "-c"}, "zsh": {langShell, "-c"}, "dash": {langShell, "-c"},
		"ksh": {langShell, "-c"}, "ash": {langShell, "-c"}, "fish": {langShell, "-c"},
		"python": {langPython, "-c"}, "python2": {langPython, "-c"}, "python3": {langPython, "-c"},
		"node": {langJS, "-e"}, "nodejs": {langJS, "-e"}, "bun": {langJS, "-e"}, "deno": {langJS, "eval"},
		"perl": {langPerl, "-e"}, "ruby": {langRuby, "-e"}, "php": {langPerl, "-r"},
		"pwsh": {langPS, "-c"}, "powershell": {langPS, "-c"},
	}
}}

func interpreter(name string) (lang, opt string, ok bool) {
	if i, ok := interpreters.Get()[name]; ok {
		return i.lang, i.opt, true
	}
	if strings.HasPrefix(name, "python") && strings.Trim(name[6:], "0123456789.") == "" {
		return langPython, "-c", true
	}
	return "", "", false
}

// joinArgs joins arguments with spaces, as eval does.
func joinArgs(args []value) value {
	vs := make([]value, 0, 2*len(args))
	for i, a := range args {
		if i > 0 {
			vs = append(vs, lit(" "))
		}
		vs = append(vs, a)
	}
	v := cat(vs...)
	if len(args) > 1 {
		v.t &^= tBuilt
		for _, a := range args {
			v.t |= a.t & tBuilt
		}
	}
	return v
}

// platformOnly reports whether uname's arguments ask only for the
// platform: the kernel's, the machine's, the processor's or the system's
// name (none, -s, -m, -p, -o, -i and their long forms, -sm), the names an
// installer picks its download by, not the host's name (-n, -a) or its
// kernel's release and build (-r, -v).
func platformOnly(args []value) bool {
	for _, a := range args {
		if !a.known {
			return false
		}
		switch a.s {
		case "--kernel-name", "--machine", "--processor", "--operating-system", "--hardware-platform":
			continue
		}
		if len(a.s) < 2 || a.s[0] != '-' || strings.Trim(a.s[1:], "smpoi") != "" {
			return false
		}
	}
	return true
}

// archiveOperands returns an archiver's words with each name given after
// tar's -C DIR (--directory DIR, --directory=DIR) joined to DIR, which is
// where tar reads it from: tar cz -C "$HOME" .ssh archives ~/.ssh.
func archiveOperands(name string, rest []value) []value {
	if name != "tar" {
		return rest
	}
	out := make([]value, 0, len(rest))
	var dir value
	for k := 0; k < len(rest); k++ {
		a := rest[k]
		switch {
		case a.known && (a.s == "-C" || a.s == "--directory") && k+1 < len(rest):
			k++
			dir = rest[k]
			continue
		case strings.HasPrefix(a.s, "--directory="):
			dir = a
			dir.s = strings.TrimPrefix(a.s, "--directory=")
			continue
		case dir != (value{}) && a.s != "" && !strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "/") && !strings.HasPrefix(a.s, homeMark):
			a = cat(dir, lit("/"), a)
		}
		out = append(out, a)
	}
	return out
}

// revParse returns the path git rev-parse prints for its arguments (after
// rev-parse): --git-path X is .git/X, --git-dir and --git-common-dir .git;
// the shell analysis and a program running the command (execSync,
// check_output) share it, so a hook path asked of git is a hook path.
func revParse(args []string) (value, bool) {
	for i, a := range args {
		if a == "--git-path" && i+1 < len(args) {
			return value{s: ".git/" + args[i+1], known: true, t: tBuilt}, true
		}
		if a == "--git-dir" || a == "--git-common-dir" {
			return value{s: ".git", known: true, t: tBuilt}, true
		}
	}
	return value{}, false
}

// commandOutput returns what a command line a program runs prints, when
// the analysis knows it: git rev-parse's paths.
func commandOutput(cmd value) (value, bool) {
	if !cmd.known {
		return value{}, false
	}
	w := strings.Fields(cmd.s)
	if len(w) < 2 || cmdName(lit(w[0])) != "git" {
		return value{}, false
	}
	w = w[1:]
	for len(w) > 1 && (w[0] == "-C" || w[0] == "-c") {
		w = w[2:] // git -C dir, -c k=v
	}
	if len(w) == 0 || w[0] != "rev-parse" {
		return value{}, false
	}
	return revParse(w[1:])
}

// dnsCarries reports a host name to look up that carries data: not known
// whole, part of it a command's output, a secret, the environment or
// something decoded, under a domain of two labels or more. One rule for
// dig and nslookup in the shell and for a program's resolver calls
// (socket.gethostbyname, dns.lookup, Resolv.getaddress).
func dnsCarries(a value) bool {
	return !a.known && a.t&(tCmd|tSecret|tEnv|tDecoded) != 0 && strings.Count(strings.TrimPrefix(a.s, "."), ".") >= 1
}

// caseModified applies bash's ${v^}, ${v^^}, ${v,} and ${v,,} to s.
func caseModified(s string, op syntax.ParExpOperator) string {
	if s == "" {
		return s
	}
	switch op {
	case syntax.UpperAll:
		return strings.ToUpper(s)
	case syntax.LowerAll:
		return strings.ToLower(s)
	case syntax.UpperFirst:
		return strings.ToUpper(s[:1]) + s[1:]
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// dqUnescape removes the backslashes that quote a character inside
// double quotes: before $, `, ", \ and a line break (which it joins);
// any other backslash stays, as the shell keeps it.
func dqUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
