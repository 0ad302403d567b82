package program

import (
	"path"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file is what the shell analysis (shell.go, shellsinks.go) knows of commands
// that change files and repositories: copies and moves, chmod, rm, find,
// and git (pushes, remotes, configuration that runs a command).

// copy walks cp, mv, install, ln, rsync: the last argument receives the
// others.
func (st *shellState) copy(name string, rest []value, at int) {
	var files []value
	exec := name == "install" // install gives its files mode 0755 unless -m says otherwise
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if name == "install" && a.known && (a.s == "-m" || a.s == "--mode") && i+1 < len(rest) {
			exec = modeExec(rest[i+1].s)
			i++
			continue
		}
		if !(a.known && strings.HasPrefix(a.s, "-")) {
			files = append(files, a)
		}
	}
	if len(files) < 2 {
		return
	}
	dst := files[len(files)-1]
	var holds value
	var from *shFile // the download copied, whose source and check the copy keeps
	if f, ok := st.files[fileKey(files[0])]; ok && len(files) == 2 && f.own != "" && f.own == fileKey(dst) && (name == "mv" || name == "cp") {
		// the user's own file with lines left out and lines added, put back:
		// what was added is what it now holds new
		st.wrote(dst, f.body(), at)
		return
	}
	if src := files[0]; len(files) == 2 && (name == "mv" || name == "cp") && st.files[fileKey(src)] == nil && st.fileContent(src).t == 0 &&
		dst.s != "" && strings.HasPrefix(src.s, dst.s) && otherName(src.s, len(dst.s), dst.s) {
		st.wrote(dst, lit(""), at) // mv "$hook.bak" "$hook": the file's own backup put back, nothing new
		return
	}
	for _, src := range files[:len(files)-1] {
		c := st.fileContent(src)
		holds.t |= c.t
		if c.t&tSecret != 0 && sameFolder(src, dst) {
			st.readSecret(src, at) // a backup beside it reads nothing out, unless the backup is sent on
		}
		if c.t&tSecret != 0 && !sameFolder(src, dst) {
			st.s.escape(st.readSecret(src, at)) // copied out whole
			if !strings.HasPrefix(normPath(dst.s), homeMark) && !strings.HasPrefix(dst.s, "/") || strings.HasPrefix(dst.s, "./") {
				st.staged = true // a secret copied into the working folder
			}
		}
		if f, ok := st.files[fileKey(src)]; ok && (f.exec || exec) {
			holds.t |= tFetched & f.holds
			if f.holds&tFetched != 0 {
				from = f
			}
		} else if !ok && (src.t&tShipped != 0 || bareRelative(src) && st.s.roles&codeKinds == 0) {
			// A file of the skill's, read on its own: by its folder, or
			// named relatively in instructions (scripts/pre-commit), as
			// SKILL.md names the skill's files.
			holds.t |= tShipped
		}
	}
	if name == "scp" || name == "rsync" && strings.Contains(dst.s, ":") {
		st.send(holds, at)
		return
	}
	st.wrote(dst, holds, at)
	if d := st.files[fileKey(dst)]; d != nil && from != nil {
		d.src, d.verified, d.pinned = from.src, from.verified, from.pinned
		d.exec = d.exec || exec
	}
}

// lineFilter returns the file (fileKey) a command (its words) prints with some of
// its lines left out and nothing added, or "": grep -v PATTERN FILE, sed
// of only /…/d and /…/,/…/d commands, awk whose program only skips lines
// and prints them whole (no string, no output of its own, no command; its
// -v variables only compared with).
func (st *shellState) lineFilter(args []value) string {
	if len(args) < 3 {
		return ""
	}
	for _, a := range args[:len(args)-1] {
		if !a.known {
			return ""
		}
	}
	file := args[len(args)-1]
	if st.fileContent(file).t != 0 {
		return "" // a secret, a download: what it holds is read as ever
	}
	var ops []string
	for _, a := range args[1 : len(args)-1] {
		ops = append(ops, a.s)
	}
	switch args[0].s {
	case "grep":
		inverted := false
		for _, o := range ops {
			if o == "--invert-match" || strings.HasPrefix(o, "-") && !strings.HasPrefix(o, "--") && strings.Contains(o, "v") {
				inverted = true
			}
		}
		if !inverted {
			return ""
		}
	case "sed":
		for i, o := range ops {
			if o == "-e" || o == "-E" || o == "-r" {
				continue
			}
			if strings.HasPrefix(o, "-") || !sedDeletes.MatchString(o) || i > 0 && ops[i-1] != "-e" && ops[i-1] != "-E" && ops[i-1] != "-r" {
				return ""
			}
		}
	case "awk":
		for len(ops) >= 3 && ops[0] == "-v" {
			ops = ops[2:] // -v name=value: a variable the program compares lines with
		}
		if len(ops) != 1 || !awkSkips(ops[0]) {
			return ""
		}
	default:
		return ""
	}
	return fileKey(file)
}

// sedDeletes matches a sed script of only line deletions by address:
// /start/,/end/d, /pattern/d.
var sedDeletes = &lazyre.RE{Expr: `^(?:\s*/(?:[^/\\\n]|\\.)*/(?:\s*,\s*/(?:[^/\\\n]|\\.)*/)?\s*d\s*;?)+$`}

// awkSkips reports an awk program that only decides which lines to print
// and prints them whole: no string of its own, no command, no
// print of anything but the line.
func awkSkips(prog string) bool {
	if strings.Contains(prog, `"`) || strings.Contains(prog, "system") || strings.Contains(prog, "getline") || strings.Contains(prog, "printf") {
		return false
	}
	for rest := prog; ; {
		i := strings.Index(rest, "print")
		if i < 0 {
			return true
		}
		rest = strings.TrimLeft(rest[i+len("print"):], " \t")
		if !strings.HasPrefix(rest, "}") && !strings.HasPrefix(rest, ";") && !strings.HasPrefix(rest, "$0") && rest != "" {
			return false
		}
	}
}

// readFiles walks a command that prints files it reads, or its input
// (cat, grep, sed, jq …): what it prints carries what they hold, and a
// filter that prints only names, a count or a yes of a secret store
// prints its structure.
func (st *shellState) readFiles(name string, rest []value, stdin value, at int) value {
	if name == "grep" && hasFlag(rest, 'v') && stdin.id != 0 && slices.Contains(st.cronLists, stdin.id) && len(firstFiles(rest)) <= 1 {
		return stdin // the user's crontab, lines left out
	}
	out := taintOf(tSecret|tEnv|tFetched|tDecoded|tDevice, stdin)
	out.t |= tCmd
	if stdin.known && (name == "cat" || name == "sort" || name == "uniq") || name == "cat" && stdin.s != "" {
		out = stdin // cat prints its input as it is, the parts the analysis sees included
	}
	for i, a := range rest {
		if a.known && strings.HasPrefix(a.s, "-") || name == "awk" || name == "sed" || name == "grep" || name == "jq" || name == "yq" {
			if i == 0 && (name == "awk" || name == "sed" || name == "grep" || name == "jq" || name == "yq") {
				continue
			}
			if a.known && strings.HasPrefix(a.s, "-") {
				continue
			}
		}
		c := st.readSecret(a, at)
		j := taintOf(tSecret, out, c)
		out.store, out.shape = j.store, j.shape
		out.t |= c.t
	}
	if quietFilter(name, rest) && (out.t&tSecret == 0 || name == "grep" || out.shape == shapeFile || out.shape == shapeFileKV) {
		return structure(out) // names, a count, a yes or no of the store (JSON the script made is not the store)
	}
	return out
}

// archive walks tar, zip and the like: a secret file or the home folder
// archived is read whole, and the archive zip writes holds it.
func (st *shellState) archive(name string, rest []value, at int) value {
	var in taint
	for _, a := range archiveOperands(name, rest) {
		if a.path == pathSecret || classifyPath(a) == pathSecret || a.path == pathHome {
			in |= tSecret
			st.s.escape(st.readSecret(a, at)) // archived whole
		}
	}
	if name == "zip" && len(rest) > 0 {
		if f := firstFile(rest); f != nil {
			st.wrote(*f, value{t: in}, at)
		}
	}
	return value{t: tCmd | in}
}

// modeExec reports whether a file mode (0755, u+x, a=rx) makes a file
// executable by its owner.
func modeExec(mode string) bool {
	if strings.Trim(mode, "01234567") == "" && len(mode) >= 3 {
		return (mode[len(mode)-3]-'0')&1 == 1
	}
	return strings.Contains(mode, "x")
}

// InRepo reports a relative folder that stays inside the working tree: no
// variable, home, root or "..". The line rules ask it too, so that a
// command in prose and one in a parsed block are graded alike.
func InRepo(p string) bool {
	c := path.Clean(p)
	return p != "" && !strings.ContainsAny(p, "$~`\\") && !path.IsAbs(c) && c != "." && c != ".." && !strings.HasPrefix(c, "../")
}

// sameFolder reports whether b names a file in a's folder (a backup of a
// key file beside it): both strings seen at least up to their folder.
func sameFolder(a, b value) bool {
	pa, pb := normPath(a.s), normPath(b.s)
	return strings.Contains(pa, "/") && strings.Contains(pb, "/") && !strings.HasSuffix(pb, "/") &&
		path.Dir(pa) == path.Dir(pb) && (a.known || a.t&tKnownHead != 0 || a.t&tHome != 0) &&
		(b.known || b.t&(tKnownHead|tHome) != 0)
}

// chmod walks chmod: executable bits, world-writable trees.
func (st *shellState) chmod(rest []value, at int) {
	recursive := has(rest, "-R") || has(rest, "--recursive") || hasFlag(rest, 'R')
	var mode string
	for _, a := range rest {
		if !strings.HasPrefix(a.s, "-") || !a.known {
			if mode == "" && a.known {
				mode = a.s
				continue
			}
			if modeExec(mode) {
				if f, ok := st.files[fileKey(a)]; ok {
					f.exec = true
				}
			}
		}
	}
	m := strings.ToLower(mode)
	if recursive && (strings.Contains(m, "a+w") || strings.Contains(m, "o+w") || strings.Contains(m, "ugo+w") || m == "666" || m == "0666" || m == "a=rw" || m == "a+rw") {
		st.s.emit("world-writable", at, SeverityWarning, "")
	}
}

// find walks find … -delete or -exec rm -r from / or home.
func (st *shellState) find(rest []value, at int) {
	if len(rest) == 0 {
		return
	}
	del := false
	for i, a := range rest {
		if a.s == "-delete" || a.s == "-exec" && i+1 < len(rest) && (rest[i+1].s == "rm" || rest[i+1].s == "shred") {
			del = true
		}
	}
	if !del {
		return
	}
	switch classifyPath(rest[0]) {
	case pathRoot:
		st.s.emit("destructive-rm", at, SeverityError, "")
	case pathHome:
		st.s.emit("destructive-rm", at, SeverityWarning, "")
	}
}

// git walks git: force-pushes to a main branch, pushes of staged secrets,
// configuration that makes git run a command.
func (st *shellState) git(rest []value, at int) value {
	// Skip global options: -C dir, -c k=v, --git-dir=…
	for len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") {
		if (rest[0].s == "-C" || rest[0].s == "-c") && len(rest) > 1 {
			if rest[0].s == "-c" {
				st.gitConfig(strings.SplitN(rest[1].s, "=", 2), at)
			}
			rest = rest[1:]
		}
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return value{}
	}
	sub, args := rest[0].s, rest[1:]
	switch sub {
	case "rev-parse":
		words := make([]string, len(args))
		for i, a := range args {
			words[i] = a.s
		}
		if v, ok := revParse(words); ok {
			return v
		}
	case "add":
		for _, a := range args {
			if p := classifyPath(value{s: a.s, known: a.known, t: a.t | tBuilt}); p == pathSecret || p == pathHome {
				st.staged = true
			}
		}
	case "remote":
		if len(args) >= 3 && args[0].s == "add" {
			st.remotes[args[1].s] = args[2].s
		}
	case "config":
		var kv []string
		for _, a := range args {
			if !strings.HasPrefix(a.s, "-") {
				kv = append(kv, a.s)
			}
		}
		st.gitConfig(kv, at)
	case "push":
		force := false
		mainRef := false
		var target string
		for _, a := range args {
			s := a.s
			switch {
			case s == "-f" || s == "--force" || strings.HasPrefix(s, "--force-with-lease") || s == "--mirror":
				force = true
			case strings.HasPrefix(s, "-"):
			case target == "":
				target = s
			default:
				ref := strings.TrimPrefix(s, "+")
				if strings.HasPrefix(s, "+") {
					force = true
				}
				if _, dst, ok := strings.Cut(ref, ":"); ok {
					ref = dst
				}
				ref = strings.TrimPrefix(ref, "refs/heads/")
				if ref == "main" || ref == "master" || ref == "--all" {
					mainRef = true
				}
			}
		}
		if force && mainRef {
			st.s.emit("force-push", at, SeverityWarning, "")
		}
		_, added := st.remotes[target]
		if st.staged && (added || strings.Contains(target, "://") || strings.Contains(target, "@")) {
			st.s.emit("git-exfil", at, SeverityError, "")
		}
	}
	return value{}
}

// gitConfig reports a git setting that runs a command later.
func (st *shellState) gitConfig(kv []string, at int) {
	if len(kv) < 2 {
		return
	}
	k := strings.ToLower(kv[0])
	switch {
	case k == "core.hookspath" || k == "core.fsmonitor" || k == "core.sshcommand" || k == "core.pager" && strings.ContainsAny(kv[1], ";|&") ||
		strings.HasPrefix(k, "alias.") && strings.HasPrefix(kv[1], "!") || strings.HasPrefix(k, "filter.") || k == "diff.external" ||
		strings.HasPrefix(k, "credential.") && strings.HasPrefix(kv[1], "!"):
		sev := SeverityWarning
		if k == "core.hookspath" && InRepo(kv[1]) && st.s.roles&codeKinds == 0 {
			// Instructions pointing git at the repository's own committed
			// hooks folder (.githooks): what runs is the project's files,
			// in view (a write into such a folder is graded as one into
			// .git/hooks: persistNames).
			sev = SeverityNote
			st.s.graded = append(st.s.graded, Finding{Rule: "autorun-config", Off: at})
		} else if st.s.asked && plainCommand(lit(kv[1])) && !strings.HasPrefix(kv[1], "!") {
			// set after the user answered yes at the terminal, to a plain
			// command: theirs, as a write they agreed to is (scan.agreed)
			st.s.graded = append(st.s.graded, Finding{Rule: "autorun-config", Off: at})
			st.s.emit("autorun-config", at, SeverityNote, "git config "+kv[0]+" set after the user answered yes at the terminal")
			return
		}
		st.s.emit("autorun-config", at, sev, "git config "+kv[0])
	}
}
