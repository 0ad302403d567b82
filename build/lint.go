package build

import (
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// MaxLintBytes is the size of the largest file that is linted; bigger files
// are served but not read by the linter.
const MaxLintBytes = 512 << 10

// MaxExcerpt is the longest excerpt a finding carries, in bytes.
const MaxExcerpt = 120

// Severities of a finding.
const (
	SeverityWarning = "warning"
	SeverityNote    = "note" // a weaker signal: likely legitimate, still worth a look
)

// LintRule names one lint rule and says in one line what it looks for.
type LintRule struct {
	ID          string
	Description string
}

// LintRules lists every rule Lint applies, in the order its findings come
// back. The ids are stable: they are stored in manifests and used as SARIF
// rule ids.
var LintRules = []LintRule{
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

// Lint applies every rule of LintRules to one file of a skill and returns its
// findings in rule order. file is the path relative to the skill folder,
// slash-separated; it picks the rules that apply and whether the file is
// Markdown. The caller passes only text files of at most MaxLintBytes; Lint
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
func Lint(file string, data []byte) []manifest.Finding {
	s := newScan(file, data)
	var out []manifest.Finding
	for i := range rules {
		r := &rules[i]
		if r.applies != nil && !r.applies(file) {
			continue
		}
		if f, ok := s.find(r); ok {
			f.File = file
			out = append(out, f)
		}
	}
	return out
}

// A rule is a LintRule with its matchers.
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
				check: func(s *scan, i int, m []int) string { return sevIf(s.lines[i][m[2]:m[3]] != "passwd") },
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
				keys: []string{"nc", "netcat"}, all: []string{"-"},
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
	line := s.lines[i]
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
	line := s.lines[i]
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
	line := s.lines[i]
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
	for j := i + 1; j < len(s.lines) && j <= i+3; j++ {
		t := strings.TrimSpace(s.lines[j])
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
	line := s.lines[i][m[0]:]
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
	if shellRedirect.MatchString(s.lines[i]) {
		return SeverityWarning
	}
	return ""
}

// quotedNote lowers a phrase that the line quotes rather than says.
func quotedNote(s *scan, i int, m []int) string {
	line := s.lines[i]
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
	line := s.lines[i]
	if start := longBase64(line); start >= 0 {
		prefix := strings.ToLower(line[:start])
		if strings.HasSuffix(prefix, ";base64,") && (strings.Contains(prefix, "data:image/") || strings.Contains(prefix, "data:font/")) {
			return start, SeverityNote
		}
		return start, SeverityWarning
	}
	if !isBase64Line(line) || i > 0 && isBase64Line(s.lines[i-1]) {
		return -1, ""
	}
	if i > 0 {
		prev := s.lines[i-1]
		if strings.Contains(prev, "-----BEGIN") && (strings.Contains(prev, "CERTIFICATE") || strings.Contains(prev, "PUBLIC KEY")) {
			return -1, ""
		}
	}
	n, total := 0, 0
	for j := i; j < len(s.lines) && isBase64Line(s.lines[j]); j++ {
		n++
		total += len(strings.TrimSpace(s.lines[j]))
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

// Line flags computed before the rules run.
const (
	lineProse   = 1 << iota // prose: a prose warning can clear a match
	lineInstall             // Markdown install context
)

// scan is one file split into lines, with what the rules need to know about
// each.
type scan struct {
	lines  []string // without "\n" and a final "\r"
	starts []int    // starts[i]: offset of line i in text
	flags  []uint8
	text   string           // the whole file with ASCII letters in lower case: offsets are unchanged
	where  map[string][]int // key: the lines that hold it, ascending
}

func newScan(file string, data []byte) *scan {
	lower := make([]byte, len(data))
	for i, c := range data {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	raw := string(data)
	lines := strings.Split(raw, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // a final newline ends the last line
	}
	starts := make([]int, len(lines))
	off := 0
	for i, l := range lines {
		starts[i] = off
		off += len(l) + 1
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	s := &scan{
		lines:  lines,
		starts: starts,
		flags:  make([]uint8, len(lines)),
		text:   string(lower),
	}
	switch {
	case isMarkdown(file):
		s.markdown()
	case isPlainText(file):
		for i := range s.flags {
			s.flags[i] = lineProse
		}
	default:
		for i, l := range lines {
			if isComment(l) {
				s.flags[i] = lineProse
			}
		}
	}
	return s
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
	for i, l := range s.lines {
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
		if underInstall() || saysInstall(s.lowerLine(i)) {
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

// lowerLine returns line i with ASCII letters in lower case.
func (s *scan) lowerLine(i int) string {
	return s.text[s.starts[i] : s.starts[i]+len(s.lines[i])]
}

// linesWith returns the lines that hold key (lower case), ascending. The
// first call finds every rule key in one pass over the file; a key outside
// the rules is searched on its own.
func (s *scan) linesWith(key string) []int {
	if s.where == nil {
		s.indexKeys()
	}
	if ls, ok := s.where[key]; ok || ruleKeys().set[key] {
		return ls
	}
	var ls []int
	for off := 0; ; {
		j := strings.Index(s.text[off:], key)
		if j < 0 {
			break
		}
		// The line holding offset off+j: the last start at or before it.
		i, _ := slices.BinarySearch(s.starts, off+j+1)
		i--
		if len(ls) == 0 || ls[len(ls)-1] != i {
			ls = append(ls, i)
		}
		if i+1 >= len(s.starts) {
			break
		}
		off = s.starts[i+1] // the next line: one hit per line is enough
	}
	s.where[key] = ls
	return ls
}

// ruleKeyIndex is what indexKeys needs to know about the rules' keys, built
// on first use.
type ruleKeyIndex struct {
	set     map[string]bool // every pattern key
	byFirst [256][]string   // the keys by first byte
	second  [256][4]uint64  // second[c]: the set of second bytes of the keys starting with c
}

var ruleKeys = sync.OnceValue(func() *ruleKeyIndex {
	x := &ruleKeyIndex{set: map[string]bool{}}
	for _, r := range rules {
		for _, p := range r.pats {
			for _, k := range p.keys {
				if !x.set[k] {
					x.set[k] = true
					x.byFirst[k[0]] = append(x.byFirst[k[0]], k)
					if len(k) < 2 {
						x.second[k[0]] = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
					} else {
						x.second[k[0]][k[1]>>6] |= 1 << (k[1] & 63)
					}
				}
			}
		}
	}
	return x
})

// indexKeys records, in one pass over the lower-cased text, the lines that
// hold each rule key: at each byte only the keys starting with it are tried.
func (s *scan) indexKeys() {
	s.where = make(map[string][]int)
	text, line := s.text, 0
	keys := ruleKeys()
	for j := 0; j < len(text); j++ {
		c, d := text[j], byte(0)
		if j+1 < len(text) {
			d = text[j+1]
		}
		if keys.second[c][d>>6]&(1<<(d&63)) == 0 {
			continue
		}
		ks := keys.byFirst[c]
		for line+1 < len(s.starts) && s.starts[line+1] <= j {
			line++
		}
		for _, k := range ks {
			if strings.HasPrefix(text[j:], k) {
				if ls := s.where[k]; len(ls) == 0 || ls[len(ls)-1] != line {
					s.where[k] = append(ls, line)
				}
			}
		}
	}
}

// find returns the finding of rule r in the file, if any.
func (s *scan) find(r *rule) (manifest.Finding, bool) {
	// The candidate lines: those holding a key of a pattern, or all of them
	// for a multi-line matcher.
	var cand []int
	if r.multi != nil {
		cand = make([]int, len(s.lines))
		for i := range cand {
			cand[i] = i
		}
	} else {
		for k := range r.pats {
			for _, key := range r.pats[k].keys {
				cand = append(cand, s.linesWith(key)...)
			}
		}
		slices.Sort(cand)
		cand = slices.Compact(cand)
	}
	var note manifest.Finding
	found := false
	for _, i := range cand {
		start, sev := s.matchLine(r, i)
		if sev == "" {
			continue
		}
		f := manifest.Finding{Rule: r.id, Line: i + 1, Severity: sev, Excerpt: excerpt(s.lines[i], start)}
		if sev == SeverityWarning {
			return f, true
		}
		if !found {
			note, found = f, true
		}
	}
	return note, found
}

// matchLine returns where rule r matches line i and with what severity, the
// first warning if there is one, or "" for no match.
func (s *scan) matchLine(r *rule, i int) (int, string) {
	line := s.lines[i]
	start, best := -1, ""
	consider := func(at int, sev string) bool {
		if r.install && sev == SeverityWarning && s.flags[i]&lineInstall != 0 {
			sev = SeverityNote
		}
		if best == "" || sev == SeverityWarning && best != SeverityWarning {
			start, best = at, sev
		}
		return best == SeverityWarning
	}
	for k := range r.pats {
		p := &r.pats[k]
		if l := s.lowerLine(i); !containsAny(l, p.keys) || !containsAll(l, p.all) {
			continue
		}
		for _, m := range p.re.FindAllStringSubmatchIndex(line, -1) {
			sev := p.sev
			if p.check != nil {
				sev = p.check(s, i, m)
			}
			if sev == "" || r.prose && s.flags[i]&lineProse != 0 && negation.MatchString(line[:m[0]]) {
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
