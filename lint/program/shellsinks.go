package program

import (
	"net/url"
	"path"
	"strings"
	"unicode/utf16"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/lint/encoded"
)

// This file is what the shell analysis (shell.go) knows of commands: what
// each prints given its arguments and input (a download, a decoding, a
// secret file's content), and the sinks it is: execution, an interpreter's
// input, a network send, a write, a deletion.

// wrappers run the command after their options.
var wrappers = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"sudo": true, "doas": true, "command": true, "builtin": true, "nohup": true, "exec": true,
		"nice": true, "timeout": true, "stdbuf": true, "env": true, "time": true, "setsid": true, "su": false}
}}

// sensitiveCmds are commands whose name built at run time is a sign of
// hiding.
var sensitiveCmds = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"curl": true, "wget": true, "bash": true, "sh": true, "nc": true, "ncat": true, "eval": true,
		"base64": true, "python": true, "python3": true, "perl": true, "ruby": true, "node": true, "socat": true, "rm": true,
		"chmod": true, "crontab": true, "ssh": true, "scp": true, "dd": true, "zsh": true, "source": true}
}}

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

// issuers are the domains whose access tokens a CLI prints (value.issuer
// indexes it; 0 is none).
var issuers = [...]string{"", "github.com", "googleapis.com"}

// issuerOf returns the issuers index of the domain whose access token a
// CLI's command prints (gh auth token: github.com), or 0 for another
// secret (a stored password, a key, a value any service may accept).
func issuerOf(name string, rest []value) uint8 {
	if len(rest) < 2 || !rest[0].known || !rest[1].known {
		return 0
	}
	switch name + " " + rest[0].s + " " + rest[1].s {
	case "gh auth token":
		return 1
	case "gcloud auth print-access-token", "gcloud auth print-identity-token":
		return 2
	}
	return 0
}

// toIssuer reports a secret sent only to the domain that issued it, over
// https: every address of the request is there (api.github.com for
// gh auth token), so the token is used as it is meant to be.
func toIssuer(v value, args []value) bool {
	if v.issuer == 0 || v.t&tEnv != 0 {
		return false
	}
	iss := issuers[v.issuer]
	n := 0
	for _, a := range args {
		if !strings.Contains(a.s, "://") {
			continue
		}
		s := a.s
		if !a.known {
			// A known start that spells the host whole, up to the path's
			// slash: https://api.github.com/repos/${repo} goes there.
			rest, ok := strings.CutPrefix(s, "https://")
			if a.t&(tKnownHead|tHostHead) == 0 || !ok || !strings.Contains(rest, "/") {
				return false
			}
			s = "https://" + rest[:strings.IndexByte(rest, '/')] + "/"
		}
		u, err := url.Parse(s)
		if err != nil || u.Scheme != "https" {
			return false
		}
		h := strings.ToLower(u.Hostname())
		if h != iss && !strings.HasSuffix(h, "."+iss) {
			return false
		}
		n++
	}
	return n > 0
}

// psValueOpts are the PowerShell host's options that take a value (a
// window style, a policy, a folder), in lower case: the word after one is
// not the script to run.
var psValueOpts = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, o := range []string{"w", "windowstyle", "ep", "ex", "exec", "executionpolicy", "v", "version", "wd", "workingdirectory",
		"of", "outputformat", "if", "inputformat", "psconsolefile", "settingsfile", "configurationname", "config", "custompipename", "encodedarguments", "ea"} {
		m["-"+o] = true
	}
	return m
}}

// interp walks an interpreter: code in an option, a script file, or its
// input. spelled holds, for each word of rest the analysis cannot
// resolve, the word spelled with holes (shellState.spell), or "".
func (st *shellState) interp(lang, opt, name string, rest []value, spelled []string, stdin value, at int) value {
	skip := -1
	for i, a := range rest {
		if i == skip {
			continue
		}
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
				code := rest[i+1]
				if lang == langPS {
					code = joinArgs(rest[i+1:]) // PowerShell runs the words after -Command joined
				} else if !code.known && i+1 < len(spelled) {
					if c, ok := unholed(spelled[i+1], lang); ok {
						code = lit(c) // its program fixed, its holes inputs
					}
				}
				st.exec(code, lang, at, false)
			}
			return value{t: tCmd}
		case lang == langPS && (strings.EqualFold(s, "-enc") || strings.EqualFold(s, "-e") || strings.EqualFold(s, "-encodedcommand") || strings.EqualFold(s, "-ec")):
			if i+1 < len(rest) && !rest[i+1].known {
				// a command hidden in base64 the analysis cannot see
				st.s.gradeExec(value{t: rest[i+1].t | tDecoded}, at, false, true)
			}
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
			st.runsDataFile(st.stdinFile, lang, at)
			st.exec(stdin, lang, at, true)
			return value{t: tCmd}
		case strings.HasPrefix(s, "-"):
			if (s == "-m" || s == "-W" || s == "-u" && lang == langShell) && i+1 < len(rest) && lang != langPS {
				return value{t: tCmd}
			}
			if lang == langPS && psValueOpts.Get()[strings.ToLower(s)] {
				skip = i + 1 // -WindowStyle Hidden: the next word is the option's, not a script
			}
			continue
		}
		st.runsDataFile(a, lang, at)
		st.runFile(a, lang, at, false)
		return value{t: tCmd}
	}
	st.runsDataFile(st.stdinFile, lang, at)
	st.exec(stdin, lang, at, true)
	return value{t: tCmd}
}

// runsDataFile reports an interpreter given, as its program, a file of
// the skill's (a relative path the region did not write) named as data
// (dataExt: .txt, .csv, .png, …): the analysis reads that file as what its
// name says, not as the code it is run as, so the code is hidden from it
// (disguised-file).
func (st *shellState) runsDataFile(f value, lang string, at int) {
	if !f.known || f.s == "" || f.s == "-" || !bareRelative(f) && f.t&tShipped == 0 && !strings.HasPrefix(f.s, "./") {
		return
	}
	if _, ok := st.files[fileKey(f)]; ok {
		return // written by the region: graded by what it wrote
	}
	if dataExt(path.Ext(strings.ToLower(f.s))) {
		st.s.emit("disguised-file", at, SeverityWarning, "runs "+f.s+" as "+langName(lang)+": code in a file named as data, which is not read as code")
	}
}

// dataExt reports an extension that names data no interpreter is given
// as its program in the ordinary way: plain text, tables, images, fonts,
// binary blobs. Formats a tool is commonly pointed at as input after an
// option the analysis does not know (node --prof-process isolate.log, a
// .json, a .md, a .yaml) are left out.
func dataExt(ext string) bool {
	switch ext {
	case ".txt", ".dat", ".csv", ".tsv", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".pdf", ".bin", ".db", ".mo", ".woff", ".woff2", ".ttf":
		return true
	}
	return false
}

// langName returns a language's name for a reader.
func langName(lang string) string {
	switch lang {
	case langPython:
		return "Python"
	case langJS:
		return "JavaScript"
	case langPS:
		return "PowerShell"
	case langRuby:
		return "Ruby"
	case langPerl:
		return "Perl"
	}
	return "shell"
}

// runFile reports running a script file: downloaded, decoded or given by
// process substitution.
func (st *shellState) runFile(f value, lang string, at int, sourced bool) {
	st.s.fact(FactRuns, at, f)
	fl, ok := st.files[fileKey(f)]
	if !ok || fileKey(f) == "" {
		return
	}
	switch {
	case fl.holds&tDecoded != 0:
		st.s.emit("eval-decode", at, SeverityError, "")
	case fl.holds&tFetched != 0 && f.s == "/dev/fd/63":
		st.s.emit("pipe-to-shell", at, substSev(fl), "")
	case fl.holds&tFetched != 0:
		st.s.emit("download-exec", at, downloadSev(fl), downloadExcerpt(fl))
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
	out := value{t: tFetched | tCmd, installer: (name == "curl" || name == "wget") && st.fromInstaller(rest)}
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
			if a.t&(tSecret|tEnv) != 0 && !toIssuer(a, rest) {
				st.send(a, at)
			}
		case s == "-o" || s == "--output" || s == "-OutFile" || strings.EqualFold(s, "-outfile") || name == "wget" && (s == "-O" || s == "--output-document") ||
			name == "curl" && len(s) > 2 && s[0] == '-' && s[1] != '-' && s[len(s)-1] == 'o' || // curl -so, -fsSLo
			name == "wget" && flagCluster(s, "qvncNkrS", 'O'): // wget -qO, -nvO
			f := next()
			if f.s != "-" {
				toStdout = false
				st.saved(f, rest, at)
			}
		case strings.HasPrefix(s, "--output-document="):
			if f := s[len("--output-document="):]; f != "-" {
				toStdout = false
				st.saved(lit(f), rest, at)
			}
		case s == "-O" || s == "--remote-name" || name == "curl" && flagCluster(s, "fsSLOkvi46gNqZJR#", 0) && strings.Contains(s, "O"):
			toStdout = false
			if u := lastURL(rest); u != "" {
				st.saved(lit(path.Base(u)), rest, at)
				st.saved(lit("./"+path.Base(u)), rest, at)
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
			if a.t&(tSecret|tEnv) != 0 && !toIssuer(a, rest) {
				st.send(a, at)
			}
		}
	}
	st.s.gradeCredentialTo(lastURL(rest), rest, at)
	if name == "wget" && toStdout {
		if u := lastURL(rest); u != "" && !has(rest, "-qO-") && !has(rest, "-O-") && !has(rest, "-qO") {
			toStdout = false
			st.saved(lit(path.Base(u)), rest, at)
			st.saved(lit("./"+path.Base(u)), rest, at)
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
			st.send(st.readSecret(f, at), at)
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

// readSecret returns what reading the file at f gives: for a secret file
// the user has (not one the region wrote), a read graded when the text is
// analysed (secretread.go), by what its content reaches; a browser's
// store or a keychain is a warning where it is read. A literal path is
// the line rules' business.
func (st *shellState) readSecret(f value, at int) value {
	c := st.fileContent(f)
	if _, wrote := st.files[fileKey(f)]; wrote && fileKey(f) != "" || c.t&tSecret == 0 || c.t&tEnv != 0 {
		return c
	}
	built := f.t&(tBuilt|tHome) != 0 || !f.known || strings.Contains(f.s, "$")
	if n := normPath(f.s); browserDir(n) || strings.Contains(n, "keychain") || strings.Contains(n, "keyring") {
		if built {
			st.s.emit("credential-store", at, SeverityWarning, "")
		}
		return otherSecret(c.t)
	}
	return st.s.readStore(f, at, built)
}

// quietFilter reports a filter command whose output holds only structure
// of what it reads: grep counting, listing or testing, jq with a filter
// of names, counts and tests (jqStructure).
func quietFilter(name string, rest []value) bool {
	switch name {
	case "grep":
		for _, a := range rest {
			if a.known && (a.s == "--count" || a.s == "--quiet" || a.s == "--silent" || a.s == "--files-with-matches" ||
				strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.ContainsAny(a.s, "cqlL")) {
				return true
			}
		}
	case "jq", "yq":
		for _, a := range rest {
			if a.known && strings.HasPrefix(a.s, "-") {
				continue
			}
			return a.known && jqStructure(a.s)
		}
	}
	return false
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

// flagCluster reports whether s is a cluster of one-letter options (-fsSL)
// that ends with last, every letter before it one of those in flags: none
// of them takes a value, so the cluster means what last means. last 0
// accepts any final letter of flags.
func flagCluster(s, flags string, last byte) bool {
	if len(s) < 2 || s[0] != '-' || s[1] == '-' {
		return false
	}
	body := s[1:]
	if last != 0 {
		if body[len(body)-1] != last {
			return false
		}
		body = body[:len(body)-1]
	}
	return strings.Trim(body, flags) == ""
}

// substSev grades running what a process substitution printed (bash
// <(curl …)): a note when it is one download, whole, of a project's own
// install script (shFile.installer), as when piped to the shell.
func substSev(f *shFile) string {
	if f.installer {
		return SeverityNote
	}
	return SeverityWarning
}
