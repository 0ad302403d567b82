// Package source grades where a package manager or a download is sent:
// who serves it (a registry or a project's own index, a public forge, the
// user's own machine, or another host) and whether what it serves there is
// fixed (a full commit, a release tag, a pinned hash). The untrusted-source
// rule (package lint) and the code analysis's download-exec (package
// program) both ask it, so that both trust the same sources.
package source

import (
	"net/netip"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// officialIndexes are the package indexes trusted as the default registry
// is: the registry itself, or the index a real project runs
// for its own packages and names in its own install instructions. Each is a
// host and a path prefix (a whole path segment). The list is small on
// purpose, and docs/lint.md gives it.
var officialIndexes = []struct{ host, path string }{
	{"pypi.org", "/simple"},          // PyPI
	{"files.pythonhosted.org", "/"},  // PyPI's files
	{"download.pytorch.org", "/whl"}, // PyTorch's wheels (CPU, CUDA, ROCm)
	{"pypi.nvidia.com", "/"},         // NVIDIA's wheels (CUDA, RAPIDS, TensorRT)
	{"registry.npmjs.org", "/"},      // npm
	{"registry.yarnpkg.com", "/"},    // Yarn's front of the npm registry
	{"npm.pkg.github.com", "/"},      // GitHub's npm registry: a scope's packages, published by its owner only
}

// officialDownloads are the hosts trusted for a project's own release
// files as officialIndexes are for its packages: where the project
// publishes its binaries and names them in its own install instructions
// (Helm's, Kubernetes', Node's, Go's, HashiCorp's). Each is a host and a
// path prefix (a whole path segment); docs/lint.md gives them.
var officialDownloads = []struct{ host, path string }{
	{"get.helm.sh", "/"},                              // Helm's release archives, as helm.sh's install page gives them
	{"dl.k8s.io", "/release"},                         // Kubernetes' release binaries (kubectl), as kubernetes.io gives them
	{"nodejs.org", "/dist"},                           // Node.js's release archives and their SHASUMS256.txt
	{"go.dev", "/dl"},                                 // Go's release archives
	{"dl.google.com", "/go"},                          // the same archives where go.dev/dl sends them
	{"releases.hashicorp.com", "/"},                   // HashiCorp's release binaries (Terraform, Vault, …) and their SHA256SUMS
	{"download.docker.com", "/linux"},                 // Docker's static binaries and packages
	{"static.rust-lang.org", "/dist"},                 // the Rust project's release archives
	{"cache.agilebits.com", "/dist"},                  // 1Password's CLI releases
	{"awscli.amazonaws.com", "/"},                     // the AWS CLI's installers
	{"dl.min.io", "/client"},                          // MinIO's client
	{"storage.googleapis.com", "/kubernetes-release"}, // Kubernetes' older release bucket, still in its docs
}

// officialInstallers are the install scripts trusted as officialIndexes
// are: the script a real project serves from its own host (or its own
// repository) and gives in its own install instructions, piped to a shell
// there. Who can change what it runs is the project, as for its packages.
// Each is a host and a path prefix of whole segments; a segment "{tag}"
// is a release tag or a full commit (source.FixedRef). The list is small
// on purpose, and docs/lint.md gives it and why each is there.
var officialInstallers = []struct{ host, path string }{
	{"sh.rustup.rs", "/"},              // rustup, rust-lang.org/tools/install
	{"astral.sh", "/uv"},               // uv (astral.sh/uv/install.sh, astral.sh/uv/0.5.0/install.sh)
	{"astral.sh", "/ruff"},             // ruff, from the same company's host
	{"bun.sh", "/install"},             // Bun
	{"bun.sh", "/install.ps1"},         // Bun on Windows
	{"deno.land", "/install.sh"},       // Deno
	{"deno.land", "/install.ps1"},      // Deno on Windows
	{"get.pnpm.io", "/install.sh"},     // pnpm
	{"get.pnpm.io", "/install.ps1"},    // pnpm on Windows
	{"install.python-poetry.org", "/"}, // Poetry
	{"claude.ai", "/install.sh"},       // Claude Code's native installer
	{"claude.ai", "/install.ps1"},      // the same on Windows
	{"get.docker.com", "/"},            // Docker's convenience script
	{"raw.githubusercontent.com", "/Homebrew/install/HEAD/install.sh"},        // Homebrew, brew.sh
	{"raw.githubusercontent.com", "/nvm-sh/nvm/{tag}/install.sh"},             // nvm, at a release
	{"raw.githubusercontent.com", "/golangci/golangci-lint/HEAD/install.sh"},  // golangci-lint's binary installer, as golangci-lint.run gives it
	{"raw.githubusercontent.com", "/golangci/golangci-lint/{tag}/install.sh"}, // the same at a release tag
	{"raw.githubusercontent.com", "/helm/helm/main/scripts/get-helm-3"},       // Helm, helm.sh/docs/intro/install
	{"raw.githubusercontent.com", "/ohmyzsh/ohmyzsh/master/tools/install.sh"}, // Oh My Zsh, ohmyz.sh
	{"get.scoop.sh", "/"},            // Scoop, over https (scoop.sh gives it without a scheme)
	{"deb.nodesource.com", "/"},      // NodeSource's Node.js packages: its setup scripts add its own repository
	{"rpm.nodesource.com", "/"},      // the same for RPM systems
	{"mise.run", "/"},                // mise, mise.jdx.dev/installing-mise.html
	{"starship.rs", "/install.sh"},   // Starship, starship.rs/guide
	{"fnm.vercel.app", "/install"},   // fnm, its README
	{"run.linkerd.io", "/install"},   // Linkerd's CLI, its stable channel
	{"fluxcd.io", "/install.sh"},     // Flux's CLI, fluxcd.io/flux/installation
	{"aspire.dev", "/install.sh"},    // the Aspire CLI, from Microsoft's own host
	{"aspire.dev", "/install.ps1"},   // the same on Windows
	{"get.k3s.io", "/"},              // k3s, docs.k3s.io/quick-start
	{"tailscale.com", "/install.sh"}, // Tailscale, tailscale.com/download/linux
	{"get.sdkman.io", "/"},           // SDKMAN!, sdkman.io/install
}

// publicForges are the public code hosts whose repositories, tags and
// history anyone can read: a git source there at a full commit or a
// release tag is pinned as a registry version is (raw.githubusercontent.com
// serves GitHub's files by ref).
var publicForges = []string{"github.com", "gitlab.com", "codeberg.org", "bitbucket.org", "raw.githubusercontent.com"}

// A url is a URL a package manager fetches from, in parts.
type url struct {
	scheme, host, port, path, query, frag string
}

// parseSource splits u (scheme://[user@]host[:port]/path?query#frag, or
// ssh's scp form user@host:path after git+ssh://) into its parts, the
// scheme and host in lower case; ok is false when u is not a URL.
func parse(u string) (src url, ok bool) {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok || scheme == "" || strings.Trim(strings.ToLower(scheme), "abcdefghijklmnopqrstuvwxyz+") != "" {
		return url{}, false
	}
	src.scheme = strings.ToLower(scheme)
	rest, src.frag, _ = strings.Cut(rest, "#")
	rest, src.query, _ = strings.Cut(rest, "?")
	auth := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		auth, src.path = rest[:i], rest[i:]
	}
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		auth = auth[i+1:] // a user name: what follows the last @ is the host
	}
	host := auth
	if strings.HasPrefix(auth, "[") {
		if i := strings.IndexByte(auth, ']'); i > 0 {
			host, src.port = auth[1:i], strings.TrimPrefix(auth[i+1:], ":")
		}
	} else if h, p, ok := strings.Cut(auth, ":"); ok {
		host, src.port = h, p
		if strings.Trim(p, "0123456789") != "" {
			// scp form (git@github.com:org/repo.git): a path, not a port
			src.path, src.port = "/"+p+src.path, ""
		}
	}
	src.host = strings.TrimSuffix(strings.ToLower(host), ".")
	return src, src.host != "" || src.scheme == "file"
}

// loopback reports whether the source is the user's own machine.
func (src url) loopback() bool {
	if src.scheme == "file" || src.host == "localhost" || strings.HasSuffix(src.host, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(src.host)
	return err == nil && a.IsLoopback()
}

// official reports whether the source is one of officialIndexes, over
// https on its standard port.
func (src url) official() bool { return src.listed(officialIndexes) }

// download reports whether the source is one of officialDownloads, over
// https on its standard port.
func (src url) download() bool { return src.listed(officialDownloads) }

// listed reports whether the source is one of list's hosts under its path
// prefix (a whole segment; "/" for the whole host), over https on its
// standard port.
func (src url) listed(list []struct{ host, path string }) bool {
	if src.scheme != "https" || src.port != "" && src.port != "443" {
		return false
	}
	for _, o := range list {
		if src.host == o.host && (o.path == "/" || src.path == o.path || strings.HasPrefix(src.path, o.path+"/")) {
			return true
		}
	}
	return false
}

// installer reports whether the source is one of officialInstallers, over
// https on its standard port.
func (src url) installer() bool {
	if src.scheme != "https" || src.port != "" && src.port != "443" {
		return false
	}
	segs := strings.Split(strings.Trim(src.path, "/"), "/")
	for _, o := range officialInstallers {
		if src.host == o.host && segsPrefix(segs, strings.Split(strings.Trim(o.path, "/"), "/")) {
			return true
		}
	}
	return false
}

// segsPrefix reports whether the path segments want start segs: each
// equal, or "{tag}" against a fixed ref; an empty want is the whole host.
func segsPrefix(segs, want []string) bool {
	if len(want) == 1 && want[0] == "" {
		return true
	}
	if len(segs) < len(want) {
		return false
	}
	for i, w := range want {
		if w != segs[i] && (w != "{tag}" || !FixedRef(segs[i])) {
			return false
		}
	}
	return true
}

// forge reports whether the source is a repository on one of publicForges,
// over https or ssh.
func (src url) forge() bool {
	if src.scheme != "https" && src.scheme != "ssh" {
		return false
	}
	for _, f := range publicForges {
		if src.host == f || src.host == "www."+f {
			return true
		}
	}
	return false
}

// Trim cuts what ends a URL in text rather than belonging to it: closing
// brackets, quotes and punctuation.
func Trim(u string) string { return strings.TrimRight(u, ".,;:)]}>'\"`") }

// releaseTag matches a ref that names a release: a version of two or more
// numbers, with an optional v, a prefix naming the project
// (sqlfmt-v0.21.0) and a pre-release or build suffix (v2.0.0-rc.1).
// A lone major version (v4) is a tag that moves with each release.
// Group 1 is the suffix.
var releaseTag = &lazyre.RE{Expr: `^(?:[A-Za-z][\w.]*[-_])?[vV]?\d+(?:\.\d+)+((?:[-+._]?[0-9A-Za-z]+)*)$`}

// movingSuffix matches the words of a version suffix that says it moves.
var movingSuffix = &lazyre.RE{Expr: `(?i)latest|snapshot|nightly|head|main|master|edge|current|stable`}

// FixedRef reports whether a git ref names content that does not change: a
// full commit (SHA-1 or SHA-256) or a release tag.
func FixedRef(ref string) bool {
	if (len(ref) == 40 || len(ref) == 64) && strings.Trim(strings.ToLower(ref), "0123456789abcdef") == "" {
		return true
	}
	m := releaseTag.FindStringSubmatch(ref)
	return m != nil && !movingSuffix.MatchString(m[1])
}

// gitRef returns the ref a git source names: pip's and uv's @ref after the
// repository's path, or npm's #ref (a fragment of key=value pairs is pip's
// egg= and subdirectory=, not a ref).
func (src url) gitRef() string {
	if src.frag != "" && !strings.Contains(src.frag, "=") {
		return src.frag
	}
	if i := strings.LastIndexByte(src.path, '@'); i >= 0 {
		return src.path[i+1:]
	}
	return ""
}

// Index reports whether a package index (or a find-links page) named by
// value is trusted as the default registry is: the user's own machine, one
// of officialIndexes, or a host left to the reader
// (https://<your-index>/simple). Any other host, plain http, a raw IP
// address or a value the text does not spell (a variable) is not.
func Index(value string) bool {
	if strings.HasSuffix(value, "://") {
		return true // a placeholder follows (https://<your-index>/simple): the reader's own index
	}
	src, ok := parse(Trim(value))
	return ok && (src.loopback() || src.official())
}

// Loopback reports whether host (a name or an address) is the user's own
// machine.
func Loopback(host string) bool {
	src, ok := parse("https://" + strings.ToLower(Trim(host)))
	return ok && src.loopback()
}

// Git reports whether a git source (https://host/org/repo@ref, ssh's
// user@host:path) is pinned: on the user's own machine, or on a public
// forge over https or ssh at a full commit or a release tag. A branch,
// HEAD or no ref, another host, or plain http and git:// are not.
func Git(value string) bool {
	value = Trim(value)
	if scpForm.MatchString(value) {
		value = "ssh://" + value // git@github.com:org/repo.git
	}
	src, ok := parse(value)
	return ok && (src.loopback() || src.forge() && FixedRef(src.gitRef()))
}

// scpForm matches ssh's short form of a repository address, user@host:path.
var scpForm = &lazyre.RE{Expr: `^[\w.-]+@[\w.-]+:[^/]`}

// File reports whether a file fetched by URL (a package, a program) is
// pinned: from one of officialIndexes or officialDownloads, or from a public forge when the URL
// names a full commit or a release tag (a release asset, an archive of a
// tag) or the file's hash is pinned (hashed, or a #sha256= fragment). Any
// other host, plain http or a raw IP address is not, hashed or not: a hash
// pins content, not who made it.
func File(value string, hashed bool) bool {
	src, ok := parse(Trim(value))
	return ok && (src.loopback() || src.official() || src.download() ||
		src.forge() && (hashed || hashFragment(src.frag) || FixedRef(src.forgeRef())))
}

// hashFragment reports whether a URL's fragment pins the file's hash, as
// pip reads it (#sha256=…).
func hashFragment(frag string) bool {
	for _, kv := range strings.Split(frag, "&") {
		for _, a := range []string{"sha256=", "sha384=", "sha512="} {
			if strings.HasPrefix(strings.ToLower(kv), a) && len(kv) > len(a)+31 {
				return true
			}
		}
	}
	return false
}

// forgeRef returns the ref a forge's download URL names: the tag of a
// release asset (/releases/download/TAG/file), the ref of an archive
// (/archive/REF.tar.gz, /archive/refs/tags/TAG.zip, GitLab's
// /-/archive/REF/file) or of a raw file (/raw/REF/file, GitLab's
// /-/raw/REF/file, raw.githubusercontent.com/org/repo/REF/file); a branch
// (refs/heads/) names none.
func (src url) forgeRef() string {
	segs := strings.Split(strings.Trim(src.path, "/"), "/")
	if src.host == "raw.githubusercontent.com" {
		if len(segs) < 4 {
			return ""
		}
		return refAt(segs[2:])
	}
	for i := 2; i+1 < len(segs); i++ { // after org/repo: a repository may be named "archive"
		switch s := segs[i]; {
		case s == "download" && segs[i-1] == "releases":
			return segs[i+1]
		case s == "raw":
			return refAt(segs[i+1:])
		case s == "archive":
			ref := refAt(segs[i+1:]) // GitLab's /-/archive/REF/name-REF.tar.gz too
			for _, ext := range []string{".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip"} {
				if n, ok := strings.CutSuffix(ref, ext); ok {
					return n
				}
			}
			return ref
		}
	}
	return ""
}

// refAt returns the ref that starts a path's rest: refs/tags/TAG gives
// TAG, refs/heads/ none, anything else its first segment.
func refAt(rest []string) string {
	if rest[0] != "refs" {
		return rest[0]
	}
	if len(rest) >= 3 && rest[1] == "tags" {
		return rest[2]
	}
	return ""
}

// Installer reports whether a script fetched by URL and run is one a
// project serves for its own installation (officialInstallers), over
// https on the standard port. Any other host, a look-alike of a listed
// one, plain http or a value the text does not spell is not.
func Installer(value string) bool {
	src, ok := parse(Trim(value))
	return ok && src.installer()
}
