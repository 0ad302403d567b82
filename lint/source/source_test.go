package source

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/lazyre/lazyretest"
)

// TestFixedRef: a full commit or a release tag is fixed; a branch, HEAD,
// a lone major version, a short hash or a version that says it moves is not.
func TestFixedRef(t *testing.T) {
	for ref, want := range map[string]bool{
		"6f2d4a1c9e8b7a5d3c1f0e9d8c7b6a5f4e3d2c1b": true,
		"3.2.0": true, "v1.4.0": true, "V2.10": true, "v2.0.0-rc.1": true, "0.14.0rc2": true,
		"sqlfmt-v0.21.0": true, "py-1.9.0": true, "knowledge-1.0.0": true,
		"main": false, "master": false, "HEAD": false, "latest": false, "": false, "v4": false,
		"6f2d4a1": false, "1.0-SNAPSHOT": false, "v2.1.0-nightly": false, "release/1.2.0": false,
		"semver:^1.2": false,
	} {
		if got := FixedRef(ref); got != want {
			t.Errorf("FixedRef(%q) = %v, want %v", ref, got, want)
		}
	}
}

// TestParse: the host is what follows the last @ of the authority,
// in lower case, without its port; ssh's scp form keeps its path.
func TestParse(t *testing.T) {
	for _, c := range []struct{ in, host, port, path, ref string }{
		{"https://Download.PyTorch.org/whl/cu121", "download.pytorch.org", "", "/whl/cu121", ""},
		{"https://download.pytorch.org@cdn.example/whl", "cdn.example", "", "/whl", ""},
		{"https://user:pw@pypi.example.net:8443/simple/", "pypi.example.net", "8443", "/simple/", ""},
		{"ssh://git@github.com:org/repo.git@v1.2.0", "github.com", "", "/org/repo.git@v1.2.0", "v1.2.0"},
		{"https://github.com/o/t.git#v1.2.3", "github.com", "", "/o/t.git", "v1.2.3"},
		{"https://github.com/o/t@3.2.0#egg=t&subdirectory=cli", "github.com", "", "/o/t@3.2.0", "3.2.0"},
		{"http://[::1]:3141/root/+simple/", "::1", "3141", "/root/+simple/", ""},
	} {
		src, ok := parse(c.in)
		if !ok || src.host != c.host || src.port != c.port || src.path != c.path || src.gitRef() != c.ref {
			t.Errorf("parse(%q) = %+v (ref %q), %v; want host %q port %q path %q ref %q",
				c.in, src, src.gitRef(), ok, c.host, c.port, c.path, c.ref)
		}
	}
	for _, bad := range []string{"$INDEX", "pypi.example.net/simple", "://x", "ht tp://x"} {
		if _, ok := parse(bad); ok {
			t.Errorf("parse(%q) ok, want not a URL", bad)
		}
	}
	if src, _ := parse("http://[::1]:3141/"); !src.loopback() {
		t.Errorf("[::1] is not loopback")
	}
	if src, _ := parse("https://download.pytorch.org:8443/whl"); src.official() {
		t.Errorf("an official host on another port is official")
	}
}

// TestPatternsCompile compiles every pattern of the package, read from its
// source.
func TestPatternsCompile(t *testing.T) {
	lazyretest.CheckPackage(t, ".", 3)
}

// TestInstaller: a listed project's own installer over https is trusted;
// a look-alike host, another repository on the same forge, plain http, a
// port, a shortener or a moving nvm ref is not.
func TestInstaller(t *testing.T) {
	for u, want := range map[string]bool{
		"https://sh.rustup.rs":                                                     true,
		"https://sh.rustup.rs/":                                                    true,
		"https://astral.sh/uv/install.sh":                                          true,
		"https://astral.sh/uv/0.5.4/install.sh":                                    true,
		"https://astral.sh/ruff/install.sh":                                        true,
		"https://install.python-poetry.org":                                        true,
		"https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh":       true,
		"https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/install.sh":          true,
		"https://get.docker.com":                                                   true,
		"https://claude.ai/install.sh":                                             true,
		"https://claude.ai/install.ps1":                                            true,
		"https://astral.sh/uv/install.ps1":                                         true,
		"https://deno.land/install.ps1":                                            true,
		"https://get.pnpm.io/install.ps1":                                          true,
		"https://bun.sh/install.ps1":                                               true,
		"https://get.scoop.sh":                                                     true,
		"http://get.scoop.sh":                                                      false,
		"https://deb.nodesource.com/setup_22.x":                                    true,
		"https://deb.nodesource.com.evil.example/setup_22.x":                       false,
		"https://raw.githubusercontent.com/helm/helm/main/scripts/get-helm-3":      true,
		"https://raw.githubusercontent.com/helm-fork/helm/main/scripts/get-helm-3": false,
		"https://mise.run":                                                         true,
		"https://starship.rs/install.sh":                                           true,
		"https://starship.rs/other.sh":                                             false,
		"https://run.linkerd.io/install-edge":                                      false,
		"https://run.linkerd.io/install":                                           true,
		"https://astral.sh.evil.example/install.ps1":                               false,
		"https://claude.ai/install.ps1.evil.example":                               false,
		"http://sh.rustup.rs":                                                      false,
		"https://sh.rustup.rs:8443":                                                false,
		"https://sh.rustup.rs.evil.example":                                        false,
		"https://sh.rustup.rs@evil.example/":                                       false,
		"https://astral.sh.example.net/uv/install.sh":                              false,
		"https://astral-sh.io/uv/install.sh":                                       false,
		"https://astral.sh/uvx/install.sh":                                         false,
		"https://astral.sh/other.sh":                                               false,
		"https://raw.githubusercontent.com/Homebrew-tools/install/HEAD/install.sh": false,
		"https://raw.githubusercontent.com/homebrew-dev/install/main/install.sh":   false,
		"https://raw.githubusercontent.com/nvm-sh/nvm/master/install.sh":           false,
		"https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/evil.sh":             false,
		"https://bit.ly/rustup-install":                                            false,
		"https://claude.ai/other.sh":                                               false,
		"$INSTALLER_URL":                                                           false,
	} {
		if got := Installer(u); got != want {
			t.Errorf("Installer(%q) = %v, want %v", u, got, want)
		}
	}
}
