package build

import (
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/skills-mcp/skills-mcp/manifest"
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
// Bytecode (.pyc, .class) is kept: a skill can run it, and the analyser
// reports it as opaque (lint's opaque-file); the .pyc files Python writes
// on its own are in __pycache__, which ignoredDir leaves out.
func ignoredExt(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".so", ".dylib", ".dll", ".whl", ".o":
		return true
	}
	return false
}

// skillDir is a folder holding SKILL.md, found below a library's root.
type skillDir struct {
	dir  string   // path in the library's tree
	path string   // skill path below the library, slash-separated
	list *listing // the folder's listing, taken during discovery
}

// listing is a folder's entries as discovery read them, with the listings
// of the folders below it that discovery entered, so that loading a skill
// lists no folder twice.
type listing struct {
	ents []fs.DirEntry
	subs []*listing // subs[i]: the listing of folder ents[i], or nil; nil when none
}

// sub returns the listing of the entry i, or nil.
func (l *listing) sub(i int) *listing {
	if l == nil || l.subs == nil {
		return nil
	}
	return l.subs[i]
}

// discovery is the state of discover for one library.
type discovery struct {
	depth   int
	exclude map[string]bool
}

// found is what a walk found: skill folders, and warnings in walk order.
type found struct {
	skills []skillDir
	warns  []string
}

// discover finds every skill folder below the library root, to depth levels,
// and in the root's skills/ and .claude/skills/ folders, which count as roots
// of their own. A root that is itself a skill is published under rootName,
// and the skills nested in it below that name. It never follows a symlink,
// and skips dot-folders, excluded names and ignored folders. The result is
// sorted by skill path; warnings come in the order of a walk in name order.
//
// The folders just below each root are walked in parallel.
func discover(t tree, rootName string, depth int, exclude map[string]bool, warn func(string)) []skillDir {
	d := &discovery{depth: depth, exclude: exclude}
	root, err := t.open(".")
	if err != nil {
		return nil
	}
	defer root.close()
	ents, err := root.list()
	if err != nil {
		return nil
	}
	// The top of each root is read here; below it, each folder is a task.
	// A part of the result is a warning, or the output of a task.
	type part struct {
		warn string
		task int // -1: none
	}
	var (
		parts  []part
		tasks  []func(*found)
		out    found
		opened []folder
	)
	// top reads a root; rel is "" unless the root is itself a skill.
	top := func(f folder, l *listing, dir, rel string) {
		if rel != "" {
			out.skills = append(out.skills, skillDir{dir: dir, path: rel, list: l})
		}
		if d.depth <= 0 {
			return
		}
		for i, e := range l.ents {
			if w, ok := d.enter(e, dir, rel, 0); !ok {
				if w != "" {
					parts = append(parts, part{warn: w, task: -1})
				}
				continue
			}
			name := e.Name()
			if l.subs == nil {
				l.subs = make([]*listing, len(l.ents))
			}
			slot := &l.subs[i]
			parts = append(parts, part{task: len(tasks)})
			tasks = append(tasks, func(o *found) {
				*slot = d.walkSub(f, name, joinName(dir, name), joinName(rel, name), 1, o)
			})
		}
	}
	rootList := &listing{ents: ents}
	rel := ""
	if hasSkillFile(ents) {
		if err := manifest.CheckSegment(rootName); err != nil {
			parts = append(parts, part{task: -1, warn: fmt.Sprintf("%s: root folder name %v (rule %s); the skill it holds is not published",
				manifest.QuoteName(rootName), err, RulePathInvalid)})
		} else {
			rel = rootName
		}
	}
	top(root, rootList, ".", rel)
	// skills/ and .claude/skills/, unless a symlink.
	for _, dir := range []string{"skills", ".claude/skills"} {
		if f, l := openRoot(root, rootList, dir); f != nil {
			top(f, l, dir, "")
			opened = append(opened, f)
		}
	}

	results := make([]found, len(tasks))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 8, len(tasks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) {
					return
				}
				tasks[i](&results[i])
			}
		}()
	}
	wg.Wait()
	for _, f := range opened {
		f.close()
	}
	for _, p := range parts {
		if p.task < 0 {
			warn(p.warn)
			continue
		}
		r := &results[p.task]
		out.skills = append(out.skills, r.skills...)
		for _, w := range r.warns {
			warn(w)
		}
	}
	slices.SortFunc(out.skills, func(a, b skillDir) int { return strings.Compare(a.path, b.path) })
	return out.skills
}

// openRoot opens and lists the folder dir below the root, which is listed
// as rootList, one name at a time through the listings. It returns nil when
// a folder on the way is missing, is not a folder (a symlink is not) or
// cannot be read, having closed every folder it opened.
func openRoot(root folder, rootList *listing, dir string) (folder, *listing) {
	f, l := root, rootList
	for name := range strings.SplitSeq(dir, "/") {
		var sub folder
		var ents []fs.DirEntry
		err := fs.ErrNotExist
		if i := slices.IndexFunc(l.ents, func(e fs.DirEntry) bool { return e.Name() == name }); i >= 0 && l.ents[i].IsDir() {
			if sub, err = f.sub(name); err == nil {
				ents, err = sub.list()
			}
		}
		if f != root {
			f.close() // sub, listed, no longer needs it
		}
		if err != nil {
			if sub != nil {
				sub.close()
			}
			return nil, nil
		}
		f, l = sub, &listing{ents: ents}
	}
	return f, l
}

// enter reports whether discovery enters the entry e of the folder dir (rel
// in the library, level below its root), and when not, the warning to give,
// if any.
func (d *discovery) enter(e fs.DirEntry, dir, rel string, level int) (string, bool) {
	name := e.Name()
	switch {
	case strings.HasPrefix(name, "."), d.exclude[name], ignoredDir(name):
		return "", false
	case e.Type()&fs.ModeSymlink != 0:
		return manifest.QuoteName(path.Join(rel, name)) + ": symlink not followed (rule symlink)", false
	case !e.IsDir(), level == 0 && dir == "." && name == "skills":
		return "", false // the skills/ folder is scanned as a root of its own
	}
	if err := manifest.CheckSegment(name); err != nil {
		// No skill path may hold it: pull could not create it.
		return fmt.Sprintf("%s: folder name %v (rule %s); not searched for skills",
			manifest.QuoteName(path.Join(rel, name)), err, RulePathInvalid), false
	}
	return "", true
}

// walkSub opens and lists the folder name of f, at dir in the tree and rel
// in the library, level below its root, and walks it; it returns its
// listing, or nil when it cannot be read.
func (d *discovery) walkSub(f folder, name, dir, rel string, level int, out *found) *listing {
	sub, err := f.sub(name)
	if err != nil {
		out.warns = append(out.warns, unreadableFolder(rel, err))
		return nil
	}
	defer sub.close()
	ents, err := sub.list()
	if err != nil {
		out.warns = append(out.warns, unreadableFolder(rel, err))
		return nil
	}
	l := &listing{ents: ents}
	if hasSkillFile(ents) {
		out.skills = append(out.skills, skillDir{dir: dir, path: rel, list: l})
	}
	if level >= d.depth {
		return l
	}
	for i, e := range ents {
		if w, ok := d.enter(e, dir, rel, level); !ok {
			if w != "" {
				out.warns = append(out.warns, w)
			}
			continue
		}
		child := d.walkSub(sub, e.Name(), joinName(dir, e.Name()), joinName(rel, e.Name()), level+1, out)
		if child != nil {
			if l.subs == nil {
				l.subs = make([]*listing, len(ents))
			}
			l.subs[i] = child
		}
	}
	return l
}

// unreadableFolder is the warning for a folder discovery cannot open or
// list: the skills below it, if any, are not found.
func unreadableFolder(rel string, err error) string {
	return validText(fmt.Sprintf("%s: cannot read folder: %v (rule %s)", manifest.QuoteName(rel), err, RuleUnreadable))
}

func hasSkillFile(ents []fs.DirEntry) bool {
	for _, e := range ents {
		if e.Name() == "SKILL.md" && e.Type().IsRegular() {
			return true
		}
	}
	return false
}
