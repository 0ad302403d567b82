package lint

import "github.com/skills-mcp/skills-mcp/internal/lazyre"

// untrustedSourcePats are the untrusted-source rule's matchers (rules.go):
// each finds a place a package source is named and hands it to the check
// that grades it by who can change what it serves.
var untrustedSourcePats = []pattern{
	{
		keys:  []string{"index-url", "find-links", "--index", "default-index", "registry", "pip"},
		re:    &lazyre.RE{Expr: `\B(--(?:extra-index-url|index-url|find-links|default-index|index|registry)|-[if])(?:\s*=\s*|\s+)["']?([^\s"'<>\x60]+)`},
		check: indexOption,
	},
	{
		keys:  []string{"index-url", "find-links", "registry"},
		re:    &lazyre.RE{Expr: `^\s*((?:extra-)?index-url|find-links|(?:@[\w.-]+:)?registry)\s*=\s*["']?([^\s"'<>]+)`},
		check: indexConfig,
	},
	{
		keys:  []string{"index_url", "find_links", "config set"},
		re:    &lazyre.RE{Expr: `\b((?:PIP|UV)_(?:EXTRA_)?INDEX_URL|PIP_FIND_LINKS)\s*=\s*["']?([^\s"'<>]+)|\bconfig\s+set\s+((?:[\w-]+\.)?(?:extra-index-url|index-url)|(?:@[\w.-]+:)?registry)(?:\s*=\s*|\s+)["']?([^\s"'<>]+)`},
		check: indexSetting,
	},
	{
		keys:  []string{"trusted-host"},
		re:    &lazyre.RE{Expr: `--trusted-host(?:\s*=\s*|\s+)["']?([^\s"'<>]+)?`},
		check: trustedHost,
	},
	{
		keys:  []string{"git+"},
		re:    &lazyre.RE{Expr: `\bgit\+((?:https?|ssh|git|file)://[^\s"'<>\x60]+)`},
		check: gitSource,
	},
	{
		// A package manager's signature or TLS checks turned off:
		// anyone on the path, or a mirror, may serve the packages.
		keys: []string{"trusted=yes", "allow-unauth", "::allow", "gpgcheck", "nosignature", "strict-ssl", "tls_reject", "gosumdb", "goinsecure", "sslverify", "ssl_no_verify", "trusted_host"},
		re: &lazyre.RE{Expr: `(?i)\[[^\]\n]*\btrusted=yes\b|\bapt(?:-get)?\b[^|;&\n]*\s--allow-(?:unauthenticated|insecure-repositories)\b|::(?:AllowInsecureRepositories|AllowUnauthenticated|AllowDowngradeToInsecureRepositories)\s*[= ]\s*["']?(?:true|1|yes)\b|` +
			`--nogpgcheck\b|^\s*gpgcheck\s*=\s*0\b|\brpm\b[^|;&\n]*\s--nosignature\b|\bstrict-ssl\s*[= ]\s*["']?false\b|\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["']?0\b|` +
			`\bGOSUMDB\s*=\s*["']?off\b|\bGOINSECURE\s*=\s*["']?\S|\bGOFLAGS\s*=\s*["']?[^"'\s]*-insecure\b|\bhttp\.sslVerify\s*[= ]\s*["']?false\b|\bGIT_SSL_NO_VERIFY\s*=\s*["']?(?:1|true)\b|\bPIP_TRUSTED_HOST\s*=\s*\S`},
		sev: SeverityWarning,
	},
	{
		keys:  []string{"github:", "gitlab:", "bitbucket:"},
		re:    &lazyre.RE{Expr: `\b(github|gitlab|bitbucket):([\w.-]+/[\w.-]+(?:#[^\s"'<>,]+)?)`},
		check: forgeShorthand,
	},
	{
		keys:  []string{"cargo install"},
		re:    &lazyre.RE{Expr: `\bcargo\s+install\b[^|;&\n]*?\s--git(?:\s+|=)["']?([^\s"'<>]+)`},
		check: cargoGit,
	},
	{
		keys:  []string{"git =", "git="},
		re:    &lazyre.RE{Expr: `\bgit\s*=\s*["']([^"']+)["']`},
		check: tomlGit,
	},
	{
		keys:  []string{"repo:"},
		re:    &lazyre.RE{Expr: `^\s*-?\s*repo\s*:\s*["']?((?:https?|ssh|git)://[^\s"'#]+|[\w.-]+@[\w.-]+:[^\s"'#]+)`},
		check: preCommitRepo,
	},
	{
		keys: []string{"npx"},
		re:   &lazyre.RE{Expr: `\bnpx\s+(?:-y|--yes)\s+(?:--\S+\s+)*(?:@[\w.-]+/)?[\w.-]+@(?:latest|next|\*)\b`},
		sev:  SeverityWarning,
	},
	{
		keys:  []string{"http://", "https://"},
		re:    &lazyre.RE{Expr: `\b(https?://[^\s"'<>\x60]+)`},
		check: requirementURL,
	},
	{
		keys:  []string{"actions", "<!("},
		re:    &lazyre.RE{Expr: `"actions"\s*:|'actions'\s*:|<!@?\(`},
		check: gypAction,
	},
}
