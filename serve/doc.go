// Package serve publishes bundles of Agent Skills over the Model Context
// Protocol with the SEP-2640 Skills extension, on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk/mcp), no fork: the SDK decodes
// and answers every request, except the few immutable ones whose answers
// serve/answers keeps as the SDK's own bytes and replays under a new id. One Server speaks both protocol revisions, the initialize
// handshake (2025-11-25) and the stateless 2026-07-28, over stdio
// (ServeStdio) and streamable HTTP (MCPHandler). serve is the MCP surface
// only: the HTTP endpoint around MCPHandler (listener, host policy,
// authorization, limits, metrics, access log, health, the well-known site)
// is package teamserver, and ranked search is package search. Beneath it,
// serve/wire holds the JSON-RPC messages as bytes (the stdio transport, the
// message rules, the recogniser), serve/answers the pre-encoded answers
// (given the snapshot and the caller's view through answers.Host), and
// serve/usage the record of skill use that the metrics and the usage log
// observe, and package skilltext reads what a skill says of itself; none
// of them imports serve. Above it, package live makes the catalog change
// over time (Server.Swap).
//
// # What is served
//
//   - capabilities: extensions["io.modelcontextprotocol/skills"] =
//     {"directoryRead": true}, resources {listChanged, subscribe}, tools and
//     prompts. Tools declare listChanged only on a live server with
//     DescribeSkills, where get_skill's description follows the catalog, and
//     prompts only on a live server with per-skill prompts on; other servers
//     register their tools and the use-skill prompt on the first request
//     about tools or prompts.
//   - prompts: use-skill, and one prompt per skill (prompts.go) while the
//     caller sees at most Options.PromptLimit skills; prompts/list is one
//     page, prompts/get of a skill's prompt gives its SKILL.md as an
//     embedded resource. The instructions end with the catalog of skills
//     as Options.Catalog says (instructions.go).
//   - skills/list {cursor?} → {resultType, skills, nextCursor?, ttlMs,
//     cacheScope}; skills/get {uri} → {resultType, skill, ttlMs, cacheScope};
//     resources/directory/read {uri, cursor?} → {resultType, resources,
//     nextCursor?}.
//   - resources/list: one text/markdown resource per listed SKILL.md, with
//     extra frontmatter, library, provenance, lint rules ("risk-flags") and
//     scripts withheld under _meta keys prefixed io.modelcontextprotocol.skills/.
//     resources/templates/list: skill://{+skillPath}/SKILL.md and
//     skill://{+skillPath}/{+path}. resources/read: every file of the
//     manifest, text or base64 blob as the manifest says, with its mime type.
//
// # Invariants
//
//   - Nothing outside the manifest can be read: a URI is looked up in the
//     manifest, never mapped to a path. URIs with another scheme, empty, "."
//     or ".." segments (also percent-encoded), encoded slashes, backslashes or
//     control characters are refused before any lookup, so they read nothing.
//   - Entries go out exactly as the bundle stores them (Bundle.EntryJSON):
//     skills/list and skills/get never parse or re-encode an entry.
//   - Hidden skills (disable-model-invocation) are left out of skills/list,
//     resources/list and the folders above skill roots unless
//     Options.ShowDisabled; skills/get, resources/read and
//     resources/directory/read answer them always.
//   - A refused request is a JSON-RPC error -32602 whose message names the
//     URI (resources/read also carries it in data.uri); a bundle that cannot
//     be read (a file truncated under its mapping) is -32603. No error goes
//     out with code 0, and no bad input stops the server.
//   - Every request answers from one Snapshot, loaded when it starts; Swap
//     installs a new one atomically and never changes one in use.
//   - A skill URI, or a skill folder nested in another's, served by two
//     bundles is refused, naming both bundles.
//   - A caller with an Access is answered from the view of the snapshot its
//     namespaces grant, in every method, tool, prompt, completion and the
//     instructions: anything else answers exactly as a URI that does not
//     exist, and its cursors are refused by other views. The Access is
//     serve's one input from the HTTP endpoint: the verified token's
//     TokenInfo carries it under AccessExtra (WithAccess sets it in
//     process). What serve tells the endpoint back goes through the
//     CallObserver it was given (ObserveCalls), never by calling up into it.
//   - serve imports no metrics, JWT or registry library (no client_golang,
//     go-jose, oras or go-containerregistry): those belong to teamserver,
//     oci and pull.
//
// # Decisions
//
// Caching: a bundle is immutable, so every cacheable result (skills/list,
// skills/get, resources/read and the SDK's lists) carries cacheScope
// "public" (the answer is the same for every client; "private" under
// authorization, where it depends on the token) and ttlMs 3,600,000
// (one hour: the catalog changes only when a new bundle is rolled out, and a
// host holding a stale entry finds out when a digest no longer matches).
//
// Paging: DefaultPageSize items per page of skills/list, resources/list and
// resources/directory/read; a skills/list page also stops at 4 MiB of
// entries (always at least one), far below the 16 MiB stdio line limit.
// Pages never split an entry. A cursor is base64url of the method, the
// first 8 bytes of the snapshot id and an index: opaque, stable for the
// same bundles across restarts and replicas, and refused (-32602) by another
// method or once the bundles changed.
//
// Resources without one SDK registration per file: resources/list and
// resources/read are answered by a receiving middleware straight from the
// snapshot. Registering every file would make start-up grow with the
// catalog (10,000 skills hold some 30,000 files), and a read through the
// SDK's template matching compiles a regular expression per template per
// read. The two templates are registered only so that
// resources/templates/list describes the URI space.
//
// HTTP: stateless streamable HTTP (MCPHandler), so that 2026-07-28 works
// and replicas behind any load balancer give the same answers; the SDK's
// DNS rebinding check is off, as the endpoint in front checks Host and
// Origin against its allow-list (see package teamserver).
//
// # Rolling out a new bundle
//
// Bundles are memory-mapped (manifest.OpenFile). Never rewrite a served
// bundle in place: write the new file beside it and rename it over the old
// one (manifest.WriteFileAtomic does this), then restart the server or Swap
// in the newly opened bundle. A file truncated or overwritten in place does
// not crash the server: reads of it fail with -32603 until it is replaced.
package serve
