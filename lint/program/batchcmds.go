package program

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file is what the batch analysis (batch.go, batchline.go) knows of
// commands: cmd.exe's own (set, echo, type, call, start, cmd /c, del, rd,
// copy), the Windows programs that download (certutil -urlcache, bitsadmin
// /transfer), run code from elsewhere (mshta, regsvr32 /i:) or make a later
// run (schtasks /create, reg add of an autorun key); every other command
// goes to the shell analysis's table (shellState.run: curl, powershell,
// git, …).

// batchNoops are cmd.exe's commands and the Windows programs that run
// nothing and read no file the analysis cares about.
var batchNoops = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"cls", "pause", "title", "color", "goto", "exit", "pushd", "popd", "cd", "chdir", "md", "mkdir",
		"setlocal", "endlocal", "shift", "ver", "vol", "prompt", "path", "where", "timeout", "choice", "verify", "break",
		"dir", "mklink", "attrib"} {
		m[n] = true
	}
	return m
}}

// command walks a command's text: cmd.exe's own, the programs this file
// knows, and the shell analysis's table for the rest.
func (b *batchState) command(text []bchar, stdin value, at int) value {
	t := 0
	for t < len(text) && isSpace(text[t]) {
		t++
	}
	text = text[t:]
	head, end := word(text, 0)
	low := strings.ToLower(head)
	// echo. echo: echo( print an empty line or what follows.
	if len(low) > 4 && strings.HasPrefix(low, "echo") && strings.IndexByte(".:(/\\[]+", low[4]) >= 0 {
		return b.echo(text[5:])
	}
	rest := text[min(end+1, len(text)):]
	switch strings.TrimSuffix(low, ".exe") {
	case "echo":
		if end >= len(text) {
			return value{}
		}
		if w := strings.ToLower(strings.TrimSpace(string(charsText(rest)))); w == "off" || w == "on" {
			return value{}
		}
		return b.echo(rest)
	case "set":
		return b.set(rest, stdin)
	}
	return b.program(text, stdin, at)
}

// echo returns what echo prints: its text as it is, quotes and all.
func (b *batchState) echo(rest []bchar) value {
	for len(rest) > 0 && isSpace(rest[len(rest)-1]) {
		rest = rest[:len(rest)-1]
	}
	return cat(b.valueOf(rest), lit("\n"))
}

// set walks set: NAME=value, "NAME=value", /a arithmetic, /p input.
func (b *batchState) set(rest []bchar, stdin value) value {
	for len(rest) > 0 && isSpace(rest[0]) {
		rest = rest[1:]
	}
	prompt := false
	for len(rest) > 1 && rest[0].c == '/' && rest[0].kind == bFile {
		switch rest[1].c | 0x20 {
		case 'a':
			b.arith(rest[2:])
			return value{}
		case 'p':
			prompt = true
		}
		rest = rest[2:]
		for len(rest) > 0 && isSpace(rest[0]) {
			rest = rest[1:]
		}
	}
	if len(rest) > 0 && rest[0].c == '"' && rest[0].kind == bFile {
		end := len(rest) - 1
		for end > 0 && !(rest[end].c == '"' && rest[end].kind == bFile) {
			end--
		}
		if end > 0 {
			rest = rest[1:end]
		} else {
			rest = rest[1:]
		}
	}
	eq := -1
	for i, c := range rest {
		if c.c == '=' && c.kind != bValue && c.kind != bRef {
			eq = i
			break
		}
	}
	if eq <= 0 {
		return otherSecret(tEnv | tCmd) // set alone prints the environment
	}
	name := strings.ToUpper(strings.TrimSpace(string(charsText(rest[:eq]))))
	val := rest[eq+1:]
	for len(val) > 0 && isSpace(val[len(val)-1]) {
		val = val[:len(val)-1]
	}
	switch {
	case prompt && stdin != (value{}):
		b.vars[name] = value{t: stdin.t | tUnknown} // set /p X=<file: its first line
	case prompt:
		b.vars[name] = unknown() // what the user types
	case len(val) == 0:
		b.vars[name] = lit("")
	default:
		b.vars[name] = b.valueOf(val)
	}
	return value{}
}

// arith walks set /a: each NAME=expression or NAME+=… takes a number.
func (b *batchState) arith(rest []bchar) {
	s := strings.Trim(string(charsText(rest)), ` "`)
	for _, part := range strings.Split(s, ",") {
		if name, _, ok := strings.Cut(part, "="); ok {
			name = strings.ToUpper(strings.TrimRight(strings.TrimSpace(name), "+-*/%&|^<>"))
			if name != "" {
				b.vars[name] = value{} // a number
			}
		}
	}
}

// program walks a command that is no line syntax of cmd.exe's: what its
// words do.
func (b *batchState) program(text []bchar, stdin value, at int) value {
	b.hops++ // call and start run the command after them: a chain of them is bounded
	defer func() { b.hops-- }()
	if b.hops > maxBatchDepth {
		return value{}
	}
	args := b.split(text, false) // as cmd.exe's own commands read them
	if len(args) == 0 {
		return value{}
	}
	head := args[0].v
	name := cmdName(head)
	b.runs(head, at)
	switch name {
	case "call":
		if len(args) < 2 || strings.HasPrefix(args[1].v.s, ":") {
			return value{} // a label of this file
		}
		return b.program(text[args[1].from:], stdin, at)
	case "start":
		rest := args[1:]
		if len(rest) > 0 && rest[0].quoted {
			rest = rest[1:] // the window's title
		}
		for len(rest) > 0 && isSwitch(rest[0].v) {
			if strings.EqualFold(rest[0].v.s, "/d") && len(rest) > 1 {
				rest = rest[1:]
			}
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return value{}
		}
		return b.program(text[rest[0].from:], stdin, at)
	case "cmd":
		for i, a := range args[1:] {
			if s := strings.ToLower(a.v.s); a.v.known && (s == "/c" || s == "/k" || s == "/r") {
				code := joinArgs(values(args[i+2:]))
				b.sh.s.gradeExec(code, at, false, true)
				b.sh.s.runLayer(code, langBatch, at)
				return value{t: tCmd}
			}
		}
		return value{t: tCmd}
	case "type":
		out := value{t: tCmd}
		for _, a := range args[1:] {
			if f, ok := b.written(a.v); ok {
				out = cat(out, f.body())
				continue
			}
			c := b.sh.readSecret(a.v, at)
			out.store = taintOf(tSecret, out, c).store
			out.t |= c.t
		}
		return out
	case "del", "erase", "rd", "rmdir":
		b.remove(args[1:], at)
		return value{}
	case "copy", "xcopy", "move", "robocopy":
		var files []value
		for _, a := range args[1:] {
			if !isSwitch(a.v) {
				files = append(files, a.v)
			}
		}
		if name == "robocopy" && len(files) > 2 {
			files = files[:2]
		}
		op := "cp"
		if name == "move" {
			op = "mv"
		}
		b.sh.copy(op, files, at)
		return value{}
	}
	if batchNoops.Get()[name] {
		return value{}
	}
	args = b.split(text, true) // a program's words, as the C runtime splits them
	if name == "findstr" || name == "find" {
		// Windows's grep: it prints the lines of its input or its files
		// that match (find is not Unix find).
		args[0].v = lit("grep")
	}
	switch name {
	case "certutil":
		return b.certutil(args[1:], at)
	case "bitsadmin":
		for i := 1; i+1 < len(args); i++ {
			if strings.Contains(args[i].v.s, "://") && !isSwitch(args[i+1].v) {
				if has(values(args), "/upload") {
					b.sh.send(b.sh.fileContent(args[i+1].v), at)
				} else {
					b.sh.wrote(args[i+1].v, value{t: tFetched}, at)
				}
				i++
			}
		}
		return value{t: tCmd}
	case "cscript", "wscript", "rundll32", "msiexec", "mshta", "regsvr32":
		// A script host, a DLL's entry point or an installer runs the file
		// it is given: one this file downloaded is run as much as by name.
		for _, a := range args[1:] {
			if !isSwitch(a.v) && !strings.HasPrefix(a.v.s, "//") {
				f := a.v
				if i := strings.IndexByte(f.s, ','); i > 0 && f.known {
					f = lit(f.s[:i]) // rundll32 x.dll,Entry
				}
				b.runs(f, at)
			}
		}
		if name != "mshta" && name != "regsvr32" {
			return value{t: tCmd}
		}
		for _, a := range args[1:] {
			if s := strings.ToLower(a.v.s); strings.Contains(s, "://") || strings.HasPrefix(s, "javascript:") || strings.HasPrefix(s, "vbscript:") {
				b.sh.s.emit("remote-exec", at, SeverityWarning, name+" runs code from "+excerptOf(a.v.s))
			}
		}
		return value{t: tCmd}
	case "wmic":
		for i, a := range args {
			if strings.EqualFold(a.v.s, "create") && i+1 < len(args) {
				code := joinArgs(values(args[i+1:]))
				b.sh.s.gradeExec(code, at, false, true)
				b.sh.s.runLayer(code, langBatch, at)
			}
		}
		return value{t: tCmd}
	case "schtasks":
		if has(values(args), "/create") || has(values(args), "/Create") || has(values(args), "/CREATE") {
			for i := 1; i+1 < len(args); i++ {
				if strings.EqualFold(args[i].v.s, "/tr") {
					b.gradeLater(args[i+1].chars, "schtasks /create", at)
					return value{t: tCmd}
				}
			}
		}
		return value{t: tCmd}
	case "reg":
		if len(args) > 2 && strings.EqualFold(args[1].v.s, "add") {
			var data []bchar
			name, dv := "", value{}
			for i := 3; i+1 < len(args); i++ {
				switch {
				case strings.EqualFold(args[i].v.s, "/d"):
					data, dv = args[i+1].chars, args[i+1].v
				case strings.EqualFold(args[i].v.s, "/v"):
					name = args[i+1].v.s
				}
			}
			if securityOff(args[2].v.s, name, dv.s) {
				b.sh.s.emit("security-off", at, SeverityWarning, "reg add "+name+": switches a protection off")
			}
			if !autorunKey(args[2].v.s, name) {
				return value{t: tCmd}
			}
			key := args[2].v.s
			if i := indexFold(key, `\CurrentVersion\`); i >= 0 {
				key = "…" + key[i:]
			}
			b.gradeLater(data, "reg add "+key, at)
		}
		return value{t: tCmd}
	}
	if name == "powershell" || name == "pwsh" {
		b.psDownloads(args[1:], at)
	}
	return b.sh.run(values(args), nil, nil, stdin, at)
}

// psSaves matches where a PowerShell command saves a download:
// Invoke-WebRequest -OutFile, Start-BitsTransfer -Destination, WebClient's
// DownloadFile(url, path). The path is the last group that matched.
var psSaves = &lazyre.RE{Expr: `(?i)-(?:outfile|destination)\s+(?:'([^']+)'|"([^"]+)"|([^\s;|)]+))|` +
	`\.downloadfile\(\s*(?:'[^']*'|"[^"]*"|[^,]*)\s*,\s*(?:'([^']+)'|"([^"]+)"|([^)\s]+))`}

// psDownloads records the files a powershell -Command string downloads:
// the analysis of its text as PowerShell is a layer of its own, and a
// later line of the batch file may run what it saved.
func (b *batchState) psDownloads(args []barg, at int) {
	for i, a := range args {
		if s := strings.ToLower(a.v.s); s != "-c" && s != "-command" || i+1 >= len(args) {
			continue
		}
		code := joinArgs(values(args[i+1:]))
		for _, m := range psSaves.Regexp().FindAllStringSubmatch(code.s, 16) {
			for k := len(m) - 1; k > 0; k-- {
				if m[k] != "" {
					b.sh.wrote(lit(m[k]), value{t: tFetched}, at)
					break
				}
			}
		}
		return
	}
}

// values returns the values of words.
func values(args []barg) []value {
	out := make([]value, len(args))
	for i, a := range args {
		out[i] = a.v
	}
	return out
}

// isSwitch reports a switch of a Windows command: /s, /Q, /y.
func isSwitch(v value) bool {
	return v.known && len(v.s) > 1 && len(v.s) <= 16 && v.s[0] == '/' && !strings.ContainsAny(v.s, `\.`)
}

// excerptOf shortens s for a finding's excerpt.
func excerptOf(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// runs reports running a file this region wrote: downloaded or decoded.
func (b *batchState) runs(head value, at int) {
	f, ok := b.written(head)
	if !ok {
		return
	}
	switch {
	case f.holds&tDecoded != 0:
		b.sh.s.emit("eval-decode", at, SeverityError, "")
	case f.holds&tFetched != 0:
		b.sh.s.emit("download-exec", at, SeverityWarning, "")
	}
}

// certutil walks certutil: -urlcache (and -verifyctl) download a URL to a
// file, -decode and -decodehex decode one file into another.
func (b *batchState) certutil(args []barg, at int) value {
	var opts, files []value
	for _, a := range args {
		if a.v.known && (strings.HasPrefix(a.v.s, "-") || strings.HasPrefix(a.v.s, "/")) && !strings.Contains(a.v.s, "://") {
			opts = append(opts, lit(strings.ToLower(a.v.s[1:])))
		} else {
			files = append(files, a.v)
		}
	}
	switch {
	case has(opts, "urlcache") || has(opts, "verifyctl"):
		for i, f := range files {
			if !strings.Contains(f.s, "://") {
				continue
			}
			dst := lit(path.Base(strings.ReplaceAll(lastURL([]value{f}), `\`, "/")))
			if i+1 < len(files) {
				dst = files[i+1]
			}
			b.sh.wrote(dst, value{t: tFetched}, at)
			return value{t: tCmd}
		}
	case (has(opts, "decode") || has(opts, "decodehex")) && len(files) >= 2:
		in := b.sh.fileContent(files[0])
		if f, ok := b.written(files[0]); ok {
			in = f.body()
		}
		b.sh.wrote(files[1], value{t: in.t | tDecoded}, at)
	}
	return value{t: tCmd}
}

// remove walks del and rd: with /s, of a drive's root, the home folder,
// a system folder, or a path that starts with a variable that may be empty.
func (b *batchState) remove(args []barg, at int) {
	recursive := false
	for _, a := range args {
		if isSwitch(a.v) && strings.Contains(strings.ToLower(a.v.s), "/s") {
			recursive = true
		}
	}
	if !recursive {
		return
	}
	for _, a := range args {
		if isSwitch(a.v) {
			continue
		}
		b.removeCheck(a, at)
	}
}

// removeCheck grades a recursive deletion of one path.
func (b *batchState) removeCheck(a barg, at int) {
	v := a.v
	p := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(normPath(v.s), "/*.*"), "/*"), "/")
	unsure := false // a part the analysis cannot see, which the file never tests
	for _, c := range a.chars {
		if c.kind == bValue && !b.vals[c.v].v.known && !b.tested[b.vals[c.v].name] {
			unsure = true
		}
	}
	switch {
	case v.known && (p == "" || p == "/" || len(p) == 2 && p[1] == ':' && isLetter(p[0])):
		b.sh.s.emit("destructive-rm", at, SeverityError, "deletes a drive's root")
	case v.known && p == homeMark, !v.known && unsure && classifyPath(v) == pathHome:
		b.sh.s.emit("destructive-rm", at, SeverityWarning, "")
	case v.known && systemFolder(p):
		b.sh.s.emit("destructive-rm", at, SeverityWarning, "deletes a system folder")
	case unsure && len(a.chars) > 0 && a.chars[0].kind == bValue:
		tail := b.valueOf(a.chars[1:])
		switch tail.s {
		case `\`, `\*`, `\*.*`, "/", "/*":
			if tail.known {
				b.sh.s.emit("destructive-rm", at, SeverityWarning, "deletes from the drive's root when the variable is empty")
			}
		}
	}
}

// systemFolder reports a folder of Windows itself or of every user (a
// normPath): deleting it breaks the machine.
func systemFolder(p string) bool {
	switch p {
	case "c:/windows", "c:/windows/system32", "c:/program files", "c:/program files (x86)", "c:/programdata", "c:/users":
		return true
	}
	return false
}

// gradeLater grades what a task or an autorun entry runs later (schtasks'
// /tr, a Run key's data), given as the characters of its command line: a
// program installed or shipped, or a script this file wrote with plain
// content, given plain arguments, is a note the line rules leave to this
// analysis; anything fetched, decoded, unseen, a PowerShell -Command or
// -EncodedCommand, is a warning.
func (b *batchState) gradeLater(cmd []bchar, what string, at int) {
	if b.plainLater(cmd) {
		b.sh.s.graded = append(b.sh.s.graded, Finding{Rule: "persistence", Off: max(0, min(at, len(b.sh.s.text)))})
		b.sh.s.emit("persistence", at, SeverityNote, "")
		return
	}
	b.sh.s.emit("persistence", at, SeverityWarning, what+": what it runs later is fetched, decoded, hidden or not seen")
}

// plainLater reports whether a later run's command line starts only a
// program (plainCommand), or a script this file wrote plainly.
func (b *batchState) plainLater(cmd []bchar) bool {
	whole := b.valueOf(cmd)
	if whole.t&(tFetched|tDecoded|tSecret|tEnv) != 0 {
		return false
	}
	argv := b.split(cmd, true)
	if len(argv) == 0 || !argv[0].v.known || strings.TrimSpace(argv[0].v.s) == "" {
		return false // nothing, or a program the analysis cannot see
	}
	prog, rest := argv[0].v, argv[1:]
	switch cmdName(prog) {
	case "powershell", "pwsh":
		for i, a := range rest {
			if strings.EqualFold(a.v.s, "-file") || strings.EqualFold(a.v.s, "-f") {
				host := "powershell"
				for _, o := range rest[:i+1] {
					host += " " + o.v.s
				}
				if i+1 >= len(rest) || !psHostFile.MatchString(host) {
					return false
				}
				return b.plainScript(rest[i+1].v) && plainArgs(rest[i+2:])
			}
		}
		return false // -Command, -EncodedCommand: code in the entry itself
	case "cmd":
		for i, a := range rest {
			if strings.EqualFold(a.v.s, "/c") && i+1 < len(rest) {
				return b.plainScript(rest[i+1].v) && plainArgs(rest[i+2:])
			}
		}
		return false
	}
	if f, ok := b.written(prog); ok && !plainFile(f) {
		return false
	}
	return plainCommand(whole)
}

// plainScript reports a script this file wrote with plain content, or one
// the skill ships (the analyser reads it as a file of its own).
func (b *batchState) plainScript(v value) bool {
	if f, ok := b.written(v); ok {
		return plainFile(f)
	}
	return v.t&tShipped != 0 && v.t&(tFetched|tDecoded) == 0
}

// plainFile reports a file written with plain content: seen whole, and
// starting only programs.
func plainFile(f *shFile) bool {
	body := f.body()
	return body.known && plainCommand(body)
}

// plainArgs reports arguments that reach out in none of reachesOut's ways.
func plainArgs(args []barg) bool {
	for _, a := range args {
		if a.v.t&(tFetched|tDecoded|tSecret|tEnv) != 0 || reachesOut.MatchString(a.v.s) {
			return false
		}
	}
	return true
}
