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
	dir  string        // path in the library's tree
	path string        // skill path below the library, slash-separated
	ents []fs.DirEntry // the folder's listing, taken during discovery
}

// discover finds every skill folder below the library root, to depth levels,
// and in the root's skills/ and .claude/skills/ folders, which count as roots
// of their own. A root that is itself a skill is published under rootName,
// and the skills nested in it below that name. It never follows a symlink,
// and skips dot-folders, excluded names and ignored folders. The result is
// sorted by skill path.
func discover(t tree, rootName string, depth int, exclude map[string]bool, warn func(string)) []skillDir {
	var out []skillDir
	// walk looks at the folder f at dir, listed as ents.
	var walk func(f folder, ents []fs.DirEntry, dir, rel string, level int)
	walk = func(f folder, ents []fs.DirEntry, dir, rel string, level int) {
		if hasSkillFile(ents) && rel != "" {
			out = append(out, skillDir{dir: dir, path: rel, ents: ents})
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
			childRel := path.Join(rel, name)
			sub, err := f.sub(name)
			if err != nil {
				warn(childRel + ": cannot read folder: " + err.Error())
				continue
			}
			subEnts, err := sub.list()
			if err != nil {
				warn(childRel + ": cannot read folder: " + err.Error())
			} else {
				walk(sub, subEnts, path.Join(dir, name), childRel, level+1)
			}
			sub.close()
		}
	}
	root, err := t.open(".")
	if err != nil {
		return nil
	}
	defer root.close()
	ents, err := root.list()
	if err != nil {
		return nil
	}
	rel := ""
	if hasSkillFile(ents) {
		rel = rootName
	}
	walk(root, ents, ".", rel, 0)
	// skills/ and .claude/skills/, unless a symlink.
	for _, p := range [][]string{{"skills"}, {".claude", "skills"}} {
		f, fents, dir := root, ents, "."
		for _, name := range p {
			if !isFolder(fents, name) {
				f = nil
				break
			}
			sub, err := f.sub(name)
			if f != root {
				f.close()
			}
			if err != nil {
				f = nil
				break
			}
			f, dir = sub, path.Join(dir, name)
			if fents, err = f.list(); err != nil {
				f.close()
				f = nil
				break
			}
		}
		if f != nil {
			walk(f, fents, dir, "", 0)
			f.close()
		}
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

// isFolder reports whether ents lists name as a folder (not a symlink).
func isFolder(ents []fs.DirEntry, name string) bool {
	for _, e := range ents {
		if e.Name() == name {
			return e.IsDir()
		}
	}
	return false
}
