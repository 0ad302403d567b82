package lint

import (
	"encoding/base64"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/lint/encoded"
	"github.com/skills-mcp/skills-mcp/lint/program"
)

func sevIf(warn bool) string {
	if warn {
		return SeverityWarning
	}
	return SeverityNote
}

// destructiveRm accepts a recursive rm of a root-like target.
func destructiveRm(s *scan, i int, m []int) string {
	line := s.line(i)
	recursive := false
	for _, opt := range strings.Fields(line[m[2]:m[3]]) {
		if opt == "--recursive" || !strings.HasPrefix(opt, "--") && strings.ContainsAny(opt, "rR") {
			recursive = true
		}
	}
	if !recursive {
		return ""
	}
	t := strings.NewReplacer(`"`, "", "'", "", "{", "", "}", "").Replace(line[m[4]:m[5]])
	switch strings.TrimSuffix(strings.TrimSuffix(t, "*"), "/") {
	case "":
		return SeverityError
	case "~", "$HOME":
		return SeverityWarning
	}
	if strings.HasPrefix(t, "$") && strings.Contains(t, "/") {
		return SeverityNote // "$VAR/" is "/" when VAR is empty
	}
	return ""
}

// sensitiveHome grades a path under a home directory: secrets are warnings,
// configuration is a note.
func sensitiveHome(s *scan, i int, m []int) string {
	line := s.line(i)
	if s.flag(i)&lineCode != 0 && assignBefore.MatchString(line[:m[0]]) && assignAfter.MatchString(line[m[1]:]) {
		// A path given a name reads nothing: in code, the code analysis
		// follows the name to what reads it (cat "$key", open(key)).
		return SeverityNote
	}
	if s.flag(i)&(lineProse|lineCode) == lineProse && !contentVerb(line[:m[0]]) {
		return SeverityNote // "a deploy key at ~/.ssh/id_deploy": where it is, not what to do with it
	}
	if s.flag(i)&(lineProse|lineCode) == lineProse|lineCode && s.roles&roleMarkdown == 0 {
		return SeverityNote // "# Reads ~/.aws/credentials" in a script: the code says what it reads, and is graded itself
	}
	dir := strings.ToLower(line[m[2]:m[3]])
	name := ""
	if m[4] >= 0 {
		name = strings.ToLower(line[m[4]:m[5]])
	}
	name = backupBase(name)
	if permissionOnly.MatchString(line) {
		return SeverityNote // chmod 600 ~/.aws/credentials: who may read it, not a read
	}
	switch dir {
	case "ssh":
		if name == "" || name == "config" || name == "known_hosts" || strings.HasSuffix(name, ".pub") {
			return SeverityNote
		}
		if keyTools.MatchString(line) && name != "authorized_keys" {
			return SeverityNote
		}
		return SeverityWarning
	case "aws":
		return sevIf(name == "credentials")
	case "gnupg":
		return sevIf(name == "" || strings.Contains(name, "private") || strings.Contains(name, "secring"))
	case "netrc", "pypirc", "git-credentials":
		return SeverityWarning
	}
	return SeverityNote
}

// backupBase returns a file name without a backup copy's suffix
// (config.bak, config.orig, config~, config.bak.20240101): the copy holds
// what the file does.
func backupBase(name string) string {
	for _, suf := range []string{".bak", ".orig", ".backup", ".old", ".save", "~"} {
		if i := strings.Index(name, suf); i > 0 && (i+len(suf) == len(name) || name[i+len(suf)] == '.' || name[i+len(suf)] == '-') {
			return name[:i]
		}
	}
	return name
}

// contentVerbs are the verbs that, earlier in a prose sentence, do
// something with a secret file's content: read it, show it, send it on.
var contentVerbs = []string{"read", "cat", "open", "print", "show", "display", "paste", "copy", "send", "upload", "post",
	"include", "attach", "output", "dump", "echo", "encode", "base64", "share", "email", "load", "grab", "collect", "get",
	"fetch", "extract", "embed", "reveal", "provide", "give", "submit", "append", "add", "summari", "list", "report", "check",
	"inspect", "look", "view", "parse", "scan", "back", "archive", "zip", "tar", "sync", "move", "transfer", "forward",
	"lee", "lea", "leer", "envía", "envia", "copia", "muestra", "incluye", "lis", "lire", "envoie", "affiche", "lies", "lesen",
	"sende", "zeige", "kopiere", "leia", "envie", "mostre", "читай", "прочитай", "отправь", "покажи", "скопируй",
	"读取", "读", "发送", "上传", "复制", "显示", "查看", "読", "送", "表示", "コピー", "읽", "보내", "복사", "출력"}

// readOnlyWords drops "read-only" and its spellings before contentVerb
// looks for a read: a kind of key, not a read.
var readOnlyWords = lazy.Value[*strings.Replacer]{New: func() *strings.Replacer {
	return strings.NewReplacer("read-only", "", "read only", "", "readonly", "")
}}

// contentVerb reports whether the prose sentence that before ends holds
// one of contentVerbs (as a word's start, any case; anywhere in CJK).
func contentVerb(before string) bool {
	words := clauseWords(readOnlyWords.Get().Replace(strings.ToLower(withoutCodeSpans(before))))
	for k, w := range words {
		if k > 0 && slices.Contains(verbNegations, words[k-1]) || k > 1 && slices.Contains(verbNegations, words[k-2]) {
			continue // "not backed up", "never copy the": the verb is denied
		}
		for _, v := range contentVerbs {
			if strings.HasPrefix(w, v) || v[0] >= 0x80 && strings.Contains(w, v) {
				return true
			}
		}
	}
	return false
}

// clauseWords returns the words, in lower case, of the last clause of a
// prose sentence that before ends: ASCII letters (and any non-ASCII rune,
// for the scripts written without spaces) split at everything else.
func clauseWords(before string) []string {
	if k := lastBoundary(before); k >= 0 {
		before = before[k:]
	}
	return strings.FieldsFunc(strings.ToLower(before), func(r rune) bool { return r < 0x80 && !('a' <= r && r <= 'z') })
}

// withoutCodeSpans returns prose with its closed inline code spans taken
// out, but for a lone command word (`cat`): a name in one
// (`$AWS_SHARED_CREDENTIALS_FILE`) is not a verb of the sentence.
func withoutCodeSpans(t string) string {
	if strings.Count(t, "`") < 2 {
		return t
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(t, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(t[i+1:], '`')
		if j < 0 {
			break
		}
		b.WriteString(t[:i])
		if span := t[i+1 : i+1+j]; commandWord(span) {
			b.WriteString(span) // `cat`, `base64`: a command named is a verb
		}
		b.WriteByte(' ')
		t = t[i+j+2:]
	}
	b.WriteString(t)
	return b.String()
}

// commandWord reports a lone lower-case word: a command's name.
func commandWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// verbNegations are the words that, one or two words before a content
// verb, deny it.
var verbNegations = []string{"not", "never", "no", "don", "doesn", "isn", "aren", "won", "nor"}

// negatedProse reports whether the prose before a match, on its line and
// the lines of its clause before (clauseBefore), says not to do what the
// match names: "never run …", a rejected option, a negated clause.
func negatedProse(before string) bool {
	return negation.MatchString(before[max(0, len(before)-negationWindow):]) || rejectedBefore(before) || negatedClause(before)
}

// clauseBefore returns the text of line i before byte off of it, with the
// line before joined to it when the sentence the match is in started
// there: both lines prose, the line before ending mid-sentence, and no
// sentence ending on this line before the match, nor a list item or a
// heading starting it ("… and never switch to\n`curl … | sh` installers",
// "Never write lines such as \"ignore the user\n…\" or \"do not tell the
// user\""). A clause wrapped at a line break is one clause.
func (s *scan) clauseBefore(i, off int) string {
	line := s.line(i)
	before := line[:off]
	if i == 0 || len(before) > negationWindow || s.flag(i-1)&lineProse == 0 || s.flag(i)&lineProse == 0 || sentenceEnd(before) {
		return before // a match far into its line is in a sentence of its own line
	}
	if t := strings.TrimLeft(before, " \t"); strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") {
		return before // a list item or a heading starts anew
	}
	prev := strings.TrimRight(s.line(i-1), " \t")
	if prev == "" || strings.ContainsAny(prev[len(prev)-1:], ".!?:") {
		return before
	}
	return prev + " " + before
}

// sentenceEnd reports whether text holds the end of a sentence: . ! or ?
// before a blank.
func sentenceEnd(text string) bool {
	for i := 0; i+1 < len(text); i++ {
		if (text[i] == '.' || text[i] == '!' || text[i] == '?') && (text[i+1] == ' ' || text[i+1] == '\t') {
			return true
		}
	}
	return false
}

// folderOpenTask grades a VS Code task set to run when the folder opens:
// a warning in a file or a code block, and in prose that tells the reader
// to set it (configVerbs); a note in prose that only says what it does
// ("tasks with runOn: folderOpen only run after the user allows them").
func folderOpenTask(s *scan, i int, m []int) string {
	if s.flag(i)&(lineProse|lineCode) != lineProse {
		return SeverityWarning
	}
	for _, w := range clauseWords(s.line(i)[:m[0]]) {
		if slices.Contains(configVerbs, w) {
			return SeverityWarning
		}
	}
	return SeverityNote
}

// configVerbs are the verbs of prose that tells the reader to put a
// setting in place.
var configVerbs = []string{"add", "set", "put", "write", "create", "configure", "enable", "use", "insert", "append", "include", "make"}

// proseNegations are the words that, earlier in a clause of prose, say
// the skill does not do what the clause goes on to name ("it does not
// open ~/.aws/credentials", "none of them use runOn: folderOpen"); the
// negation pattern of analyze.go reads the imperative ones further back.
var proseNegations = []string{"not", "never", "no", "none", "don't", "don’t", "doesn't", "doesn’t", "won't", "won’t", "without", "nothing", "neither", "nor"}

// negatedClause reports whether the clause that before ends (after its
// last comma, semicolon, colon, dash or sentence end) holds one of
// proseNegations.
func negatedClause(before string) bool {
	if strings.Count(before, "`")%2 == 1 {
		before = before[:strings.LastIndexByte(before, '`')] // the clause around an inline code span, not inside it
	}
	if k := strings.LastIndexAny(before, ",;:—.!?"); k >= 0 {
		before = before[k+1:]
	}
	negated := false
	for _, w := range strings.Fields(strings.ToLower(before)) {
		w = strings.Trim(w, "*_`\"'(")
		if slices.Contains(proseNegations, w) {
			negated = true
		} else if negated && slices.Contains(proseFlips, w) {
			return false // "don't forget to run …", "never hesitate to"
		}
	}
	return negated
}

// proseFlips turn a negation back into an instruction: "do not forget to".
var proseFlips = []string{"forget", "hesitate", "fail", "skip", "miss", "neglect", "omit", "stop", "wait", "be", "afraid"}

// assignBefore and assignAfter match what is around a path that a line
// only assigns to a name, whole: KEY="$HOME/.ssh/id_work", export F=~/.aws/config,
// a default for one (KEY="${DEPLOY_KEY:-$HOME/.ssh/id_deploy}"), a batch
// file's set "KEY=%USERPROFILE%\.ssh\id_work".
var (
	assignBefore = &lazyre.RE{Expr: `^\s*(?:(?:export|local|readonly|declare(?:\s+-\w+)?)\s+)?\$?[A-Za-z_]\w*\s*:?=\s*["']?(?:\$\{[A-Za-z_]\w*:?-)?$|^\s*@?(?i:set)\s+"?[A-Za-z_][\w.-]*=["']?$`}
	assignAfter  = &lazyre.RE{Expr: `^\}?["']?\s*(?:[;#].*)?$`}
)

// permissionOnly matches a line that is one command setting or checking
// who may read files, or that they are there (chmod 600 ~/.aws/credentials,
// stat, ls -l, test -f, icacls, Test-Path), with no second command,
// pipe or substitution in it.
var permissionOnly = &lazyre.RE{Expr: `^\s*(?:[-*]\s+|\$\s+|sudo\s+)?(?:ch(?:mod|own|grp)|stat|ls\s+-\w+|test\s+-[efrs]|icacls(?:\.exe)?|(?i:set-acl|test-path))\s(?:[^|;&<>` + "`" + `$]|\$[\w{])*$|^\s*(?:[-*]\s+|\$\s+)?` + "`" + `ch(?:mod|own)\s[^|;&<>` + "`" + `$]*` + "`" + `\s*$`}

// keyTools matches lines that create or use a key rather than read it:
// also Windows's ways to set who may read it (icacls, takeown, Set-Acl)
// and to test that it is there (Test-Path, if exist).
var keyTools = &lazyre.RE{Expr: `\bch(?:mod|own|grp)\s|\bls\s+-|\bstat\s|\btest\s+-[efrs]\s|\[\s+-[efrs]\s|\bssh-(?:keygen|add|copy-id)\b|\b(?:ssh|scp|sftp)\s(?:[^|;&]*\s)?-i\s|(?i:identityfile)|` +
	`(?i:\b(?:icacls|takeown)(?:\.exe)?\s|\b(?:get|set)-acl\s|\btest-path\s|\bif\s+(?:not\s+)?exist\s)`}

// placeholder matches token bodies that are documentation, not secrets.
var placeholder = &lazyre.RE{Expr: `(?i)example|sample|dummy|placeholder|your|redacted|xxxx|0000|1234|abcd`}

// credential rejects placeholder tokens.
func credential(s *scan, i int, m []int) string {
	line := s.line(i)
	for g := 2; g+1 < len(m); g += 2 {
		if g == 2 || m[g] < 0 {
			continue
		}
		body := line[m[g]:m[g+1]]
		if placeholder.MatchString(body) || encoded.HasRun(body, 5) {
			return ""
		}
	}
	return SeverityWarning
}

// privateKey accepts a PEM private key header only when key material follows
// within three lines.
func privateKey(s *scan, i int, m []int) string {
	for j := i + 1; j < s.lines() && j <= i+3; j++ {
		t := strings.TrimSpace(s.line(j))
		if len(t) >= 40 && strings.Trim(t, b64Chars+"=") == "" {
			return SeverityWarning
		}
	}
	return ""
}

const b64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

var (
	secretVar = &lazyre.RE{Expr: `\$\{?[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)[A-Z0-9_]*\}?`}
	cliOption = &lazyre.RE{Expr: `(?:^|\s)(-{1,2}[A-Za-z][\w-]*)`}
)

// secretInBody accepts curl or wget when a secret variable stands in the
// request body: the last option before it is a data or form option.
func secretInBody(s *scan, i int, m []int) string {
	line := s.line(i)[m[0]:]
	line = line[:min(len(line), negationWindow*4)] // one command, not a whole minified file
	for _, v := range secretVar.FindAllStringIndex(line, maxMatches) {
		opts := cliOption.FindAllStringSubmatch(line[:v[0]], -1)
		if len(opts) == 0 {
			continue
		}
		opt := opts[len(opts)-1][1]
		if strings.HasPrefix(opt, "--") {
			switch opt {
			case "--data", "--data-raw", "--data-binary", "--data-urlencode", "--json",
				"--form", "--form-string", "--post-data", "--body-data":
				return SeverityNote
			}
			continue
		}
		if strings.ContainsAny(opt[1:], "dF") {
			return SeverityNote
		}
	}
	return ""
}

var shellRedirect = &lazyre.RE{Expr: `(?:>&|&>|<>)\s*/dev/(?:tcp|udp)/|\b0>&1\b|\b0<&\d|\b(?:ba|z|k)?sh\s+-i\b`}

// devTCP accepts bash's /dev/tcp when a shell's input and output go to it
// (>& /dev/tcp, <>, 0>&1, sh -i); a lone redirection is a port check.
func devTCP(s *scan, i int, m []int) string {
	if shellRedirect.MatchString(s.line(i)) {
		return SeverityError
	}
	return ""
}

// quotedNote lowers a phrase that the line quotes rather than says.
func quotedNote(s *scan, i int, m []int) string {
	line := s.line(i)
	before, after := s.clauseBefore(i, m[0]), line[m[1]:] // a quotation opened on the line before, in the same sentence, counts
	for _, q := range []string{`"`, "`"} {
		if strings.Count(before, q)%2 == 1 && strings.Contains(after, q) {
			return SeverityNote
		}
	}
	if strings.Count(before, "“") > strings.Count(before, "”") && strings.Contains(after, "”") {
		return SeverityNote
	}
	return SeverityError
}

// messageCall matches, at the end of the text before a string's opening
// quote, a call that prints or raises the string as a message, or an
// option's help text (help="…", OptionParser's o.on("--system", "…"),
// commander's .option("-d, --dry-run", "…")).
var messageCall = &lazyre.RE{Expr: `(?i)(?:\bprint|\becho|\bprintf|\bconsole\.(?:log|error|warn|info)|\blog(?:ger|ging)?\.\w+|\bwarnings\.warn|\braise\s+[\w.]+|\bsys\.exit|\bwrite-(?:host|output|warning)|\bputs|\bdie|\bthrow\s+new\s+\w+|\b(?:Import|Module|Runtime|System)Error|` +
	`\bhelp\s*=|\.(?:on|option)\s*\((?:\s*["']-[^"']*["']\s*,)+)\s*\(?\s*[fFrRbB]?$`}

// inMessage reports whether byte at of line i of code is inside a string
// the code prints or raises as a message, not piped on to anything: on
// the line (print("Install with: …"), echo "run: …", puts "crontab line:
// …"), or on a line of its own that goes on with a message call's
// arguments (raise SystemExit(⏎ "Set a local path (git config core.hooksPath
// .githooks) first.")). Text inside an interpolation ($(…), `…`, {…})
// runs, and is no message.
func (s *scan) inMessage(i, at int) bool {
	line := s.line(i)
	open, q, _ := quoteAt(line, at)
	if q == 0 {
		return false
	}
	end := -1
	for k := at; k < len(line); k++ {
		if line[k] == q {
			end = k
			break
		}
		if line[k] == '\\' && q == '"' {
			k++
		}
	}
	if seg := line[open+1 : at]; end < 0 || strings.Contains(seg, "$(") || strings.Contains(seg, "`") || strings.Count(seg, "{") > strings.Count(seg, "}") {
		return false
	}
	if !messageCall.MatchString(line[:open]) && (strings.Trim(line[:open], " \tfFrRbB") != "" || !s.messageArgs(i)) {
		return false
	}
	return !strings.ContainsAny(line[end+1:], "|`$") // echo "…" | sh runs it
}

// patternCall matches, at the end of the text before a string's opening
// quote (and its r, b prefixes), a call that compiles the string as a
// regular expression.
var patternCall = &lazyre.RE{Expr: `(?:\bre\.(?:compile|search|match|fullmatch|findall|finditer|split|sub)|\bRegExp|\bregexp\.(?:MustCompile|Compile)|\bRegex::new|\bRegexp\.new|\[regex\]::new)\s*\(\s*[rRbB]{0,2}$`}

// inPattern reports whether byte at of line i of code is inside a string
// the code compiles as a regular expression (re.compile(rb"(curl|wget|sh -c)"),
// new RegExp("…")), or in a data file the value of a key that names one
// (regex: '(curl|wget).*\|\s*sh'): what a scanner looks for, which runs
// nothing.
func (s *scan) inPattern(i, at int) bool {
	line := s.line(i)
	if s.roles&roleData != 0 {
		m := patternKey.Regexp().FindStringIndex(line)
		return m != nil && at >= m[1]
	}
	open, q, _ := quoteAt(line, at)
	return q != 0 && patternCall.MatchString(line[:open])
}

// patternKey matches the start of a data file's line that gives a key
// naming a regular expression (regex: '…', "pattern": "…").
var patternKey = &lazyre.RE{Expr: `^\s*[{,]?\s*(?:-\s+)?["']?(?i:regexp?|regexes|pattern|re|match)["']?\s*[:=]\s*`}

// messageArgs reports whether line i goes on with the arguments of a
// message call opened on a line before it, across lines that hold only
// strings: raise SystemExit(⏎ f"…"⏎ "…".
func (s *scan) messageArgs(i int) bool {
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		t := strings.TrimSpace(s.line(j))
		if u := strings.TrimLeft(t, "fFrRbB"); u != "" && (u[0] == '"' || u[0] == '\'') && len(t)-len(u) <= 2 {
			continue
		}
		return strings.HasSuffix(t, "(") && messageCall.MatchString(t)
	}
	return false
}

// keptFromUser is quotedNote for a phrase that keeps something from the
// user, except advice: "do not tell the user to edit it" tells the user
// nothing less.
func keptFromUser(s *scan, i int, m []int) string {
	if rest := strings.TrimLeft(s.line(i)[m[1]:], " \t"); strings.HasPrefix(rest, "to ") {
		return ""
	}
	return quotedNote(s, i, m)
}

// quotedWarning is quotedNote for a pattern whose match is a warning.
func quotedWarning(s *scan, i int, m []int) string {
	if sev := quotedNote(s, i, m); sev == SeverityNote {
		return sev
	}
	return SeverityWarning
}

// base64Blob finds a run of 200 base64 characters on line i, or a wrapped
// blob starting there: 3 or more lines of 40 or more such characters that add
// up to 200, not after a certificate or public key header.
func base64Blob(s *scan, i int) (int, string) {
	line := s.line(i)
	if start := longBase64(line); start >= 0 {
		prefix := strings.ToLower(line[:start])
		if strings.HasSuffix(prefix, ";base64,") && (strings.Contains(prefix, "data:image/") || strings.Contains(prefix, "data:font/")) || imageBase64(line[start:]) {
			return start, SeverityNote
		}
		return start, SeverityWarning
	}
	if !isBase64Line(line) || i > 0 && isBase64Line(s.line(i-1)) {
		return -1, ""
	}
	if i > 0 {
		prev := s.line(i - 1)
		if strings.Contains(prev, "-----BEGIN") && (strings.Contains(prev, "CERTIFICATE") || strings.Contains(prev, "PUBLIC KEY")) {
			return -1, ""
		}
	}
	n, total := 0, 0
	for j := i; j < s.lines() && isBase64Line(s.line(j)); j++ {
		n++
		total += len(strings.TrimSpace(s.line(j)))
	}
	if n >= 3 && total >= 200 {
		return len(line) - len(strings.TrimLeft(line, " \t\"'")), SeverityWarning
	}
	return -1, ""
}

// imageBase64 reports base64 text that decodes to the start of an image
// or a font (PNG, JPEG, GIF, WebP, WOFF): a notebook's rendered output, an
// inlined icon, data a viewer shows and no interpreter runs.
func imageBase64(t string) bool {
	n := 0
	for n < len(t) && n < 24 && isBase64Byte(t[n]) {
		n++
	}
	if n < 16 {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(t[:n/4*4])
	if err != nil {
		return false
	}
	for _, magic := range []string{"\x89PNG\r\n\x1a\n", "\xff\xd8\xff", "GIF87a", "GIF89a", "wOFF", "wOF2"} {
		if strings.HasPrefix(string(b), magic) {
			return true
		}
	}
	return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP"
}

func isBase64Byte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/'
}

// longBase64 returns the start of the first run of at least 200 base64 (or
// base64url) characters that mixes upper case, lower case and digits, or -1.
func longBase64(line string) int {
	for i := 0; i < len(line); {
		if !encoded.IsBase64Byte(line[i]) {
			i++
			continue
		}
		j := i
		var upper, lower, digit bool
		for j < len(line) && encoded.IsBase64Byte(line[j]) {
			c := line[j]
			upper = upper || 'A' <= c && c <= 'Z'
			lower = lower || 'a' <= c && c <= 'z'
			digit = digit || '0' <= c && c <= '9'
			j++
		}
		if j-i >= 200 && upper && lower && digit {
			return i
		}
		i = j
	}
	return -1
}

// isBase64Line reports whether a line, trimmed of blanks, quotes and a
// trailing continuation (\ , +), is 40 or more standard base64 characters
// mixing upper case, lower case and digits.
func isBase64Line(line string) bool {
	t := strings.TrimSpace(line)
	t = strings.TrimRight(t, `\,+ `)
	t = strings.Trim(t, `"'`)
	t = strings.TrimRight(t, "=")
	if len(t) < 40 {
		return false
	}
	var upper, lower, digit bool
	for k := range len(t) {
		c := t[k]
		switch {
		case 'A' <= c && c <= 'Z':
			upper = true
		case 'a' <= c && c <= 'z':
			lower = true
		case '0' <= c && c <= '9':
			digit = true
		case c == '+' || c == '/':
		default:
			return false
		}
	}
	return upper && lower && digit
}

// mcpScopeProject matches the option of claude mcp add that writes the
// project's .mcp.json rather than the user's own configuration.
var mcpScopeProject = &lazyre.RE{Expr: `(?:\s-s|\s--scope)(?:\s+|=)project\b`}

// claudeMCPAdd grades claude mcp add: a warning in a program, or when it
// adds to the user's own configuration (the default scope, or user); a
// note in instructions or documentation at project scope, which writes the
// project's .mcp.json, a file the team reviews and Claude Code asks each
// user to approve, as the code analysis grades a bare .mcp.json written
// outside a program.
func claudeMCPAdd(s *scan, i int, m []int) string {
	if s.roles&roleCode == 0 && mcpScopeProject.MatchString(s.line(i)[m[1]:]) {
		return SeverityNote
	}
	return SeverityWarning
}

// pipedSource grades a download piped to a shell (pipe-to-shell's first
// matcher) by the command before the last pipe: fetchSev, also inside a
// quoted command (powershell -c "irm … | iex"); a warning in a text that
// switches PowerShell's certificate check off (program.PSCertOff).
func pipedSource(s *scan, i int, m []int) string {
	line := s.line(i)
	if m[0] > 0 && !strings.ContainsRune(" \t\"'`(", rune(line[m[0]-1])) || tlsVars.MatchString(line[:m[0]]) {
		return SeverityWarning // not curl or wget but a name ending in one, or a CA of the line's own
	}
	fetch := line[m[0]:m[1]]
	fetch = fetch[:strings.LastIndexByte(fetch, '|')]
	sev := fetchSev(fetch)
	if sev == SeverityNote && s.psCertOff() {
		return SeverityWarning // PowerShell told to accept any certificate
	}
	return sev
}

// psCertOff reports, once per scan, whether the text tells PowerShell to
// accept any certificate (program.PSCertOff reads the whole text).
func (s *scan) psCertOff() bool {
	if s.psCert == 0 {
		s.psCert = 1
		if program.PSCertOff(s.text) {
			s.psCert = 2
		}
	}
	return s.psCert == 2
}

// tlsVars matches a variable that gives curl or wget a CA or a
// configuration file of their own (program's tlsEnv).
var tlsVars = &lazyre.RE{Expr: `\b(?:CURL_CA_BUNDLE|SSL_CERT_FILE|SSL_CERT_DIR|CURL_HOME|WGETRC)=`}

// substSource grades a download a shell runs by substitution
// (pipe-to-shell's second matcher: bash -c "$(curl …)", bash <(curl …)) by
// the command inside it, up to the closing parenthesis: fetchSev.
func substSource(s *scan, i int, m []int) string {
	line := s.line(i)
	at := m[1] - len("curl")
	if strings.HasSuffix(strings.ToLower(line[:m[1]]), "wget") {
		at = m[1] - len("wget")
	}
	end := strings.IndexByte(line[at:], ')')
	if end < 0 {
		return SeverityWarning
	}
	return fetchSev(line[at : at+end])
}

// fetchSev grades the command that fetches what a shell runs: a note when
// it is curl or wget, or PowerShell's irm or iwr, alone fetching a
// project's own install script as the code analysis tells it
// (program.InstallerFetch, program.InstallerFetchPS: one URL spelled whole
// from source.Installer's list, the certificate checked); a warning for
// any other source, a variable, or a second command or pipe in it.
func fetchSev(fetch string) string {
	words := strings.Fields(fetch)
	if len(words) == 0 || strings.ContainsAny(fetch, "|;&<>()\x60\\") {
		return SeverityWarning
	}
	for k, w := range words {
		words[k] = strings.Trim(w, `"'`)
	}
	switch strings.ToLower(words[0]) {
	case "curl", "wget":
		return sevIf(!program.InstallerFetch(words[1:]))
	case "irm", "iwr", "invoke-restmethod", "invoke-webrequest":
		return sevIf(!program.InstallerFetchPS(words[1:]))
	}
	return SeverityWarning
}
