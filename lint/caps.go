package lint

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/skills-mcp/skills-mcp/manifest"
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

// ruleIndex maps a rule id to its place in Rules.
var ruleIndex = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(rules))
	for i, r := range rules {
		m[r.id] = i
	}
	return m
})

// FindingCaps returns the capabilities a finding shows: its rule's, when
// the finding is at warning or above. A note shows none (it is the
// analyser's low confidence), nor does a finding of a rule Analyze does
// not have (another tool's, imported from SARIF: its rules say nothing in
// this vocabulary).
func FindingCaps(f *manifest.Finding) []string {
	if Rank(f.Severity) < Rank(SeverityWarning) {
		return nil
	}
	if i, ok := ruleIndex()[f.Rule]; ok {
		if r := &rules[i]; r.capsOf != nil {
			return r.capsOf(f.Excerpt)
		}
		return rules[i].caps
	}
	return nil
}

var (
	agentTarget    = rx(`(?i)claude|agents\.md|gemini\.md|copilot-instructions|cursorrules|\.cursor[/\\]|windsurfrules|\.codex[/\\]`)
	nonAgentTarget = rx(`(?i)\.(?:bashrc|zshrc|bash_profile|zprofile|zshenv|profile)\b|config\.fish|/etc/profile|\$profile\b|authorized_keys|` +
		`crontab|/etc/cron|/var/spool/cron|systemd/|launch(?:agents|daemons)|\.git/hooks/|launchctl|currentversion\\run|schtasks`)
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

// SkillCaps returns the capabilities of a skill with the findings fs:
// those of every finding (FindingCaps), waived ones included, sorted
// bytewise, nil for none. A waiver accepts a finding, it does not undo
// what the skill does: an agent still sees it (Deny, which gates, leaves
// waived findings out).
func SkillCaps(fs []manifest.Finding) []string {
	var out []string
	for i := range fs {
		for _, c := range FindingCaps(&fs[i]) {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

// CheckDeny reports what is wrong with a list of denied capabilities: each
// one of Capabilities.
func CheckDeny(deny []string) error {
	for _, c := range deny {
		if !IsCapability(c) {
			return fmt.Errorf("deny: unknown capability %q (capabilities: %s)", c, strings.Join(Capabilities, ", "))
		}
	}
	return nil
}

// A Denial is a finding that shows a denied capability.
type Denial struct {
	Finding manifest.Finding
	Caps    []string // the finding's capabilities that deny names, sorted
}

// Deny returns the findings of fs that no waiver covers and that show a
// capability of deny (FindingCaps), in the order of fs: each withholds its
// skill, under the finding's rule. A waived finding does not: the waiver,
// bound to the file's digest, is the operator's acceptance of that rule in
// that file, as it is for --fail-on.
func Deny(deny []string, fs []manifest.Finding) []Denial {
	if len(deny) == 0 {
		return nil
	}
	var out []Denial
	for i := range fs {
		if fs[i].Waived != "" {
			continue
		}
		var caps []string
		for _, c := range FindingCaps(&fs[i]) {
			if slices.Contains(deny, c) {
				caps = append(caps, c)
			}
		}
		if len(caps) > 0 {
			out = append(out, Denial{fs[i], caps})
		}
	}
	return out
}
