package program

import (
	"path"
	"strings"
	"unicode/utf16"

	"github.com/skills-mcp/skills-mcp/lint/encoded"
	"mvdan.cc/sh/v3/syntax"
)

// This file is what the shell analysis (shell.go) knows of commands: what
// each prints given its arguments and input (a download, a decoding, a
// secret file's content), and the sinks it is: execution, an interpreter's
// input, a network send, a write, a deletion.

// wrappers run the command after their options.
var wrappers = map[string]bool{"sudo": true, "doas": true, "command": true, "builtin": true, "nohup": true, "exec": true,
	"nice": true, "timeout": true, "stdbuf": true, "env": true, "time": true, "setsid": true, "su": false}

// sensitiveCmds are commands whose name built at run time is a sign of
// hiding.
var sensitiveCmds = map[string]bool{"curl": true, "wget": true, "bash": true, "sh": true, "nc": true, "ncat": true, "eval": true,
	"base64": true, "python": true, "python3": true, "perl": true, "ruby": true, "node": true, "socat": true, "rm": true,
	"chmod": true, "crontab": true, "ssh": true, "scp": true, "dd": true, "zsh": true, "source": true}

// call walks a simple command and returns what it prints.
func (st *shellState) call(c *syntax.CallExpr, stdin value) value {
	args := make([]value, len(c.Args))
	for i, w := range c.Args {
		args[i] = st.word(w)
	}
	words := c.Args
	at := st.off(c.Pos())
	env := map[string]value{}
	for _, a := range c.Assigns {
		if a.Name != nil && a.Value != nil {
			env[a.Name.Value] = st.word(a.Value)
		}
	}
	// Wrappers: sudo -u x cmd, env A=b cmd, timeout 5 cmd.
	for len(args) > 1 && wrappers[cmdName(args[0])] {
		w := cmdName(args[0])
		args, words = args[1:], words[1:]
		for len(args) > 1 && args[0].known && (strings.HasPrefix(args[0].s, "-") || w == "env" && strings.Contains(args[0].s, "=") ||
			w == "timeout" && strings.Trim(args[0].s, "0123456789.smhd") == "") {
			if w == "env" && strings.Contains(args[0].s, "=") {
				k, v, _ := strings.Cut(args[0].s, "=")
				env[k] = lit(v)
			}
			args, words = args[1:], words[1:]
		}
	}
	head := args[0]
	name := cmdName(head)
	if f, ok := st.files[fileKey(head)]; ok && fileKey(head) != "" && (strings.Contains(head.s, "/") || !head.known) && f.holds&tFetched != 0 {
		st.s.emit("download-exec", at, SeverityWarning, "")
	}
	if !head.known {
		switch {
		case head.t&tDecoded != 0:
			st.s.emit("eval-decode", at, SeverityError, "")
		case head.t&tFetched != 0:
			st.s.emit("remote-exec", at, SeverityWarning, "")
		}
		return value{t: tCmd}
	}
	if head.t&(tBuilt|tDecoded) != 0 && sensitiveCmds[name] {
		st.s.emit("dynamic-exec", at, SeverityWarning, "command name built at run time: "+name)
	}
	rest := args[1:]
	if lang, opt, ok := interpreter(name); ok {
		return st.interp(lang, opt, name, rest, stdin, at)
	}
	switch name {
	case "curl", "wget", "http", "https", "aria2c", "invoke-webrequest", "iwr", "irm", "invoke-restmethod", "fetch":
		return st.fetch(name, rest, stdin, at)
	case "nc", "ncat", "netcat", "socat", "telnet":
		st.send(stdin, at)
		return value{t: tCmd}
	case "openssl":
		if len(rest) > 0 && rest[0].s == "s_client" {
			st.send(stdin, at)
		}
		if has(rest, "-d") || has(rest, "-base64") && has(rest, "-d") {
			return st.decoded(stdin, "base64")
		}
		return value{t: tCmd | stdin.t&(tSecret|tEnv)}
	case "dig", "nslookup", "host", "drill", "resolvectl", "resolve-dnsname":
		for _, a := range rest {
			if !a.known && a.t&(tCmd|tSecret|tEnv|tDecoded) != 0 && strings.Count(strings.TrimPrefix(a.s, "."), ".") >= 1 && !strings.HasPrefix(a.s, "-") {
				st.s.emit("dns-exfil", at, SeverityError, "")
			}
		}
		return value{t: tCmd}
	case "base64", "base32", "basenc", "xxd", "uudecode", "gunzip", "zcat", "bunzip2", "unxz", "unzstd":
		in := stdin
		if f := firstFile(rest); f != nil {
			in = st.fileContent(*f)
		}
		switch {
		case name == "base64" && (has(rest, "-d") || has(rest, "--decode") || has(rest, "-D") || hasFlag(rest, 'd')):
			return st.decoded(in, "base64")
		case name == "base32" && (has(rest, "-d") || has(rest, "--decode")):
			return st.decoded(in, "base32")
		case name == "xxd" && (has(rest, "-r") || hasFlag(rest, 'r')):
			return st.decoded(in, "hex")
		case name == "basenc" && (has(rest, "-d") || has(rest, "--decode")):
			return value{t: in.t | tDecoded}
		case name == "gunzip" || name == "zcat" || name == "bunzip2" || name == "unxz" || name == "unzstd" || name == "uudecode":
			return value{t: in.t | tDecoded}
		}
		return value{t: in.t&(tSecret|tEnv|tFetched) | tCmd}
	case "gzip", "xz", "bzip2", "zstd":
		if has(rest, "-d") || has(rest, "--decompress") {
			return value{t: stdin.t | tDecoded}
		}
		return value{t: stdin.t&(tSecret|tEnv|tFetched) | tCmd}
	case "rev":
		if stdin.known {
			v := lit(encoded.Reverse(strings.TrimSuffix(stdin.s, "\n")))
			v.t = stdin.t | tDecoded
			return v
		}
		return value{t: stdin.t | tDecoded}
	case "tr":
		if len(rest) >= 2 && isRot13(rest[len(rest)-2].s, rest[len(rest)-1].s) {
			if stdin.known {
				v := lit(encoded.Rot13(stdin.s))
				v.t = stdin.t | tDecoded
				return v
			}
			return value{t: stdin.t | tDecoded}
		}
		return value{t: stdin.t | tBuilt}
	case "dirname", "realpath", "readlink":
		out := value{t: tCmd}
		for _, a := range rest {
			out.t |= a.t & tShipped // a folder of the skill's own
		}
		return out
	case "printf":
		return st.printf(rest)
	case "echo", "print":
		return st.echo(rest)
	case "cat", "head", "tail", "less", "more", "strings", "sqlite3", "sort", "uniq", "awk", "sed", "grep", "cut", "jq", "od", "hexdump", "type", "get-content", "gc":
		out := value{t: tCmd | stdin.t&(tSecret|tEnv|tFetched|tDecoded|tDevice)}
		if stdin.known && (name == "cat" || name == "sort" || name == "uniq") || name == "cat" && stdin.s != "" {
			out = stdin // cat prints its input as it is, the parts the analysis sees included
		}
		for i, a := range rest {
			if a.known && strings.HasPrefix(a.s, "-") || name == "awk" || name == "sed" || name == "grep" || name == "jq" {
				if i == 0 && (name == "awk" || name == "sed" || name == "grep" || name == "jq") {
					continue
				}
				if a.known && strings.HasPrefix(a.s, "-") {
					continue
				}
			}
			content := st.fileContent(a)
			st.readSecret(a, at)
			out.t |= content.t
		}
		return out
	case "env", "printenv", "set", "export", "declare":
		if len(rest) == 0 || name == "export" && has(rest, "-p") || name == "declare" && has(rest, "-p") {
			return value{t: tSecret | tEnv | tCmd}
		}
	case "whoami", "hostname", "id", "uname":
		return value{t: tCmd | tSecret}
	case "tar", "zip", "7z", "rar", "cpio":
		var in taint
		for _, a := range rest {
			if a.path == pathSecret || classifyPath(a) == pathSecret || a.path == pathHome {
				in |= tSecret
				st.readSecret(a, at)
			}
		}
		if name == "zip" && len(rest) > 0 {
			if f := firstFile(rest); f != nil {
				st.wrote(*f, value{t: in}, at)
			}
		}
		return value{t: tCmd | in}
	case "cp", "mv", "install", "ln", "rsync", "scp", "copy-item", "move-item":
		st.copy(name, rest, at)
	case "tee", "set-content", "add-content", "out-file":
		for _, a := range rest {
			if !strings.HasPrefix(a.s, "-") {
				st.wrote(a, stdin, at)
			}
		}
		return stdin
	case "dd":
		var in value
		for _, a := range rest {
			if strings.HasPrefix(a.s, "if=") {
				in = st.fileContent(lit(a.s[3:]))
			}
			if strings.HasPrefix(a.s, "of=") && (isDisk(a.s[3:]) || a.t&tDevice != 0 || !a.known && a.s == "of=/dev/") {
				st.s.emit("disk-wipe", at, SeverityWarning, "")
			}
		}
		return in
	case "mkfs", "wipefs", "shred", "fdisk", "sfdisk", "parted":
		for _, a := range rest {
			if (isDisk(a.s) || a.t&tDevice != 0 || !a.known && a.s == "/dev/") && (name != "fdisk" && name != "parted" || !has(rest, "-l")) {
				st.s.emit("disk-wipe", at, SeverityWarning, "")
			}
		}
	case "eval", "invoke-expression", "iex":
		st.exec(joinArgs(rest), langShell, at, false)
	case "source", ".":
		if len(rest) > 0 {
			st.runFile(rest[0], langShell, at, true)
		}
	case "chmod":
		st.chmod(rest, at)
	case "rm", "remove-item", "rmdir":
		st.rm(rest, words[len(words)-len(rest):], at)
	case "find":
		st.find(rest, at)
	case "git":
		if v := st.git(rest, at); v != (value{}) {
			return v
		}
	case "crontab":
		// crontab - (or no file) installs what it reads, crontab FILE the
		// file: one write to the user's crontab, graded by what it holds.
		var files []value
		for _, a := range rest {
			if !(a.known && strings.HasPrefix(a.s, "-") && a.s != "-") {
				files = append(files, a)
			}
		}
		if !has(rest, "-l") && !has(rest, "-r") && !has(rest, "-e") && len(files) <= 1 {
			in := stdin
			if len(files) == 1 && files[0].s != "-" {
				in = st.fileContent(files[0])
			}
			st.wrote(lit("/var/spool/cron/crontab"), in, at)
		}
		if has(rest, "-e") {
			for _, k := range []string{"EDITOR", "VISUAL"} {
				if v, ok := env[k]; ok && v != (value{}) {
					st.s.emit("autorun-config", at, SeverityWarning, "crontab -e with a scripted "+k)
				}
			}
		}
	case "claude":
		if len(rest) >= 2 && rest[0].s == "mcp" && (rest[1].s == "add" || rest[1].s == "add-json") {
			// At project scope it writes the project's .mcp.json, which the
			// team reviews and Claude Code asks each user to approve: in
			// instructions or documentation a note, as a bare .mcp.json
			// written there is (gradeWrite).
			sev := SeverityWarning
			if st.s.roles&codeKinds == 0 && (has(rest, "--scope=project") || optionIs(rest, "--scope", "project") || optionIs(rest, "-s", "project")) {
				sev = SeverityNote
			}
			st.s.emit("agent-config", at, sev, "")
		}
	case "lsblk", "findmnt", "blkid", "df", "diskutil", "mount", "losetup":
		return value{t: tCmd | tDevice, id: at + 1}
	case "gh", "aws", "gcloud", "az", "op", "vault", "heroku", "doppler", "kubectl", "npm", "pass", "bw", "lpass":
		if printsSecret(name, rest) {
			return value{t: tCmd | tSecret, id: at + 1}
		}
	default:
		if strings.HasPrefix(name, "mkfs.") {
			for _, a := range rest {
				if isDisk(a.s) || a.t&tDevice != 0 {
					st.s.emit("disk-wipe", at, SeverityWarning, "")
				}
			}
		}
	}
	return value{t: tCmd, id: at + 1}
}

// printsSecret reports a command of a credential tool that prints a token
// or a password.
func printsSecret(name string, rest []value) bool {
	var words []string
	for _, a := range rest {
		if a.known {
			words = append(words, a.s)
		}
	}
	line := name + " " + strings.Join(words, " ")
	for _, p := range []string{"gh auth token", "gh auth status -t", "gh auth status --show-token", "aws configure get", "aws sts get-session-token",
		"aws ecr get-login-password", "gcloud auth print-access-token", "gcloud auth print-identity-token", "gcloud auth application-default print-access-token",
		"az account get-access-token", "op read", "op item get", "vault read", "vault kv get", "heroku auth:token", "doppler secrets",
		"kubectl config view --raw", "npm token", "pass show", "bw get", "lpass show"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// interp walks an interpreter: code in an option, a script file, or its
// input.
func (st *shellState) interp(lang, opt, name string, rest []value, stdin value, at int) value {
	for i, a := range rest {
		if !a.known {
			if a.t&(tFetched|tDecoded) != 0 {
				st.runFile(a, lang, at, false)
			}
			return value{t: tCmd}
		}
		s := a.s
		switch {
		case s == opt || lang == langPerl && (s == "-E" || s == "-e") || lang == langJS && (s == "-p" || s == "--eval" || s == "--print") ||
			lang == langPS && (strings.EqualFold(s, "-command") || strings.EqualFold(s, "-c")) || lang == langShell && strings.HasPrefix(s, "-") && strings.HasSuffix(s, "c") && !strings.HasPrefix(s, "--"):
			if i+1 < len(rest) {
				st.exec(rest[i+1], lang, at, false)
			}
			return value{t: tCmd}
		case lang == langPS && (strings.EqualFold(s, "-enc") || strings.EqualFold(s, "-e") || strings.EqualFold(s, "-encodedcommand") || strings.EqualFold(s, "-ec")):
			if i+1 < len(rest) && rest[i+1].known {
				if b, ok := encoded.DecodeBase64(rest[i+1].s); ok && len(b)%2 == 0 {
					u := make([]uint16, len(b)/2)
					for k := range u {
						u[k] = uint16(b[2*k]) | uint16(b[2*k+1])<<8
					}
					st.s.layer(at, "powershell -EncodedCommand", string(utf16.Decode(u)), langPS)
				}
			}
			return value{t: tCmd}
		case s == "-" || s == "-s" || s == "-i" && lang == langShell:
			st.exec(stdin, lang, at, true)
			return value{t: tCmd}
		case strings.HasPrefix(s, "-"):
			if (s == "-m" || s == "-W" || s == "-u" && lang == langShell) && i+1 < len(rest) {
				return value{t: tCmd}
			}
			continue
		}
		st.runFile(a, lang, at, false)
		return value{t: tCmd}
	}
	st.exec(stdin, lang, at, true)
	return value{t: tCmd}
}

// runFile reports running a script file: downloaded, decoded or given by
// process substitution.
func (st *shellState) runFile(f value, lang string, at int, sourced bool) {
	fl, ok := st.files[fileKey(f)]
	if !ok || fileKey(f) == "" {
		return
	}
	switch {
	case fl.holds&tDecoded != 0:
		st.s.emit("eval-decode", at, SeverityError, "")
	case fl.holds&tFetched != 0 && f.s == "/dev/fd/63":
		st.s.emit("pipe-to-shell", at, SeverityWarning, "")
	case fl.holds&tFetched != 0:
		st.s.emit("download-exec", at, SeverityWarning, "")
	}
}

// exec reports code run by eval, sh -c or an interpreter's input, and
// analyses it again when its text is known.
func (st *shellState) exec(code value, lang string, at int, stdin bool) {
	st.s.gradeExec(code, at, stdin, true)
	st.s.runLayer(code, lang, at)
}

// fetch walks a download: what it sends, and where the body goes.
func (st *shellState) fetch(name string, rest []value, stdin value, at int) value {
	out := value{t: tFetched | tCmd}
	toStdout := true
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		s := a.s
		next := func() value {
			if i+1 < len(rest) {
				i++
				return rest[i]
			}
			return value{}
		}
		switch {
		case !a.known:
			if a.t&(tSecret|tEnv) != 0 {
				st.send(a, at)
			}
		case s == "-o" || s == "--output" || s == "-OutFile" || strings.EqualFold(s, "-outfile") || name == "wget" && (s == "-O" || s == "--output-document") ||
			name == "curl" && len(s) > 2 && s[0] == '-' && s[1] != '-' && s[len(s)-1] == 'o': // curl -so, -fsSLo
			f := next()
			if f.s != "-" {
				toStdout = false
				st.wrote(f, value{t: tFetched}, at)
			}
		case strings.HasPrefix(s, "--output-document="):
			if f := s[len("--output-document="):]; f != "-" {
				toStdout = false
				st.wrote(lit(f), value{t: tFetched}, at)
			}
		case s == "-O" || s == "--remote-name" || s == "-LO" || s == "-sLO" || s == "-fsSLO":
			toStdout = false
			if u := lastURL(rest); u != "" {
				st.wrote(lit(path.Base(u)), value{t: tFetched}, at)
				st.wrote(lit("./"+path.Base(u)), value{t: tFetched}, at)
			}
		case s == "-d" || strings.HasPrefix(s, "--data") || s == "--json" || s == "-F" || s == "--form" || s == "-T" || s == "--upload-file" ||
			s == "--post-file" || s == "--body-file" || s == "--post-data" || s == "--body-data" || strings.EqualFold(s, "-body") || strings.EqualFold(s, "-infile"):
			d := next()
			st.sendData(d, s, stdin, at)
		case strings.HasPrefix(s, "--post-file=") || strings.HasPrefix(s, "--body-file="):
			_, f, _ := strings.Cut(s, "=")
			st.send(st.fileContent(lit(f)), at)
		case strings.HasPrefix(s, "-d") && len(s) > 2 && !strings.HasPrefix(s, "--"):
			st.sendData(lit(s[2:]), "-d", stdin, at)
		case strings.HasPrefix(s, "-") && len(s) > 1:
		default:
			if a.t&(tSecret|tEnv) != 0 {
				st.send(a, at)
			}
		}
	}
	if name == "wget" && toStdout {
		if u := lastURL(rest); u != "" && !has(rest, "-qO-") && !has(rest, "-O-") && !has(rest, "-qO") {
			toStdout = false
			st.wrote(lit(path.Base(u)), value{t: tFetched}, at)
			st.wrote(lit("./"+path.Base(u)), value{t: tFetched}, at)
		}
	}
	if !toStdout {
		return value{t: tCmd}
	}
	return out
}

// sendData reports a request body that carries a secret: a value, @file
// or @- (the input).
func (st *shellState) sendData(d value, opt string, stdin value, at int) {
	s := d.s
	if opt == "-F" || opt == "--form" {
		if _, v, ok := strings.Cut(s, "="); ok {
			s = v
		}
	}
	s = strings.TrimPrefix(s, "<")
	switch {
	case opt == "-T" || opt == "--upload-file" || opt == "--post-file" || opt == "--body-file" || strings.EqualFold(opt, "-infile"):
		if s == "-" || s == "." {
			st.send(stdin, at)
		} else {
			f := d
			f.s = s
			st.send(st.fileContent(f), at)
			st.readSecret(f, at)
		}
	case strings.HasPrefix(s, "@"):
		f := d
		f.s = s[1:]
		if f.s == "-" {
			st.send(stdin, at)
			return
		}
		f.path = classifyPath(f)
		st.send(st.fileContent(f), at)
	default:
		st.send(d, at)
	}
}

// send reports a secret reaching the network.
func (st *shellState) send(v value, at int) { st.s.gradeSend(v, at) }

// readSecret reports reading a secret file through a path the file built
// (a literal path is the line rules' business).
func (st *shellState) readSecret(f value, at int) {
	if f.t&(tBuilt|tHome) == 0 && f.known && !strings.Contains(f.s, "$") {
		return
	}
	p := classifyPath(f)
	if p != pathSecret {
		return
	}
	if browserDir(normPath(f.s)) || strings.Contains(normPath(f.s), "keychain") || strings.Contains(normPath(f.s), "keyring") {
		st.s.emit("credential-store", at, SeverityWarning, "")
		return
	}
	st.s.emit("sensitive-path", at, SeverityWarning, "")
}

// decoded returns the decoding of in, decoded now when its text is known.
func (st *shellState) decoded(in value, how string) value {
	out := value{t: in.t | tDecoded}
	if !in.known {
		return out
	}
	var b []byte
	var ok bool
	t := strings.Join(strings.Fields(in.s), "")
	switch how {
	case "base64":
		b, ok = encoded.DecodeBase64(t)
	case "base32":
		b, ok = encoded.DecodeBase32(t)
	case "hex":
		b, ok = encoded.DecodeHex(t)
	}
	if ok {
		out.s, out.known = string(b), true
	}
	return out
}

// printf returns what printf prints: its format with escapes decoded and
// %s and %b replaced by the arguments.
func (st *shellState) printf(rest []value) value {
	i := 0
	if i < len(rest) && rest[i].s == "-v" {
		i += 2
	}
	if i >= len(rest) {
		return value{}
	}
	f := rest[i]
	args := rest[i+1:]
	if !f.known {
		return value{t: f.t | tBuilt}
	}
	escaped := strings.Contains(f.s, `\x`) || strings.Contains(f.s, `\0`) || strings.Contains(f.s, `\1`) || strings.Contains(f.s, `\u`)
	parts := []value{}
	s := encoded.Unescape(f.s)
	k := 0
	for {
		j := strings.IndexByte(s, '%')
		if j < 0 || j+1 >= len(s) {
			parts = append(parts, lit(s))
			break
		}
		parts = append(parts, lit(s[:j]))
		switch s[j+1] {
		case 's', 'b', 'c', 'd':
			if k < len(args) {
				a := args[k]
				if s[j+1] == 'b' && a.known {
					if strings.Contains(a.s, `\`) {
						escaped = true
					}
					a = lit(encoded.Unescape(a.s))
				}
				parts = append(parts, a)
				k++
			}
		case '%':
			parts = append(parts, lit("%"))
		}
		s = s[j+2:]
	}
	v := cat(parts...)
	if escaped {
		v.t |= tDecoded | tBuilt
	}
	return v
}

// echo returns what echo prints.
func (st *shellState) echo(rest []value) value {
	e := false
	for len(rest) > 0 && rest[0].known && (rest[0].s == "-e" || rest[0].s == "-n" || rest[0].s == "-en" || rest[0].s == "-ne" || rest[0].s == "-E") {
		e = e || strings.Contains(rest[0].s, "e")
		rest = rest[1:]
	}
	v := joinArgs(rest)
	if e && v.known && strings.Contains(v.s, `\`) {
		d := lit(encoded.Unescape(v.s))
		d.t = v.t | tDecoded | tBuilt
		return d
	}
	return v
}
