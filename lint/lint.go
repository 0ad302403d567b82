package lint

import (
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// MaxBytes is the size of the largest file that is linted; bigger files
// are served but not read by the linter.
const MaxBytes = 512 << 10

// MaxExcerpt is the longest excerpt a finding carries, in bytes.
const MaxExcerpt = 120

// Severities of a finding.
const (
	SeverityWarning = "warning"
	SeverityNote    = "note" // a weaker signal: likely legitimate, still worth a look
)

// Rule names one lint rule and says in one line what it looks for.
type Rule struct {
	ID          string
	Description string
}

// Rules lists every rule Lint applies, in the order its findings come
// back. The ids are stable: they are stored in manifests and used as SARIF
// rule ids.
var Rules = []Rule{
	{"pipe-to-shell", "pipes a downloaded script into a shell"},
	{"remote-exec", "evaluates code fetched from the network"},
	{"eval-decode", "evaluates decoded or decompressed data"},
	{"base64-blob", "embeds a long base64 blob in a script"},
	{"destructive-rm", "recursively deletes /, ~ or $HOME"},
	{"world-writable", "makes files world-writable (mode 777)"},
	{"sensitive-path", "touches credential files such as ~/.ssh keys or ~/.aws/credentials"},
	{"credential-literal", "contains a literal secret: an API token or a private key"},
	{"env-exfil", "sends environment variables or secrets over the network"},
	{"prompt-injection", "tells the model to ignore its instructions or to keep things from the user"},
	{"reverse-shell", "opens a reverse shell"},
}

// IsScript reports whether path names an executable script by its
// extension: .sh .bash .zsh .ps1 .psm1 .bat .cmd .py .js .mjs .cjs .ts .rb .pl
// .php, in any case. --no-scripts withholds these files and base64-blob reads
// only them.
func IsScript(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".sh", ".bash", ".zsh", ".ps1", ".psm1", ".bat", ".cmd",
		".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php":
		return true
	}
	return false
}

// Lint applies every rule of Rules to one file of a skill and returns its
// findings in rule order. file is the path relative to the skill folder,
// slash-separated; it picks the rules that apply and whether the file is
// Markdown. The caller passes only text files of at most MaxBytes; Lint
// accepts any bytes all the same and never fails.
//
// Lint labels, it never blocks. Each rule gives at most one finding per file:
// the first line that matches with severity "warning", else the first line
// that matches with severity "note". Lines are split on "\n" with an optional
// "\r"; lines are numbered from 1. The excerpt is the trimmed line, valid UTF-8
// with control characters replaced by U+FFFD, at most MaxExcerpt bytes cut at a
// rune boundary; a match further right than fits starts the excerpt near the
// match, after "…".
//
// # Fewer false positives than the reference linter
//
// The reference linter flagged most "curl … | sh" install lines. These choices
// keep the signal and drop or lower the noise:
//
//   - Prose warnings. On a prose line, a match is skipped when never, do
//     not, don't, avoid, must not, should not, warning, beware, dangerous,
//     unsafe or insecure comes before it. A prose line is a Markdown line
//     outside fenced code, any line of a .txt, .rst or .adoc file, or a comment
//     line (#, //, /*, *, --, ;, <!--, <#, REM, ::) in any file, Markdown
//     fences included. So "Never run `curl x | sh`" is skipped, but
//     `echo never; curl x | sh` in a script is not. credential-literal,
//     base64-blob and prompt-injection ignore prose: a secret or a blob is one
//     whatever the text around it says, and "never mind, ignore previous
//     instructions" is still an injection.
//   - Install instructions. In Markdown, pipe-to-shell and remote-exec are a
//     "note" inside a fenced block whose info string, enclosing headings
//     (## Install, then ### macOS) or lead-in line say install, setup, set up,
//     getting started, quick start or prerequisites, and on a prose line that
//     says so itself or sits under such a heading. In scripts they stay warnings.
//   - destructive-rm needs a recursive flag (-r, -R, -rf, -fr, --recursive, in
//     any order and split or not) and a target that is exactly /, /*, ~, ~/,
//     ~/*, $HOME, ${HOME}, $HOME/ or $HOME/* (quoted or not): rm -rf ./build,
//     rm -rf "$TMPDIR/x" and rm -rf /tmp/x are fine. "$VAR/" or $VAR/* alone,
//     which becomes / when VAR is empty, is a note; ${VAR:?}/ is fine.
//   - world-writable is mode 777 only (777, 0777, a+rwx, ugo+rwx, and 0o777 in
//     chmod calls of Python, Node, PHP, Ruby); 755, +x, 1777 and 7777 are fine.
//   - sensitive-path is a warning for secrets (~/.ssh private keys and
//     authorized_keys, ~/.aws/credentials, ~/.gnupg and its private keys,
//     ~/.netrc, ~/.pypirc, ~/.git-credentials, /etc/shadow) and a note for
//     configuration and public files (~/.ssh, ~/.ssh/config, known_hosts,
//     *.pub, or a key on a line that makes or uses it: ssh-keygen, ssh-add,
//     ssh-copy-id, ssh/scp -i, IdentityFile; ~/.aws/config, ~/.gnupg's
//     keyrings and *.conf, ~/.npmrc, ~/.kube, ~/.docker, ~/.azure, gh and
//     gcloud config, /etc/passwd).
//   - credential-literal needs the real token shapes (AWS key ids, GitHub
//     classic and fine-grained, GitLab, OpenAI with its T3BlbkFJ marker,
//     Anthropic, Slack with its numeric ids, Google API, Stripe live, npm, and
//     a PEM private key header followed by base64), and drops placeholders:
//     bodies with EXAMPLE, sample, dummy, placeholder, your, redacted, xxxx,
//     0000, 1234, abcd, or one character five times in a row.
//   - env-exfil is a warning when the whole environment goes out (env |
//     curl, curl -d "$(env)", /proc/self/environ, fetch(…process.env)) and a
//     note when curl or wget sends a $…KEY/TOKEN/SECRET/PASSWORD variable in
//     its request body: OAuth flows do that. The same variable in -H or -u is
//     how APIs are called and is not reported.
//   - base64-blob needs a run of 200 base64 characters holding upper case,
//     lower case and digits (no "////…" rulers), or 3+ lines of 40+ such
//     characters adding up to 200 (wrapped payloads, which the reference
//     missed); data:image and data:font URIs are notes; PEM certificates and
//     public keys are fine.
//   - prompt-injection reads Markdown and plain text. A phrase in quotes or
//     backticks (a skill about injection quoting one) is a note, and so is
//     "without asking the user".
//   - reverse-shell reads /dev/tcp/host/port only with a shell's input and
//     output sent there (>& /dev/tcp, <>, 0>&1, sh -i), not a lone redirection
//     (port checks such as bash -c "</dev/tcp/$HOST/443"). nc needs -e, -c or
//     --exec, so nc -z port scans are fine.
//
// It also finds more than the reference: bash -c "$(curl …)", irm | iex,
// intermediate pipes (curl | tee | sh), exec(zlib.decompress(b64decode(…))),
// split rm flags, nc -lvp 4444 -e, mkfifo | nc, socat exec:, one-line socket
// shells, and more token kinds.
func Analyze(file string, data []byte) []manifest.Finding {
	s := newScan(file, data)
	defer s.free()
	var out []manifest.Finding
	for i := range rules {
		r := &rules[i]
		if r.applies != nil && !r.applies(file) {
			continue
		}
		if f, ok := s.find(i); ok {
			f.File = file
			out = append(out, f)
		}
	}
	return out
}

// A rule is a Rule with its matchers.
type rule struct {
	id      string
	applies func(file string) bool // nil: every file
	prose   bool                   // a prose warning before the match clears it
	install bool                   // a warning becomes a note in a Markdown install context
	pats    []pattern
	// multi, when set, also looks at line i and the lines after it; it
	// returns the match start in line i and a severity, or "" for none.
	multi func(s *scan, i int) (int, string)
}

// A pattern is one regular expression of a rule.
type pattern struct {
	keys []string // lowercase, not empty: the line must hold one of them before re runs
	all  []string // lowercase: the line must also hold each of them
	re   *lazyRE
	sev  string
	// check, when set, decides on a match m (submatch indexes into line i):
	// it returns the severity, or "" to reject the match.
	check func(s *scan, i int, m []int) string
}

// shell names a Unix shell or PowerShell, with an optional /bin/ or
// /usr/local/bin/ path, at a word boundary.
const shell = `(?:(?:/usr)?(?:/local)?/bin/)?(?:(?:ba|z|da|k|fi)?sh|pwsh|powershell)\b`

var rules = []rule{
	{
		id: "pipe-to-shell", prose: true, install: true,
		pats: []pattern{
			{
				keys: []string{"curl", "wget", "iwr", "irm", "invoke-webrequest", "invoke-restmethod"}, all: []string{"|"},
				re: rx(`(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b(?:.*[^|])?\|\s*` +
					`(?:sudo\b(?:\s+-\S+)*\s+)?(?:env\s+)?` +
					`(?:` + shell + `|(?:iex|invoke-expression)\b|(?:python[0-9.]*|perl|ruby|node|php)(?:\s*$|\s+-(?:\s|$)))`),
				sev: SeverityWarning,
			},
			{
				keys: []string{"curl", "wget"}, all: []string{"("},
				re:  rx(`(?i)(?:\b(?:(?:ba|z|da|k)?sh|source|eval)|(?:^|[\s;&(])\.)\s+(?:-\S+\s+)*["']?(?:<\(|\$\()\s*(?:curl|wget)\b`),
				sev: SeverityWarning,
			},
		},
	},
	{
		id: "remote-exec", prose: true, install: true,
		pats: []pattern{
			{
				keys: []string{"iex", "invoke-expression"},
				re: rx(`(?i)\b(?:iex|invoke-expression)\b[\s(&{$"']*(?:new-object\s+(?:system\.)?net\.webclient|\[(?:system\.)?net\.webclient\]|` +
					`iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget|start-bitstransfer)\b`),
				sev: SeverityWarning,
			},
			{
				keys: []string{"download"}, all: []string{"|"},
				re:  rx(`(?i)\.download(?:string|data)\s*\(.*\|\s*(?:iex|invoke-expression)\b`),
				sev: SeverityWarning,
			},
			{
				keys: []string{"eval", "exec", "new function"}, all: []string{"("},
				re: rx(`(?i)(?:^|[^.\w$])(?:eval|exec|new\s+function)\s*\(\s*(?:await\s*\(?\s*)*` +
					`(?:requests\.get|urllib\.request\.urlopen|urllib2\.urlopen|urlopen|fetch|https?\.get|uri\.open|open-uri|net::http\.get|` +
					`file_get_contents\s*\(\s*["']https?:)`),
				sev: SeverityWarning,
			},
		},
	},
	{
		id: "eval-decode", prose: true,
		pats: []pattern{
			{
				keys: []string{"eval", "exec", "new function"}, all: []string{"("},
				re: rx(`(?i)(?:^|[^.\w$])(?:eval|exec|new\s+function)\s*\(\s*(?:[\w.$]+\s*\(\s*)*[\w.$]*?` +
					`(?:base64|b64decode|atob|codecs\.decode|buffer\.from|zlib\.decompress|gzip\.decompress|marshal\.loads|` +
					`bytes\.fromhex|unhexlify|gzinflate|str_rot13|hex2bin)`),
				sev: SeverityWarning,
			},
			{
				keys: []string{"base64"}, all: []string{"|"},
				re:  rx(`(?i)\bbase64\s+(?:-\w*d\w*|--decode)\b.*\|\s*(?:sudo\s+)?(?:` + shell + `|(?:python[0-9.]*|perl|ruby|node)\b)`),
				sev: SeverityWarning,
			},
			{
				keys: []string{"base64"}, all: []string{"$("},
				re:  rx(`(?i)\b(?:eval|(?:ba|z|da|k)?sh\s+-c)\s+["']?\$\(.*\bbase64\s+(?:-\w*d\w*|--decode)\b`),
				sev: SeverityWarning,
			},
			{
				keys: []string{"frombase64string"},
				re:   rx(`(?i)\b(?:iex|invoke-expression)\b.*frombase64string`),
				sev:  SeverityWarning,
			},
			{
				keys: []string{"powershell", "pwsh"},
				re:   rx(`(?i)\b(?:powershell|pwsh)(?:\.exe)?\b.*\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}`),
				sev:  SeverityWarning,
			},
		},
	},
	{
		id: "base64-blob", applies: IsScript,
		multi: base64Blob,
	},
	{
		id: "destructive-rm", prose: true,
		pats: []pattern{{
			keys: []string{"rm ", "rm\t"}, all: []string{"-"},
			re: rx(`\brm\s+((?:-[\w-]*\s+)+)(?:[^\s;&|-][^\s;&|]*\s+(?:-[\w-]*\s+)*)*?` +
				`(["']?(?:/|~|\$\{?[A-Za-z_]\w*\}?)["']?/?["']?\*?["']?)(?:[\s;&|)]|$)`),
			check: destructiveRm,
		}},
	},
	{
		id: "world-writable", prose: true,
		pats: []pattern{
			{
				keys: []string{"chmod"},
				re:   rx(`(?i)\bchmod\s+(?:-[\w-]+\s+)*(?:0?777|a[+=]rwx|ugo[+=]rwx)(?:[\s;&|)"']|$)`),
				sev:  SeverityWarning,
			},
			{
				keys: []string{"chmod"},
				re:   rx(`(?i)\bchmod(?:sync)?\s*\((?:[^)]*,)?\s*(?:0o?777\b|["']0?777["'])`),
				sev:  SeverityWarning,
			},
		},
	},
	{
		id: "sensitive-path", prose: true,
		pats: []pattern{
			{
				keys: []string{".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".npmrc", ".netrc", ".pypirc", ".git-credentials", ".config/g", `.config\g`},
				re: rx(`(?i)(?:~|\$\{?home\}?|%userprofile%|\$env:userprofile|/home/[^/\s]+|/users/[^/\s]+|/root)[/\\]+` +
					`\.(ssh|aws|gnupg|kube|docker|azure|npmrc|netrc|pypirc|git-credentials|config[/\\](?:gh|gcloud))\b(?:[/\\]([\w.-]+))?`),
				check: sensitiveHome,
			},
			{
				keys:  []string{"/etc/"},
				re:    rx(`/etc/(shadow|gshadow|passwd)\b`),
				check: func(s *scan, i int, m []int) string { return sevIf(s.line(i)[m[2]:m[3]] != "passwd") },
			},
		},
	},
	{
		id: "credential-literal",
		pats: []pattern{
			{
				keys: []string{"akia", "asia", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-", "xox", "aiza", "k_live_", "npm_"},
				re: rx(`(?:^|[^A-Za-z0-9_-])((?:AKIA|ASIA)([0-9A-Z]{16})|gh[pousr]_([A-Za-z0-9]{36})|github_pat_([A-Za-z0-9]{22}_[A-Za-z0-9]{59})|` +
					`glpat-([A-Za-z0-9_-]{20})|sk-ant-(?:api|admin)\d\d-([A-Za-z0-9_-]{80,})|` +
					`sk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,})|xox[abposr]-(\d{6,}-[A-Za-z0-9-]{10,})|` +
					`AIza([0-9A-Za-z_-]{35})|[sr]k_live_([0-9A-Za-z]{24,})|npm_([A-Za-z0-9]{36}))(?:[^A-Za-z0-9_-]|$)`),
				check: credential,
			},
			{
				keys:  []string{"private key"},
				re:    rx(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`),
				check: privateKey,
			},
		},
	},
	{
		id: "env-exfil", prose: true,
		pats: []pattern{
			{
				keys: []string{"env"}, all: []string{"|"},
				re:  rx(`\b(?:printenv|env)(?:\s+[\w-]+)*\s*\|(?:[^|]*\|)*\s*(?:sudo\s+)?(?:curl|wget|nc|ncat|netcat|socat|telnet)\b`),
				sev: SeverityWarning,
			},
			{
				keys: []string{"env)", "env`", "/environ"},
				re:   rx("(?i)\\b(?:curl|wget)\\b.*(?:\\$\\(\\s*(?:env|printenv)\\s*\\)|<\\(\\s*(?:env|printenv)\\s*\\)|`(?:env|printenv)`|/proc/(?:self|\\d+)/environ)"),
				sev:  SeverityWarning,
			},
			{
				keys: []string{"os.environ", "process.env"},
				re: rx(`\b(?:requests\.(?:post|put|patch)|urllib\.request\.urlopen|fetch|axios(?:\.(?:post|put))?|https?\.request)\s*\(` +
					`.*\b(?:os\.environ|process\.env)(?:[^\w.\[]|$)`),
				sev: SeverityWarning,
			},
			{
				keys: []string{"curl", "wget"}, all: []string{"$"},
				re:    rx(`(?i)\b(?:curl|wget)\b`),
				check: secretInBody,
			},
		},
	},
	{
		id: "prompt-injection", applies: isProseFile,
		pats: []pattern{
			{
				keys: []string{"ignore", "disregard", "forget", "override"},
				re: rx(`(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?` +
					`(?:previous|prior|above|earlier|preceding|system|original)\s+(?:instructions|prompts?|rules|directions|guidelines|messages)\b`),
				sev: SeverityWarning, check: quotedNote,
			},
			{
				keys: []string{"the user"},
				re: rx(`(?i)\b(?:do\s+not|don't|don’t|never)\s+(?:tell|inform|alert|notify|reveal\s+(?:this\s+|it\s+)?to|mention\s+(?:this\s+|it\s+)?to)\s+the\s+user\b|` +
					`\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b|` +
					`\b(?:hide|conceal)\s+(?:this|it|that|these|them)\s+from\s+the\s+user\b`),
				sev: SeverityWarning, check: quotedNote,
			},
			{
				keys: []string{"the user"},
				re:   rx(`(?i)\bwithout\s+asking\s+the\s+user\b`),
				sev:  SeverityNote,
			},
			{
				keys: []string{"im_start", "you are now"},
				re:   rx(`(?i)<\|im_start\|>\s*system|\byou\s+are\s+now\s+(?:in\s+)?(?:dan|developer\s+mode|jailbroken|unrestricted)\b`),
				sev:  SeverityWarning, check: quotedNote,
			},
		},
	},
	{
		id: "reverse-shell", prose: true,
		pats: []pattern{
			{
				// nc as a word is followed by .exe or white space (\s), so
				// "function" and "once" are not looked at.
				keys: []string{"nc ", "nc\t", "nc\f", "nc\r", "nc.exe", "ncat", "netcat"}, all: []string{"-"},
				re:  rx(`\b(?:nc|ncat|netcat)(?:\.exe)?\s(?:[^;&|]*\s)?(?:-[a-zA-Z]*e|-c|--(?:sh-|lua-)?exec)(?:[\s=]|$)`),
				sev: SeverityWarning,
			},
			{
				keys:  []string{"/dev/tcp/", "/dev/udp/"},
				re:    rx(`/dev/(?:tcp|udp)/[^/\s"']+/[^\s"';&|)]+`),
				check: devTCP,
			},
			{
				keys: []string{"socat"},
				re:   rx(`(?i)\bsocat\b.*\b(?:exec|system):`),
				sev:  SeverityWarning,
			},
			{
				keys: []string{"mkfifo"},
				re:   rx(`\bmkfifo\b.*\b(?:nc|ncat|netcat|telnet)\b`),
				sev:  SeverityWarning,
			},
			{
				keys: []string{"socket"},
				re: rx(`(?i)\bsocket\b.*\bconnect\b.*(?:\bsubprocess\b|\bpty\.spawn\b|\bos\.dup2\b|\bchild_process\b|/bin/(?:ba)?sh\b)|` +
					`\bnet\.sockets\.tcpclient\b.*\b(?:iex|invoke-expression)\b`),
				sev: SeverityWarning,
			},
		},
	},
}

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
	case "", "~", "$HOME":
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
	dir := strings.ToLower(line[m[2]:m[3]])
	name := ""
	if m[4] >= 0 {
		name = strings.ToLower(line[m[4]:m[5]])
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

// keyTools matches lines that create or use a key rather than read it.
var keyTools = rx(`\bssh-(?:keygen|add|copy-id)\b|\b(?:ssh|scp|sftp)\s(?:[^|;&]*\s)?-i\s|(?i:identityfile)`)

// placeholder matches token bodies that are documentation, not secrets.
var placeholder = rx(`(?i)example|sample|dummy|placeholder|your|redacted|xxxx|0000|1234|abcd`)

// credential rejects placeholder tokens.
func credential(s *scan, i int, m []int) string {
	line := s.line(i)
	for g := 2; g+1 < len(m); g += 2 {
		if g == 2 || m[g] < 0 {
			continue
		}
		body := line[m[g]:m[g+1]]
		if placeholder.MatchString(body) || hasRun(body, 5) {
			return ""
		}
	}
	return SeverityWarning
}

// hasRun reports whether s holds one byte n times in a row.
func hasRun(s string, n int) bool {
	run := 0
	for i := range len(s) {
		if i > 0 && s[i] == s[i-1] {
			run++
		} else {
			run = 1
		}
		if run >= n {
			return true
		}
	}
	return false
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
	secretVar = rx(`\$\{?[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)[A-Z0-9_]*\}?`)
	cliOption = rx(`(?:^|\s)(-{1,2}[A-Za-z][\w-]*)`)
)

// secretInBody accepts curl or wget when a secret variable stands in the
// request body: the last option before it is a data or form option.
func secretInBody(s *scan, i int, m []int) string {
	line := s.line(i)[m[0]:]
	for _, v := range secretVar.FindAllStringIndex(line, -1) {
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

var shellRedirect = rx(`(?:>&|&>|<>)\s*/dev/(?:tcp|udp)/|\b0>&1\b|\b0<&\d|\b(?:ba|z|k)?sh\s+-i\b`)

// devTCP accepts bash's /dev/tcp when a shell's input and output go to it
// (>& /dev/tcp, <>, 0>&1, sh -i); a lone redirection is a port check.
func devTCP(s *scan, i int, m []int) string {
	if shellRedirect.MatchString(s.line(i)) {
		return SeverityWarning
	}
	return ""
}

// quotedNote lowers a phrase that the line quotes rather than says.
func quotedNote(s *scan, i int, m []int) string {
	line := s.line(i)
	before, after := line[:m[0]], line[m[1]:]
	for _, q := range []string{`"`, "`"} {
		if strings.Count(before, q)%2 == 1 && strings.Contains(after, q) {
			return SeverityNote
		}
	}
	if strings.Count(before, "“") > strings.Count(before, "”") && strings.Contains(after, "”") {
		return SeverityNote
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
		if strings.HasSuffix(prefix, ";base64,") && (strings.Contains(prefix, "data:image/") || strings.Contains(prefix, "data:font/")) {
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

func isBase64Byte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-'
}

// longBase64 returns the start of the first run of at least 200 base64 (or
// base64url) characters that mixes upper case, lower case and digits, or -1.
func longBase64(line string) int {
	for i := 0; i < len(line); {
		if !isBase64Byte(line[i]) {
			i++
			continue
		}
		j := i
		var upper, lower, digit bool
		for j < len(line) && isBase64Byte(line[j]) {
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

// isMarkdown reports whether a file is Markdown by its extension.
func isMarkdown(file string) bool {
	switch strings.ToLower(path.Ext(file)) {
	case ".md", ".markdown", ".mdx":
		return true
	}
	return false
}

// isPlainText reports whether a file is plain prose by its extension.
func isPlainText(file string) bool {
	switch strings.ToLower(path.Ext(file)) {
	case ".txt", ".text", ".rst", ".adoc":
		return true
	}
	return false
}

// isProseFile reports whether a model reads the file as instructions:
// Markdown or plain text.
func isProseFile(file string) bool { return isMarkdown(file) || isPlainText(file) }

var (
	negation    = rx(`(?i)\b(?:never|do\s+not|don'?t|don’t|avoid(?:s|ing)?|must\s+not|mustn'?t|should\s+not|shouldn'?t|warning|beware|dangerous|unsafe|insecure)\b`)
	installWord = rx(`(?i)\b(?:install\w*|setup|set[ -]up|getting\s+started|quick\s*start|prerequisites?)\b`)
)

// Line flags, worked out when a rule first needs them.
const (
	lineProse   = 1 << iota // prose: a prose warning can clear a match
	lineInstall             // Markdown install context
)

// scan is one file split into lines, with what the rules need to know about
// each. One pass over the bytes finds the lines and the rule keys each line
// holds; the line flags are worked out only when a pattern matches, and a
// file that holds no key costs nothing more.
type scan struct {
	file    string
	text    string   // the whole file
	starts  []int    // starts[i]: offset of line i in text; the last ends the last line (see line)
	hits    []int    // the lines that hold a rule key, ascending
	hitKeys []keySet // hitKeys[h]: the keys line hits[h] holds
	flags   []uint8  // empty until flag is first called
}

// scans keeps the buffers of finished scans: a build lints every file.
var scans = sync.Pool{New: func() any { return new(scan) }}

func newScan(file string, data []byte) *scan {
	s := scans.Get().(*scan)
	// The text shares data's bytes instead of copying them: a build lints
	// every file. Lint does not modify data, and nothing it returns or
	// keeps (free clears s) refers to the text: excerpts are copies.
	s.file, s.text = file, unsafe.String(unsafe.SliceData(data), len(data))
	s.index(data)
	return s
}

// free gives the scan's buffers back; nothing may use s after.
func (s *scan) free() {
	*s = scan{starts: s.starts[:0], hits: s.hits[:0], hitKeys: s.hitKeys[:0], flags: s.flags[:0]}
	scans.Put(s)
}

// line returns line i without its "\n" and a final "\r".
func (s *scan) line(i int) string {
	return strings.TrimSuffix(s.text[s.starts[i]:s.starts[i+1]-1], "\r")
}

// flag returns the flags of line i.
func (s *scan) flag(i int) uint8 {
	if len(s.flags) != s.lines() {
		s.setFlags()
	}
	return s.flags[i]
}

// setFlags works out every line's flags: they depend on the lines before.
func (s *scan) setFlags() {
	s.flags = append(s.flags[:0], make([]uint8, s.lines())...)
	switch {
	case isMarkdown(s.file):
		s.markdown()
	case isPlainText(s.file):
		for i := range s.flags {
			s.flags[i] = lineProse
		}
	default:
		for i := range s.lines() {
			if isComment(s.line(i)) {
				s.flags[i] = lineProse
			}
		}
	}
}

// markdown sets the line flags of a Markdown file: fenced code blocks, their
// install context, and prose.
func (s *scan) markdown() {
	var (
		fence   string  // the opening fence, "" outside a fenced block
		install bool    // the open block is about installing
		heads   [7]bool // heads[k]: the enclosing heading of level k says install
		lead    string  // the last non-blank prose line
	)
	underInstall := func() bool {
		for _, h := range heads {
			if h {
				return true
			}
		}
		return false
	}
	for i := range s.lines() {
		l := s.line(i)
		if fence != "" {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
				continue
			}
			if install {
				s.flags[i] |= lineInstall
			}
			if isComment(l) {
				s.flags[i] |= lineProse
			}
			continue
		}
		if f, info, ok := openFence(l); ok {
			fence = f
			install = saysInstall(info) || underInstall() || saysInstall(lead)
			continue
		}
		s.flags[i] |= lineProse
		if k, text := heading(l); k > 0 {
			heads[k] = saysInstall(text)
			for j := k + 1; j < len(heads); j++ {
				heads[j] = false
			}
		}
		if underInstall() || saysInstall(l) {
			s.flags[i] |= lineInstall
		}
		if strings.TrimSpace(l) != "" {
			lead = l
		}
	}
}

// isComment reports whether a line starts, after blanks, with a comment
// marker of a common language: # // /* * -- ; <!-- <# REM ::.
func isComment(l string) bool {
	t := strings.TrimLeft(l, " \t")
	for _, p := range []string{"#", "//", "/*", "*", "--", ";", "<!--", "<#", "::"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return len(t) > 3 && strings.EqualFold(t[:3], "rem") && (t[3] == ' ' || t[3] == '\t')
}

// openFence reports whether a Markdown line opens a fenced code block, with
// the fence and the info string after it.
func openFence(l string) (fence, info string, ok bool) {
	t := strings.TrimLeft(l, " \t")
	if t == "" || t[0] != '`' && t[0] != '~' {
		return "", "", false
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || t[0] == '`' && strings.Contains(t[n:], "`") {
		return "", "", false
	}
	return t[:n], t[n:], true
}

// heading returns the level and text of a Markdown ATX heading, or 0.
func heading(l string) (int, string) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return 0, ""
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return 0, ""
	}
	return n, t[n:]
}

// saysInstall reports whether text is about installing or setting up.
func saysInstall(text string) bool {
	l := strings.ToLower(text)
	return containsAny(l, installKeys) && installWord.MatchString(text)
}

var installKeys = []string{"install", "setup", "set up", "set-up", "started", "quick", "prerequisite"}

// keySet is a set of rule keys, by their number in ruleKeyIndex.
type keySet [2]uint64

func (k *keySet) add(id int)         { k[id>>6] |= 1 << (id & 63) }
func (k keySet) meets(o keySet) bool { return k[0]&o[0] != 0 || k[1]&o[1] != 0 }
func (k *keySet) union(o keySet)     { k[0] |= o[0]; k[1] |= o[1] }

// ruleKeyIndex numbers the rules' keys, built on first use.
type ruleKeyIndex struct {
	keys    []string        // by number
	head    []uint32        // head[id]: the first bytes of keys[id], up to 4, little-endian
	mask    []uint32        // mask[id]: the bytes of head[id] that count
	byFirst [256][]int      // the numbers of the keys by first byte
	bigrams [1 << 10]uint64 // bit a|b<<8: some key starts with bytes a, b, in any case
	trigram [1 << 10]uint64 // bit trigramBit(t): some key starts with t, three lower-case bytes
	lower   [256]byte       // each byte, with ASCII letters in lower case
	pats    [][]keySet      // pats[r][k]: the keys of rules[r].pats[k]
	rules   []keySet        // rules[r]: the keys of all of rules[r]'s patterns
}

var ruleKeyOnce struct {
	sync.Once
	x *ruleKeyIndex
}

// ruleKeys returns the index of the rules' keys, built on first use.
func ruleKeys() *ruleKeyIndex {
	ruleKeyOnce.Do(func() { ruleKeyOnce.x = newRuleKeyIndex() })
	return ruleKeyOnce.x
}

func newRuleKeyIndex() *ruleKeyIndex {
	x := &ruleKeyIndex{pats: make([][]keySet, len(rules)), rules: make([]keySet, len(rules))}
	for i := range x.lower {
		x.lower[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			x.lower[i] += 'a' - 'A'
		}
	}
	ids := map[string]int{}
	for r := range rules {
		x.pats[r] = make([]keySet, len(rules[r].pats))
		for p, pat := range rules[r].pats {
			for _, k := range pat.keys {
				id, ok := ids[k]
				if !ok {
					id = len(x.keys)
					if id >= len(keySet{})*64 || len(k) < 3 {
						panic("lint: a rule key is shorter than 3 bytes, or there are too many for a keySet")
					}
					ids[k] = id
					x.keys = append(x.keys, k)
					var head, mask uint32
					for i := range min(len(k), 4) {
						head |= uint32(k[i]) << (8 * i)
						mask |= 0xff << (8 * i)
					}
					x.head, x.mask = append(x.head, head), append(x.mask, mask)
					x.byFirst[k[0]] = append(x.byFirst[k[0]], id)
					t := trigramBit(uint32(k[0]) | uint32(k[1])<<8 | uint32(k[2])<<16)
					x.trigram[t>>6] |= 1 << (t & 63)
					for _, a := range caseVariants(k[0]) {
						for _, b := range caseVariants(k[1]) {
							i := uint(a) | uint(b)<<8
							x.bigrams[i>>6] |= 1 << (i & 63)
						}
					}
				}
				x.pats[r][p].add(id)
			}
			x.rules[r].union(x.pats[r][p])
		}
	}
	return x
}

// index finds the lines of the text and the rule keys each line holds,
// comparing ASCII letters without case: a key is tried only where the text
// holds its first two bytes (a bit set of byte pairs) and, likely, its
// first three (a hashed bit set of lower-case triples).
func (s *scan) index(data []byte) {
	x := ruleKeys()
	text := s.text
	s.starts = append(slices.Grow(s.starts[:0], strings.Count(text, "\n")+2), 0)
	for off := 0; ; {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		s.starts = append(s.starts, off)
	}
	line := 0
	var cur keySet // the keys of line
	for j := 0; j+1 < len(data); j++ {
		if b := uint(data[j]) | uint(data[j+1])<<8; x.bigrams[b>>6]&(1<<(b&63)) == 0 {
			continue
		}
		if j+2 >= len(text) {
			break // every key is three bytes or more
		}
		// The next four bytes, in lower case, to compare with each key's
		// head; a key longer than four bytes is compared in full after.
		c0 := x.lower[text[j]]
		w := uint32(c0) | uint32(x.lower[text[j+1]])<<8 | uint32(x.lower[text[j+2]])<<16
		if t := trigramBit(w); x.trigram[t>>6]&(1<<(t&63)) == 0 {
			continue
		}
		if j+3 < len(text) {
			w |= uint32(x.lower[text[j+3]]) << 24
		}
		for _, id := range x.byFirst[c0] {
			if w&x.mask[id] != x.head[id] || len(x.keys[id]) > 4 && !x.hasPrefixFold(text[j:], x.keys[id]) {
				continue
			}
			if line+1 < len(s.starts) && s.starts[line+1] <= j {
				if cur != (keySet{}) {
					s.hits = append(s.hits, line)
					s.hitKeys = append(s.hitKeys, cur)
					cur = keySet{}
				}
				for line+1 < len(s.starts) && s.starts[line+1] <= j {
					line++
				}
			}
			cur.add(id)
		}
	}
	if cur != (keySet{}) {
		s.hits = append(s.hits, line)
		s.hitKeys = append(s.hitKeys, cur)
	}
	// A final newline ends the last line; else the end of the text does.
	if n := len(s.starts); n == 1 || s.starts[n-1] != len(text) {
		s.starts = append(s.starts, len(text)+1)
	}
}

// lines returns the number of lines.
func (s *scan) lines() int { return len(s.starts) - 1 }

// trigramBit hashes three bytes (t, little-endian) to a bit of
// ruleKeyIndex.trigram.
func trigramBit(t uint32) uint32 { return (t * 0x9e3779b1) >> 16 & (1<<16 - 1) }

// caseVariants returns c and, for a lower-case ASCII letter, its upper case.
func caseVariants(c byte) []byte {
	if 'a' <= c && c <= 'z' {
		return []byte{c, c - 'a' + 'A'}
	}
	return []byte{c}
}

// hasPrefixFold reports whether s starts with key (lower case), comparing
// ASCII letters without case.
func (x *ruleKeyIndex) hasPrefixFold(s, key string) bool {
	if len(s) < len(key) {
		return false
	}
	for i := range len(key) {
		if x.lower[s[i]] != key[i] {
			return false
		}
	}
	return true
}

// find returns the finding of rule r (rules[ri]) in the file, if any.
func (s *scan) find(ri int) (manifest.Finding, bool) {
	r := &rules[ri]
	var note manifest.Finding
	found := false
	// look reports whether the search is over: line i gave a warning.
	look := func(i int, keys keySet) bool {
		start, sev := s.matchLine(ri, i, keys)
		if sev == "" {
			return false
		}
		f := manifest.Finding{Rule: r.id, Line: i + 1, Severity: sev, Excerpt: excerpt(s.line(i), start)}
		if sev == SeverityWarning {
			note, found = f, true
			return true
		}
		if !found {
			note, found = f, true
		}
		return false
	}
	// The candidate lines: those holding a key of a pattern, or all of them
	// for a multi-line matcher.
	if r.multi != nil {
		h := 0
		for i := range s.lines() {
			var keys keySet
			if h < len(s.hits) && s.hits[h] == i {
				keys = s.hitKeys[h]
				h++
			}
			if look(i, keys) {
				break
			}
		}
		return note, found
	}
	want := ruleKeys().rules[ri]
	for h, i := range s.hits {
		if s.hitKeys[h].meets(want) && look(i, s.hitKeys[h]) {
			break
		}
	}
	return note, found
}

// matchLine returns where rule r (rules[ri]) matches line i, which holds the
// keys keys, and with what severity: the first warning if there is one, or
// "" for no match.
func (s *scan) matchLine(ri, i int, keys keySet) (int, string) {
	r := &rules[ri]
	line := s.line(i)
	start, best := -1, ""
	consider := func(at int, sev string) bool {
		if r.install && sev == SeverityWarning && s.flag(i)&lineInstall != 0 {
			sev = SeverityNote
		}
		if best == "" || sev == SeverityWarning && best != SeverityWarning {
			start, best = at, sev
		}
		return best == SeverityWarning
	}
	pats := ruleKeys().pats[ri]
	for k := range r.pats {
		p := &r.pats[k]
		// The keys of p.all hold no letters (a test checks), so the line's
		// case does not matter.
		if !keys.meets(pats[k]) || !containsAll(line, p.all) {
			continue
		}
		for _, m := range p.re.FindAllStringSubmatchIndex(line, -1) {
			sev := p.sev
			if p.check != nil {
				sev = p.check(s, i, m)
			}
			if sev == "" || r.prose && s.flag(i)&lineProse != 0 && negation.MatchString(line[:m[0]]) {
				continue
			}
			if consider(m[0], sev) {
				return start, best
			}
		}
	}
	if r.multi != nil {
		if at, sev := r.multi(s, i); sev != "" {
			consider(at, sev)
		}
	}
	return start, best
}

func containsAll(s string, keys []string) bool {
	for _, k := range keys {
		if !strings.Contains(s, k) {
			return false
		}
	}
	return true
}

func containsAny(s string, keys []string) bool {
	for _, k := range keys {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// excerpt returns the line trimmed, made safe to print, and cut to
// MaxExcerpt bytes at a rune boundary; when the match at byte start would
// not show, the excerpt starts shortly before it, after "…".
func excerpt(line string, start int) string {
	trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
	start -= len(line) - len(trimmed)
	t := strings.TrimRightFunc(trimmed, unicode.IsSpace)
	const ellipsis = "…"
	if start > MaxExcerpt-40 && start < len(t) {
		from := start - 20
		for from > 0 && !utf8.RuneStart(t[from]) {
			from--
		}
		t = ellipsis + t[from:]
	}
	var b strings.Builder
	for _, r := range t { // invalid bytes come as utf8.RuneError
		if r == '\t' {
			r = ' '
		} else if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || isBidi(r) {
			r = utf8.RuneError
		}
		if b.Len()+utf8.RuneLen(r) > MaxExcerpt {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isBidi reports the bidirectional controls that can make printed text read
// differently from its bytes.
func isBidi(r rune) bool {
	return '\u202a' <= r && r <= '\u202e' || '\u2066' <= r && r <= '\u2069' || r == '\u200e' || r == '\u200f' || r == '\u061c'
}
