package main

import (
	"time"
)

// ServeCmd serves bundles over MCP: over stdio by default, or over
// streamable HTTP at /mcp with --http. Libraries (--root, --lib, --config,
// or folders and .zip files given as arguments or in SKILLS_DIR) are served
// live: built into bundles in memory, watched and rescanned, and swapped in
// when they change (live.Live); SIGHUP reloads them at once.
type ServeCmd struct {
	ServeFlags `embed:""`
	Web        HTTPFlags `embed:""`
}

// ServeFlags are serve's flags but those of the HTTP endpoint
// (HTTPFlags): all that serving over stdio reads (see ServeStdioCLI).
type ServeFlags struct {
	Bundles      []string      `arg:"" optional:"" placeholder:"BUNDLE.skb|oci://...|https://...|DIR|ZIP" help:"Bundle files to serve (memory-mapped), bundles in a registry (oci://HOST/REPO:TAG or @sha256:..., fetched into the cache), with --follow https bundle URLs and discovery sites, or library folders and .zip files to serve live: one is served like --root, several under their folder names. A comma separates several in one argument."`
	SkillsDir    []string      `name:"skills-dir" env:"SKILLS_DIR" sep:"," placeholder:"DIR" help:"Library folders (or .zip files) to serve live, as if given as arguments."`
	Rescan       int           `name:"rescan-seconds" env:"SKILLS_RESCAN_SECONDS" default:"60" help:"Rescan live libraries every N seconds, a safety net for the watch (0: never; catalog_status refresh=true and SIGHUP still do)."`
	Watch        bool          `name:"watch" env:"SKILLS_WATCH" default:"true" negatable:"" help:"Watch live library folders and rebuild on change (--no-watch: rescans only)."`
	HTTP         string        `name:"http" env:"SKILLS_HTTP" placeholder:"[HOST:]PORT" help:"Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio."`
	Host         string        `name:"host" env:"SKILLS_HOST" default:"127.0.0.1" help:"Bind host when --http gives only a port. 0.0.0.0 or :: need --allowed-hosts."`
	AllowedHosts []string      `name:"allowed-hosts" env:"SKILLS_ALLOWED_HOSTS" sep:"," placeholder:"HOST" help:"Host names (or HOST:PORT) clients may use in Host and Origin headers, besides localhost."`
	Name         string        `name:"name" env:"SKILLS_NAME" default:"skills-mcp" help:"Server name announced to clients (letters, digits, - and _)."`
	Title        string        `name:"title" env:"SKILLS_TITLE" help:"Human-readable server title."`
	ShowDisabled bool          `name:"show-disabled" env:"SKILLS_SHOW_DISABLED" help:"List skills with disable-model-invocation too (they are always readable)."`
	Prefix       string        `name:"prefix" env:"SKILLS_TOOL_PREFIX" help:"Prefix of the discovery tools' names (PREFIX_search_skills, ...); default: --name with - changed to _."`
	Trust        string        `name:"trust" env:"SKILLS_TRUST" placeholder:"KEYS" help:"Refuse to start unless every bundle file carries a valid signature from a trusted key: KEYS as for verify --trust (allowed_signers, ssh-ed25519 lines, a minisign .pub file or the RW... string)."`
	Describe     bool          `name:"describe-skills" env:"SKILLS_DESCRIBE_SKILLS" help:"List the skills (names and descriptions, up to 8 KiB) in the get_skill tool's description, for hosts without tool search."`
	PromptLimit  int           `name:"prompt-limit" env:"SKILLS_PROMPT_LIMIT" default:"200" help:"Give each skill a prompt (a slash command in hosts) while there are at most this many skills (0: none; above it: none, and catalog_status says why)."`
	AnswerCache  int           `name:"answer-cache-mib" env:"SKILLS_ANSWER_CACHE_MIB" default:"32" help:"Keep up to N MiB of pre-encoded answers (resources/read, skills/get, skills/list and resources/directory/read, which never change for a bundle) and answer repeats from them (0: none)."`
	Catalog      string        `name:"catalog" env:"SKILLS_CATALOG" default:"auto" enum:"auto,always,never" help:"List the skills (path and first sentence) in the server instructions: auto (while the list fits 8 KiB, else the categories and how to search), always, never."`
	UsageLog     string        `name:"usage-log" env:"SKILLS_USAGE_LOG" placeholder:"FILE|-" help:"Append one JSON line per skill use (time, skill, kind, caller's token name, catalog id, protocol revision; OpenTelemetry log data model field names) to FILE, or to stdout with - (--http only). A log that cannot be written is reported, never waited for."`
	Follow       time.Duration `name:"follow" env:"SKILLS_FOLLOW" placeholder:"DURATION" help:"Check every DURATION (plus up to a tenth, at random) whether each oci://HOST/REPO:TAG, https bundle URL or discovery site (.../.well-known/agent-skills/index.json) names a new release, and serve it once fetched and verified (--trust); a refused release leaves the previous one serving. A digest reference is served as it is."`

	Keyless  KeylessFlags  `embed:""`
	Lib      LibraryFlags  `embed:""`
	Registry RegistryFlags `embed:""`
}

// ServeStdioCmd is serve with ServeFlags alone: what ServeStdioCLI parses.
type ServeStdioCmd struct {
	ServeFlags `embed:""`
}
