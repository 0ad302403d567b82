package program

import (
	"path"
	"strings"
)

// This file is what the code analysis (shell.go, flow.go) knows of a value:
// the string it holds when the analysis could work it out, and where it
// came from. It also names the places a path may point to (secrets,
// persistence, agent configuration) once its parts are put together.

// taint says where a value came from, a set of bits.
type taint uint16

const (
	tFetched taint = 1 << iota // a body fetched from the network
	tDecoded                   // decoded or decompressed at run time (base64, hex, rot13, …)
	tSecret                    // the content of a secret: a key file, a credential store, the environment
	tUnknown                   // an input the analysis cannot see: an argument, a computed name, a loop variable
	tBuilt                     // a string put together at run time from parts (concatenation, join, char codes)
	tHome                      // a path that starts at the user's home
	tEnv                       // the environment, whole
	tGuarded                   // a parameter expanded with ${V:?}: never empty
	tCmd                       // what a command printed
	tDevice                    // a block device, or a name a disk-listing command printed
	tParam                     // a function's parameter: what its caller passes
	// tShipped is a path inside the skill's own folder (CLAUDE_SKILL_DIR,
	// a script's own folder): a file there is one the analyser reads as a
	// file of its own, so copying it elsewhere hides nothing.
	tShipped
	// tKnownHead marks a value not known whole whose string is its start,
	// whole, and at most a file extension it ends with: the parts the
	// analysis cannot see all come after the start (f"exporters.{fmt}",
	// `./renderers/${f}.js`), so a name it builds stays under that prefix.
	tKnownHead
	// tNamed marks a value whose last part is a known path that ends it
	// and holds a slash or a backslash ("$HOME/.venv/bin/python",
	// %~dp0\node.exe): the folder was built at run time, the file's name is
	// spelled whole.
	tNamed
	tSaved // a path a download was saved to (urlretrieve(url, p)): running it runs the download
	// tHostHead marks a value not known whole whose string starts with the
	// parts known before the first it cannot see, and those spell a URL's
	// scheme and host whole, up to the path's slash
	// ("https://api.github.com/repos/${repo}/releases"): where a request
	// with it goes is known, though its path is not.
	tHostHead
)

// shippedValue is the skill's own folder, or a path in it the analysis
// knows no more of: named (CLAUDE_SKILL_DIR) so that the path built on it
// shows where it starts.
func shippedValue(name string) value {
	v := lit("${" + name + "}")
	v.t |= tShipped
	return v
}

// skillDirVar reports an environment variable a host sets to the skill's
// (or its plugin's) own folder.
func skillDirVar(name string) bool {
	return name == "CLAUDE_SKILL_DIR" || name == "CLAUDE_PLUGIN_ROOT"
}

// maxValue bounds the string a value holds: a longer one is cut, and the
// analysis goes on with the prefix (which is what paths and commands show).
const maxValue = 64 << 10

// A value is what a name or an expression may hold.
type value struct {
	s     string // the string, when known (known)
	known bool   // s is the whole value, or its first maxValue bytes
	t     taint
	path  pathKind // what the string names as a path, when it is one
	// issuer is, for a secret a service's own CLI printed (gh auth token),
	// the domain that issued it (an index into issuers): sent there over
	// https it is used, not leaked. Zero for any other secret, or when
	// parts from different issuers were joined. A small number keeps the
	// value, copied and compared everywhere, as small as it was.
	issuer uint8
	// store is, for a secret, which read of a secret file it came from
	// (secretread.go): a read whose content reaches no sink is graded a
	// note. shape says what the program parsed that content into
	// (secretfields.go), so that the names in it can be told from the
	// secrets.
	store, shape uint8
	// installer says a fetched body came whole from one project's own
	// install script (source.Installer) over checked https: piped to a
	// shell it is a note. Anything that builds a new value drops it.
	installer bool
	id        int // for a command's output the analysis cannot know: where the command is, so a file named by it can be followed
}

// windowsFolder returns what a Windows variable naming one of its folders
// holds (USERPROFILE, APPDATA, TEMP, ProgramFiles, SystemRoot, …), by its
// name in upper case: one table for batch's %VAR% and PowerShell's $env:.
func windowsFolder(name string) (value, bool) {
	home := func(rest string) (value, bool) {
		v := lit(homeMark + rest)
		v.t |= tHome
		return v, true
	}
	switch name {
	case "USERPROFILE", "HOMEPATH":
		return home("")
	case "HOMEDRIVE":
		return lit(""), true
	case "APPDATA":
		return home(`\AppData\Roaming`)
	case "LOCALAPPDATA":
		return home(`\AppData\Local`)
	case "TEMP", "TMP":
		return home(`\AppData\Local\Temp`)
	case "PROGRAMFILES", "PROGRAMW6432":
		return lit(`C:\Program Files`), true
	case "PROGRAMFILES(X86)":
		return lit(`C:\Program Files (x86)`), true
	case "PROGRAMDATA", "ALLUSERSPROFILE":
		return lit(`C:\ProgramData`), true
	case "SYSTEMROOT", "WINDIR":
		return lit(`C:\Windows`), true
	case "SYSTEMDRIVE":
		return lit(`C:`), true
	case "PUBLIC":
		return lit(`C:\Users\Public`), true
	}
	return value{}, false
}

// lit is a known string.
func lit(s string) value { return value{s: s, known: true} }

// unknown is an input the analysis cannot see.
func unknown() value { return value{t: tUnknown} }

// cat joins values: the string is known when every part is, and holds
// the known parts' strings otherwise. Zero values (nothing) are left out.
func cat(vs ...value) value {
	var out value
	out.known = true
	var b strings.Builder
	n := 0
	head, open := true, false // the string so far is the value's start; a part not known whole came
	lead := 0                 // the bytes of the string known before the first part not known whole
	last := len(vs) - 1
	for last > 0 && vs[last] == (value{}) {
		last--
	}
	secrets := 0
	for k, v := range vs {
		if v == (value{}) {
			continue
		}
		n++
		if v.t&tSecret != 0 {
			if secrets++; secrets == 1 {
				out.issuer, out.store = v.issuer, v.store
			} else {
				if v.issuer != out.issuer {
					out.issuer = 0
				}
				out.store = joinStores(out.store, v.store)
			}
		}
		out.t |= v.t &^ (tKnownHead | tHostHead)
		if open && v.s != "" && !(k == last && isExtension(v.s)) || !v.known && v.s != "" && v.t&tKnownHead == 0 {
			head = false
		}
		if !open {
			if !v.known && v.t&(tKnownHead|tHostHead) != 0 && v.s != "" {
				lead = b.Len() + len(v.s) // a part whose own start is known extends the lead
			} else if v.known {
				lead = b.Len() + len(v.s)
			}
		}
		open = open || !v.known
		if b.Len()+len(v.s) <= maxValue {
			b.WriteString(v.s) // a part not known whole adds the parts of it that are
		}
		if !v.known {
			out.known = false
		}
	}
	switch n {
	case 0:
		return value{}
	case 1:
		for _, v := range vs {
			if v != (value{}) {
				return v
			}
		}
	}
	out.t |= tBuilt
	out.t &^= tNamed
	if v := vs[last]; v.known && strings.ContainsAny(v.s, `/\`) && (v.t&tBuilt == 0 || v.t&tNamed != 0) {
		out.t |= tNamed
	}
	if !out.known && head {
		out.t |= tKnownHead
	}
	out.s = b.String()
	if !out.known && hostWhole(out.s[:min(lead, len(out.s))]) {
		out.t |= tHostHead
	}
	out.path = classifyPath(out)
	return out
}

// hostWhole reports whether s starts with a URL's scheme and a host
// ended by the path's slash.
func hostWhole(s string) bool {
	i := strings.Index(s, "://")
	return i > 0 && strings.Trim(strings.ToLower(s[:i]), "abcdefghijklmnopqrstuvwxyz") == "" && strings.IndexByte(s[i+3:], '/') > 0
}

// isExtension reports a file extension alone: ".js", ".py".
func isExtension(s string) bool {
	if len(s) < 2 || len(s) > 5 || s[0] != '.' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// homeMark stands for the user's home in a folded path.
const homeMark = "~"

// pathKind says what a path names.
type pathKind uint8

const (
	pathNone        pathKind = iota
	pathSecret               // a credential: SSH keys, cloud credentials, .netrc, .env, a browser's cookie or login store, a keychain
	pathPersist              // runs at log-in or later: shell rc files, autostart, systemd/launchd units, cron, git hooks
	pathAgentConfig          // an agent's configuration: ~/.claude, CLAUDE.md, MCP server lists, editor tasks
	pathHome                 // the home folder itself
	pathRoot                 // the root of the file system
)

// normPath puts a path's home forms ($HOME, ~, %USERPROFILE%, /home/x,
// /Users/x) as "~", backslashes as slashes, in lower case.
func normPath(s string) string {
	p := strings.ToLower(strings.ReplaceAll(s, `\`, "/"))
	for _, h := range []string{"${home}", "$home", "%userprofile%", "$env:userprofile", "$env:home", "%appdata%/..", "${xdg_config_home}", "$xdg_config_home"} {
		if strings.HasPrefix(p, h) {
			rest := p[len(h):]
			if strings.HasPrefix(h, "${xdg") || strings.HasPrefix(h, "$xdg") {
				rest = "/.config" + rest
			}
			p = homeMark + rest
			break
		}
	}
	for _, h := range []string{"/home/", "/users/"} {
		if strings.HasPrefix(p, h) {
			if i := strings.IndexByte(p[len(h):], '/'); i >= 0 {
				p = homeMark + p[len(h)+i:]
			} else {
				p = homeMark
			}
		}
	}
	if strings.HasPrefix(p, "/root/") || p == "/root" {
		p = homeMark + p[len("/root"):]
	}
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	if strings.Contains(p, "/..") {
		p = path.Clean(p) // APPDATA/../Local
	}
	return p
}

// secretNames are files under home (or anywhere, for the last ones) that
// hold credentials.
var secretNames = []string{
	"/.ssh/id_", "/.ssh/identity", "/.aws/credentials", "/.aws/config", "/.netrc", "/.git-credentials", "/.pypirc", "/.npmrc",
	"/.docker/config.json", "/.kube/config", "/.config/gh/hosts.yml", "/.config/gcloud/credentials.db",
	"/.config/gcloud/access_tokens.db", "/.config/gcloud/legacy_credentials", "/.config/gcloud/application_default_credentials",
	"/.azure/accesstokens.json", "/.azure/msal_token_cache", "/.azure/service_principal_entries", "/.gnupg/",
	"/.password-store", "/.vault-token", "/.terraform.d/credentials", "/.config/solana/id.json", "/.ethereum/keystore",
	"/library/keychains", "/.local/share/keyrings", "/login data", "/cookies", "/key4.db", "/logins.json", "/cookies.sqlite",
	"/local state", "/web data", "/.bitcoin/wallet", "/wallet.dat", "/.electrum/", "/exodus/", "/.claude/.credentials.json",
	"/.config/anthropic", "/.openai", "/.env",
}

// persistNames are places whose files run later without being asked.
var persistNames = []string{
	"/.bashrc", "/.bash_profile", "/.zshrc", "/.zprofile", "/.zshenv", "/.profile", "/.bash_login", "/.config/fish/config.fish",
	"/.config/autostart", "/.config/systemd/", "/library/launchagents", "/library/launchdaemons", "/etc/systemd/",
	"/etc/cron", "/var/spool/cron", "/etc/profile", "/etc/rc.local", "/.git/hooks/", "/.githooks/", "/.husky/", "/.ssh/authorized_keys",
	"/start menu/programs/startup", "/.xprofile", "/.xinitrc", "/.config/lxsession", "/etc/xdg/autostart",
	"/documents/windowspowershell/", "/documents/powershell/", "/.config/pip/pip.conf", "/.pip/pip.conf", "/pip/pip.ini",
	"/.condarc", "/.config/uv/uv.toml", "/.ipython/profile_default/startup/", "/.config/environment.d/", "/.ssh/rc",
}

// pythonStartup reports a file Python runs, or reads import lines of, at
// every start: a .pth file, sitecustomize.py or usercustomize.py in a
// site-packages folder (site.getusersitepackages()) that is not a
// project's own virtual environment (.venv, venv, .tox), which runs only
// the project's Python.
func pythonStartup(q string) bool {
	if !strings.Contains(q, "/site-packages/") && !strings.Contains(q, "/dist-packages/") {
		return false
	}
	for _, env := range []string{"/.venv/", "/venv/", "/.tox/", "/.nox/"} {
		if strings.Contains(q, env) {
			return false
		}
	}
	return strings.HasSuffix(q, ".pth") || strings.HasSuffix(q, "/sitecustomize.py") || strings.HasSuffix(q, "/usercustomize.py")
}

// agentNames are agents' configuration: what a host reads as instructions
// or runs as tools and hooks.
var agentNames = []string{
	"/.claude/", "/claude.md", "/agents.md", "/gemini.md", "/.mcp.json", "claude_desktop_config.json", "/.cursor/",
	"/.codex/", "/.gemini/", "/.windsurf", "/.codeium/", "/.vscode/tasks.json", "/.vscode/settings.json", "/.vscode/mcp.json",
	"/.continue/", "/.aider", "/copilot-instructions.md", "/.cursorrules", "/.clinerules", "/.roo/", "/.zed/settings.json",
}

// classifyPath says what a value names when read as a path. Only a string
// that starts at home, at /, or was built at run time (a relative
// CLAUDE.md the file only mentions is the line rules' business) counts.
func classifyPath(v value) pathKind {
	if !v.known && v.s == "" {
		return pathNone
	}
	p := normPath(v.s)
	if (p == homeMark || p == homeMark+"/" || p == homeMark+"/*") && (v.known || v.t&tHome != 0 && strings.HasPrefix(v.s, homeMark)) {
		return pathHome
	}
	if (p == "/" || p == "/*") && v.known {
		return pathRoot
	}
	rooted := strings.HasPrefix(p, homeMark+"/") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "./") || v.t&(tBuilt|tHome) != 0
	q := "/" + strings.TrimPrefix(strings.TrimPrefix(p, homeMark), "/")
	// A bare relative name counts only as agent configuration or a place
	// that runs later (a write to .mcp.json, .git/hooks/x); a file it
	// reads is the line rules' business.
	if strings.HasSuffix(q, "/.ssh/authorized_keys") || strings.HasSuffix(q, "/.ssh/authorized_keys2") {
		return pathPersist
	}
	for _, n := range agentNames {
		if i := strings.Index(q, n); i >= 0 && !installsSkill(q[i:]) {
			return pathAgentConfig
		}
	}
	for _, n := range persistNames {
		if i := strings.Index(q, n); i >= 0 && !(n == "/.git/hooks/" && inertHook(q[i+len(n):])) &&
			!(strings.HasPrefix(n, "/documents/") && inertPSFile(q[i+len(n):])) && !otherName(q, i+len(n), n) {
			return pathPersist
		}
	}
	if pythonStartup(q) {
		return pathPersist
	}
	if !rooted {
		return pathNone
	}
	for _, n := range secretNames {
		if i := strings.Index(q, n); i >= 0 {
			if n == "/.env" && !(i+len(n) == len(q) || q[i+len(n)] == '.') {
				continue
			}
			if strings.HasSuffix(q, ".pub") || strings.HasSuffix(q, "/.ssh/config") || strings.HasSuffix(q, "known_hosts") {
				continue
			}
			if (n == "/cookies" || n == "/local state" || n == "/login data" || n == "/web data") && !browserDir(q) {
				continue
			}
			return pathSecret
		}
	}
	// A folder that holds credentials among settings (gcloud's, Azure's) is
	// a secret whole, as SSH's is; the settings files in it are not.
	if t := strings.TrimSuffix(strings.TrimSuffix(p, "/*"), "/"); t == homeMark+"/.ssh" || t == homeMark+"/.aws" ||
		t == homeMark+"/.gnupg" || strings.HasSuffix(q, "/.config/gcloud") || strings.HasSuffix(q, "/.azure") {
		if v.known || v.t&tKnownHead == 0 || strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/*") {
			return pathSecret // the folder, or a file in it the analysis cannot name (~/.aws/ + a loop's name)
		}
	}
	return pathNone
}

// inertHook reports a file name directly in .git/hooks that git never
// runs: git runs a hook by its exact name (pre-commit), on Windows also
// with .exe after it, and no hook's name holds a dot, so a backup
// (pre-commit.bak) or a sample (pre-push.sample) sits there unrun. A
// name in a sub-folder may be sourced by a hook and stays a hook's.
func inertHook(name string) bool {
	return name != "" && !strings.ContainsAny(name, "/*$") && strings.Contains(name, ".") && !strings.HasSuffix(name, ".exe")
}

// otherName reports a match of a start-up file's name (/.zshrc) that goes
// on, at byte end of q, into a backup's name (.zshrc.bak,
// .zshrc.devbox-backup, .bashrc.orig, .profile~, .zshrc.20240101): a copy
// no shell reads. .zshrc.local and the like stay start-up files: many an
// rc sources them.
func otherName(q string, end int, n string) bool {
	if strings.HasSuffix(n, "/") || end >= len(q) || strings.IndexByte(".-_~", q[end]) < 0 {
		return false
	}
	rest := q[end:]
	if k := strings.IndexByte(rest, '/'); k >= 0 {
		rest = rest[:k]
	}
	if strings.HasSuffix(rest, "~") || strings.Trim(rest, ".-_0123456789") == "" {
		return true
	}
	for _, w := range []string{"bak", "backup", "orig", "old", "save", "prev", "before"} {
		if strings.Contains(rest, w) {
			return true
		}
	}
	return false
}

// inertPSFile reports a file in PowerShell's own folder that no session
// loads: a name of its own with an extension PowerShell does not run (a
// profile's .bak copy, a .txt), not a script, a module or a folder.
func inertPSFile(name string) bool {
	if name == "" || strings.ContainsAny(name, "/*$") {
		return false
	}
	switch path.Ext(name) {
	case "", ".ps1", ".psm1", ".psd1", ".ps1xml", ".dll":
		return false
	}
	return true
}

// installsSkill reports a path inside an agent folder that holds skills,
// commands or agents: installing one there is what such skills are for.
func installsSkill(q string) bool {
	for _, d := range []string{"/skills", "/commands", "/agents/", "/prompts/", "/plugins/", "/projects/"} {
		if strings.Contains(q, d) {
			return true
		}
	}
	return false
}

// bareRelative reports a path written as a plain relative name (CLAUDE.md,
// .git/hooks/x): a project's file, which instructions a model reads may
// well tell it to write.
func bareRelative(v value) bool {
	p := normPath(v.s)
	return v.known && v.t&(tBuilt|tHome) == 0 && !strings.HasPrefix(p, homeMark) && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "./")
}

// browserDir reports whether a path is inside a browser's profile.
func browserDir(q string) bool {
	for _, b := range []string{"chrome", "chromium", "brave", "edge", "opera", "vivaldi", "firefox", "mozilla", "safari"} {
		if strings.Contains(q, b) {
			return true
		}
	}
	return false
}

// weightiest returns the element of a loop's list whose path matters most
// to a sink (a secret, then agent configuration, then a place that runs
// later, then home), with the taint of them all; false when none names
// such a path.
func weightiest(elems []value) (value, bool) {
	rank := func(k pathKind) int {
		switch k {
		case pathSecret:
			return 4
		case pathAgentConfig:
			return 3
		case pathPersist:
			return 2
		case pathHome:
			return 1
		}
		return 0
	}
	best, r := value{}, 0
	var t taint
	for _, e := range elems {
		t |= e.t
		k := e.path
		if k == pathNone {
			k = classifyPath(e)
		}
		if rank(k) > r {
			best, r = e, rank(k)
			best.path = k
		}
	}
	best.t |= t &^ tHome
	return best, r > 0
}

// Stores of a secret that no single read names (value.store): 0 and
// storeAll stand for every read of the text, storeOther for none.
const (
	storeOther uint8 = 254 // a secret read from no file: a CLI's token, the environment, a user name
	// storeEnv is a credential from an environment variable (envsecret.go),
	// and only that: read from no file either.
	storeEnv uint8 = 253
	storeAll uint8 = 255 // parts of several reads joined, or more reads than a store can name
)

// joinStores returns the store of a value joined from secrets of stores a
// and b.
func joinStores(a, b uint8) uint8 {
	switch {
	case a == b:
		return a
	case a == storeEnv && b == storeOther, a == storeOther && b == storeEnv:
		return storeOther // no longer a credential alone
	case a == storeOther || a == storeEnv:
		return b
	case b == storeOther || b == storeEnv:
		return a
	}
	return storeAll
}
