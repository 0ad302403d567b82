package lint

import (
	"slices"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// Capabilities are what a skill can do, as the analysis saw it: each rule
// names the capabilities its findings show (Rule.Caps), and a skill has the
// capabilities of its findings. They describe behaviour, not intent: an
// honest installer that pipes curl into sh has network and exec-remote as
// much as an attack does. Rules about what a text tells the model (hidden
// or injected instructions, deceptive characters), and those that flag
// content rather than behaviour (a literal credential, a hidden file
// written), name none.
const (
	// CapNetwork sends or fetches over the network: downloads, uploads,
	// sockets, DNS lookups that carry data.
	CapNetwork = "network"
	// CapExecRemote runs what it downloads or decodes: a fetched script
	// piped to a shell, eval of a decoded payload, a reverse shell.
	CapExecRemote = "exec-remote"
	// CapReadsSecrets reads credentials: SSH and cloud keys, token files,
	// secret stores, the environment's secrets.
	CapReadsSecrets = "reads-secrets"
	// CapWritesPersistence installs something that runs again later: shell
	// rc files, cron, systemd and launchd units, git hooks, autostart, Run
	// keys, authorized_keys, files a tool runs on its own (conftest.py,
	// .envrc, install hooks).
	CapWritesPersistence = "writes-persistence"
	// CapAgentConfig writes or drives the agent's own configuration or
	// instructions: CLAUDE.md and AGENTS.md, ~/.claude/, MCP client
	// configuration, hooks and pre-prompt commands the host runs.
	CapAgentConfig = "agent-config"
	// CapDestructive deletes, wipes, shuts down or opens up the machine:
	// recursive deletes of a home or root, disk writes, world-writable
	// permissions.
	CapDestructive = "destructive"
	// CapDynamicCode runs code the analysis cannot read: eval of a
	// computed or decoded value, embedded encoded blobs.
	CapDynamicCode = "dynamic-code"
	// CapOpaqueFiles holds files the analysis could not read: binaries,
	// bytecode, files past the size it reads, content disguised by its name.
	CapOpaqueFiles = "opaque-files"
)

// Capabilities lists every capability, sorted bytewise: the order in
// which a rule, a finding and a skill list theirs (the manifest's rule).
var Capabilities = []string{
	CapAgentConfig, CapDestructive, CapDynamicCode, CapExecRemote,
	CapNetwork, CapOpaqueFiles, CapReadsSecrets, CapWritesPersistence,
}

// IsCapability reports whether name is one of Capabilities.
func IsCapability(name string) bool {
	return slices.Contains(Capabilities, name)
}

var (
	agentTarget    = &lazyre.RE{Expr: `(?i)claude|agents\.md|gemini\.md|copilot-instructions|cursorrules|\.cursor[/\\]|windsurfrules|\.codex[/\\]`}
	nonAgentTarget = &lazyre.RE{Expr: `(?i)\.(?:bashrc|zshrc|bash_profile|zprofile|zshenv|profile)\b|config\.fish|/etc/profile|\$profile\b|authorized_keys|` +
		`crontab|/etc/cron|/var/spool/cron|systemd/|launch(?:agents|daemons)|\.git/hooks/|launchctl|currentversion\\(?:run|winlogon)|schtasks|image file execution options|command processor|userinitmprlogonscript|start menu[/\\]programs[/\\]startup`}
)

// persistenceCaps gives a persistence finding writes-persistence alone
// when its excerpt names a shell rc file, cron, a unit, a hook or a Run key
// and no agent file; else agent-config too: a finding whose line shows
// neither (the target in a variable set elsewhere) keeps both, so that a
// library denying agent-config is not passed by indirection.
func persistenceCaps(excerpt string) []string {
	if nonAgentTarget.MatchString(excerpt) && !agentTarget.MatchString(excerpt) {
		return []string{CapWritesPersistence}
	}
	return []string{CapAgentConfig, CapWritesPersistence}
}
