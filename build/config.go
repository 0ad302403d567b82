package build

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
	"github.com/skills-mcp/skills-mcp/lint"
)

// Library is one skill library to scan: a folder, a .zip archive, or an https
// URL of a .zip (or a tree in memory, FS). Everything but Root, URL and FS
// is public and enters the bundle; those never do.
type Library struct {
	Namespace string            `json:"namespace"`
	Root      string            `json:"root,omitempty"` // a folder or a .zip file
	URL       string            `json:"url,omitempty"`  // https://…zip, optionally #sha256=<hex>
	SHA256    string            `json:"sha256,omitempty"`
	NoScripts bool              `json:"noScripts,omitempty"`
	Title     string            `json:"title,omitempty"`
	Source    string            `json:"source,omitempty"`
	Version   string            `json:"version,omitempty"`
	Metadata  map[string]string `json:"metadata,omitempty"`
	// Deny lists capabilities (lint.Capabilities) the library's skills may
	// not show: a skill with a finding, not waived, that shows one is
	// withheld under the finding's rule.
	Deny []string `json:"deny,omitempty"`
	// FS, instead of Root or URL, is a library's tree that its caller holds
	// in memory and has checked already (oci reads a ToolHive layer into
	// one, by the rules of a folder's paths), scanned as a folder (kind
	// dir) is; it never enters the bundle, and a build with a Cache refuses
	// it (the cache knows files by their place on disk).
	FS fs.FS `json:"-"`
}

// Config is the configuration file: a list of libraries and global policy.
type Config struct {
	Libraries []Library `json:"libraries"`
	NoScripts bool      `json:"noScripts,omitempty"`
	Lint      *bool     `json:"lint,omitempty"`
	// Waivers accept lint findings, each bound to a skill, a rule and the
	// digest of the file: the operator's, never a skill's.
	Waivers []lint.Waiver `json:"waivers,omitempty"`
}

var namespaceRE = &lazyre.RE{Expr: `^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// LoadConfig reads a configuration file. Relative roots resolve against the
// file's folder. Unknown fields are an error, and so is anything after the
// first JSON value (see decodeConfigJSON), so a typo is caught.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	var c Config
	if err := decodeConfigJSON(path, data, &c); err != nil {
		return nil, fmt.Errorf("config %w", err)
	}
	if c.Libraries == nil {
		return nil, fmt.Errorf("config %s: expected {\"libraries\": [...]}", path)
	}
	dir := filepath.Dir(path)
	for i := range c.Libraries {
		l := &c.Libraries[i]
		if l.Root != "" && !filepath.IsAbs(l.Root) {
			l.Root = filepath.Join(dir, l.Root)
		}
	}
	if err := CheckLibraries(c.Libraries); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	for i := range c.Waivers {
		if err := c.Waivers[i].Check(); err != nil {
			return nil, fmt.Errorf("config %s: waivers[%d]: %w", path, i, err)
		}
	}
	return &c, nil
}

// ParseLib parses the --lib form NS=DIR, NS=FILE.zip or NS=https://….
func ParseLib(s string) (Library, error) {
	ns, val, ok := strings.Cut(s, "=")
	if !ok || ns == "" || val == "" {
		return Library{}, fmt.Errorf("--lib expects NS=DIR, got %q", s)
	}
	if isURL(val) {
		return Library{Namespace: ns, URL: val}, nil
	}
	return Library{Namespace: ns, Root: val}, nil
}

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://")
}

// CheckLibraries validates a set of libraries: each has a valid namespace
// (or is the single un-namespaced root), exactly one of root and url, and
// public fields within their limits; namespaces are unique.
func CheckLibraries(libs []Library) error {
	if len(libs) == 0 {
		return fmt.Errorf("no library: give --root DIR, --lib NS=DIR or --config FILE (or SKILLS_ROOT, SKILLS_LIBS, SKILLS_CONFIG)")
	}
	seen := map[string]bool{}
	for _, l := range libs {
		name := l.Namespace
		if name == "" {
			if len(libs) > 1 {
				return fmt.Errorf("--root cannot be combined with other libraries; give every library a namespace")
			}
			name = "(root)"
		} else if !namespaceRE.MatchString(l.Namespace) {
			return fmt.Errorf("library %q: namespace must match %s", l.Namespace, namespaceRE)
		}
		if seen[l.Namespace] {
			return fmt.Errorf("duplicate library namespace %q", l.Namespace)
		}
		seen[l.Namespace] = true
		if n := btoi(l.Root != "") + btoi(l.URL != "") + btoi(l.FS != nil); n != 1 {
			return fmt.Errorf("library %s: needs exactly one of root and url", name)
		}
		if l.URL != "" && !strings.HasPrefix(strings.ToLower(l.URL), "https://") {
			return fmt.Errorf("library %s: url must use https", name)
		}
		for field, v := range map[string]string{"title": l.Title, "source": l.Source, "version": l.Version} {
			if len(v) > 200 {
				return fmt.Errorf("library %s: %s must be at most 200 characters", name, field)
			}
		}
		if err := lint.CheckDeny(l.Deny); err != nil {
			return fmt.Errorf("library %s: %w", name, err)
		}
		for k, v := range l.Metadata {
			if k == "" || len(k) > 64 || len(v) > 500 {
				return fmt.Errorf("library %s: metadata.%s must have a key of 1-64 and a value of at most 500 characters", name, k)
			}
		}
	}
	return nil
}

func displayNS(ns string) string {
	if ns == "" {
		return "(root)"
	}
	return ns
}
