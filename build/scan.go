package build

import (
	"io/fs"
	"path"
	"slices"
	"strings"
)

// ignoredDir reports the folders never entered, at any depth: tool caches
// and installed dependencies that are not part of a skill.
func ignoredDir(name string) bool {
	switch name {
	case ".venv", "venv", "node_modules", "__pycache__", ".git", ".pytest_cache", ".mypy_cache", ".ruff_cache", "site-packages":
		return true
	}
	return strings.HasSuffix(name, ".dist-info") || strings.HasSuffix(name, ".egg-info")
}

// ignoredExt reports compiled artefacts, left out of a skill silently.
func ignoredExt(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".pyc", ".pyo", ".so", ".dylib", ".dll", ".whl", ".o", ".class":
		return true
	}
	return false
}

// skillDir is a folder holding SKILL.md, found below a library's root.
type skillDir struct {
	dir  string // path in the library's fs.FS
	path string // skill path below the library, slash-separated
}

// discover finds every skill folder below the library root, to depth levels,
// and in the root's skills/ and .claude/skills/ folders, which count as roots
// of their own. A root that is itself a skill is published under rootName,
// and the skills nested in it below that name. It never follows a symlink,
// and skips dot-folders, excluded names and ignored folders. The result is
// sorted by skill path.
func discover(fsys fs.FS, rootName string, depth int, exclude map[string]bool, warn func(string)) []skillDir {
	var out []skillDir
	var walk func(dir, rel string, level int)
	walk = func(dir, rel string, level int) {
		ents, err := fs.ReadDir(fsys, dir)
		if err != nil {
			warn(rel + ": cannot read folder: " + err.Error())
			return
		}
		if hasSkillFile(ents) && rel != "" {
			out = append(out, skillDir{dir: dir, path: rel})
		}
		if level >= depth {
			return
		}
		for _, e := range ents {
			name := e.Name()
			switch {
			case strings.HasPrefix(name, "."), exclude[name], ignoredDir(name):
				continue
			case e.Type()&fs.ModeSymlink != 0:
				warn(path.Join(rel, name) + ": symlink not followed (rule symlink)")
				continue
			case !e.IsDir(), level == 0 && dir == "." && name == "skills":
				continue // the skills/ folder is scanned as a root of its own
			}
			walk(path.Join(dir, name), path.Join(rel, name), level+1)
		}
	}
	for _, root := range []string{".", "skills", ".claude/skills"} {
		ents, err := fs.ReadDir(fsys, root)
		if err != nil || root != "." && isSymlink(fsys, root) {
			continue
		}
		rel := ""
		if root == "." && hasSkillFile(ents) {
			rel = rootName
		}
		walk(root, rel, 0)
	}
	slices.SortFunc(out, func(a, b skillDir) int { return strings.Compare(a.path, b.path) })
	return out
}

func hasSkillFile(ents []fs.DirEntry) bool {
	for _, e := range ents {
		if e.Name() == "SKILL.md" && e.Type().IsRegular() {
			return true
		}
	}
	return false
}

// isSymlink reports whether name, or any folder above it, is a symlink.
func isSymlink(fsys fs.FS, name string) bool {
	for p := name; p != "."; p = path.Dir(p) {
		ents, err := fs.ReadDir(fsys, path.Dir(p))
		if err != nil {
			return true
		}
		for _, e := range ents {
			if e.Name() == path.Base(p) && e.Type()&fs.ModeSymlink != 0 {
				return true
			}
		}
	}
	return false
}
