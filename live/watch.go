package live

// The live libraries' watch: which folders fsnotify watches, kept in step
// with the libraries, and which libraries an event makes dirty.

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/fsnotify/fsnotify"
	"github.com/skills-mcp/skills-mcp/build"
)

// watchTarget is a library folder (tree), an archive file, or the
// configuration file.
type watchTarget struct {
	ns      string
	path    string
	tree    bool
	config  bool
	exclude []string
}

// watchState is the watch of one library: "on", "partial" (some folders
// are not watched) or "off", and why when not "on".
type watchState struct{ mode, why string }

// watcher follows the folders of the watch targets.
type watcher struct {
	w   *fsnotify.Watcher
	max int
	log *slog.Logger

	mu      sync.Mutex
	targets []watchTarget
	dirs    map[string]string     // watched folder → namespace of its tree ("" for a file's folder)
	state   map[string]watchState // by namespace
	stale   bool                  // events were lost: sync everything again
}

func newWatcher(max int, log *slog.Logger) (*watcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	return &watcher{w: w, max: max, log: log, dirs: map[string]string{}, state: map[string]watchState{}}, nil
}

// invalidate makes the next sync rebuild every watch.
func (w *watcher) invalidate() {
	w.mu.Lock()
	w.stale = true
	w.mu.Unlock()
}

func (w *watcher) states() (map[string]watchState, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return maps.Clone(w.state), len(w.dirs)
}

// needsSync reports whether a library is not fully watched (a folder that
// came back, a watch that failed) or events were lost.
func (w *watcher) needsSync() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stale {
		return true
	}
	for _, st := range w.state {
		if st.mode != "on" {
			return true
		}
	}
	return false
}

// sync watches the targets' folders, as far as the cap allows: libraries
// are taken in order, and one whose folders do not all fit is left
// partially watched.
func (w *watcher) sync(ts []watchTarget) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.targets = ts
	want := map[string]string{}
	state := map[string]watchState{}
	// Files first: their folders cost one watch each.
	for _, t := range ts {
		if !t.tree {
			if _, ok := want[filepath.Dir(t.path)]; !ok {
				want[filepath.Dir(t.path)] = ""
			}
			if !t.config {
				state[t.ns] = watchState{mode: "on"}
			}
		}
	}
	for _, t := range ts {
		if !t.tree {
			continue
		}
		dirs, complete := walkFolders(t.path, t.exclude, w.max-len(want), nil)
		for _, d := range dirs {
			want[d] = t.ns
		}
		switch {
		case len(dirs) == 0:
			state[t.ns] = watchState{"off", "folder missing or unreadable; watched again once it is back"}
		case !complete:
			state[t.ns] = watchState{"partial", fmt.Sprintf("more folders than the watch limit of %d; rescans keep it fresh", w.max)}
		default:
			state[t.ns] = watchState{mode: "on"}
		}
	}
	for d := range w.dirs {
		if _, ok := want[d]; !ok || w.stale {
			_ = w.w.Remove(d)
			delete(w.dirs, d)
		}
	}
	w.stale = false
	for d, ns := range want {
		if _, ok := w.dirs[d]; ok {
			continue
		}
		if err := w.w.Add(d); err != nil {
			if ns == "" {
				continue // a file's folder that is missing: rescans cover it
			}
			if st := state[ns]; st.mode == "on" || st.mode == "partial" {
				state[ns] = watchState{"partial", watchAddError(err)}
			}
			continue
		}
		w.dirs[d] = ns
	}
	w.state = state
}

func watchAddError(err error) string {
	if errors.Is(err, syscall.ENOSPC) {
		return "the system's watch limit is reached (fs.inotify.max_user_watches); rescans keep it fresh"
	}
	return fmt.Sprintf("cannot watch a folder (%v); rescans keep it fresh", err)
}

// walkFolders lists root and the folders below it that a build may look
// into, at most max of them; complete is false when there were more. visit,
// if not nil, is called with each folder before the folder is read, so that
// a watch it adds there sees every entry the listing misses; when it returns
// false the walk stops, incomplete.
func walkFolders(root string, exclude []string, max int, visit func(dir string) bool) (dirs []string, complete bool) {
	complete = true
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != root && !watchedFolder(d.Name(), exclude) {
			return filepath.SkipDir
		}
		if len(dirs) >= max {
			complete = false
			return filepath.SkipAll
		}
		if visit != nil && !visit(p) {
			complete = false
			return filepath.SkipAll
		}
		dirs = append(dirs, p)
		return nil
	})
	return dirs, complete
}

// watchedFolder reports whether a folder of this name can hold files a
// build reads: not a dot-folder (but .claude), not an ignored dependency
// folder, not excluded.
func watchedFolder(name string, exclude []string) bool {
	if strings.HasPrefix(name, ".") && name != ".claude" {
		return false
	}
	return !build.IgnoredFolder(name) && !slices.Contains(exclude, name)
}

// handle routes one event: the namespaces of the libraries it touches and
// whether it touches the configuration file. A new folder in a library is
// watched at once; a removed one is forgotten.
func (w *watcher) handle(ev fsnotify.Event) (dirty []string, config bool) {
	if ev.Op == fsnotify.Chmod {
		return nil, false
	}
	name := filepath.Clean(ev.Name)
	base := filepath.Base(name)
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, t := range w.targets {
		switch {
		case t.config:
			// Any change in the file's folder: the file may be a symlink
			// swapped by its folder's update (a Kubernetes ConfigMap).
			config = config || filepath.Dir(name) == filepath.Dir(t.path)
		case !t.tree:
			if name == t.path {
				dirty = append(dirty, t.ns)
			}
		case name == t.path || strings.HasPrefix(name, t.path+string(filepath.Separator)):
			if strings.HasPrefix(base, ".") && base != ".claude" && name != t.path {
				continue // editor swap files, dot-folders: never part of a skill
			}
			dirty = append(dirty, t.ns)
			if ev.Has(fsnotify.Create) {
				w.addTree(t, name)
			}
		}
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		for d := range w.dirs {
			if d == name || strings.HasPrefix(d, name+string(filepath.Separator)) {
				_ = w.w.Remove(d)
				delete(w.dirs, d)
			}
		}
		for _, t := range w.targets {
			if t.tree && t.path == name {
				w.state[t.ns] = watchState{"off", "folder missing; watched again once it is back"}
			}
		}
	}
	return dirty, config
}

// addTree watches a folder created in a watched tree, and the folders in
// it (a tree moved or copied in). Called with w.mu held.
func (w *watcher) addTree(t watchTarget, p string) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() {
		return
	}
	for d := filepath.Dir(p); d != t.path && len(d) > len(t.path); d = filepath.Dir(d) {
		if !watchedFolder(filepath.Base(d), t.exclude) {
			return
		}
	}
	if p != t.path && !watchedFolder(filepath.Base(p), t.exclude) {
		return
	}
	// Each folder is watched before it is listed: a folder created in it
	// meanwhile is either listed or reported by the new watch, never missed.
	failed := false
	_, complete := walkFolders(p, t.exclude, w.max-len(w.dirs), func(d string) bool {
		if _, ok := w.dirs[d]; ok {
			return true
		}
		if err := w.w.Add(d); err != nil {
			w.state[t.ns] = watchState{"partial", watchAddError(err)}
			failed = true
			return false
		}
		w.dirs[d] = t.ns
		return true
	})
	if failed {
		return
	}
	if !complete {
		w.state[t.ns] = watchState{"partial", fmt.Sprintf("more folders than the watch limit of %d; rescans keep it fresh", w.max)}
	} else if p == t.path {
		w.state[t.ns] = watchState{mode: "on"}
	}
}
