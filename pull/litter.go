package pull

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/manifest"
)

// Names of our own beside skill folders. Every folder or file pull creates
// outside a finished skill folder is named .skills-mcp-<kind>-<16 hex>, so
// that the next run can recognise, finish or remove what a killed one left.
const litterPrefix = ".skills-mcp-"

const (
	litterStage = "stage" // a skill folder being built; after an exchange, the old folder
	litterOld   = "old"   // a journaled swap: the old folder, renamed away
	litterSwap  = "swap"  // a journaled swap: the journal, holding the skill folder's name
)

// maxJournal bounds a journal: it holds one path segment.
const maxJournal = 1024

func newToken() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func litterName(kind, token string) string { return litterPrefix + kind + "-" + token }

// parseLitter reports whether name is one of ours, and its kind and token.
func parseLitter(name string) (kind, token string, ok bool) {
	rest, ok := strings.CutPrefix(name, litterPrefix)
	if !ok {
		return "", "", false
	}
	kind, token, ok = strings.Cut(rest, "-")
	if !ok || (kind != litterStage && kind != litterOld && kind != litterSwap) || len(token) != 16 {
		return "", "", false
	}
	for _, c := range token {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", "", false
		}
	}
	return kind, token, true
}

// journaledOnly makes swap use journaled renames even where it could
// exchange (set by tests).
var journaledOnly = false

// swap puts the staged folder in the place of the existing folder dir. It
// returns a function that removes the old folder afterwards; a run killed
// before that leaves only litter that recoverLitter removes.
//
// Where exchange works this is one step. Elsewhere it is two renames, dir
// to .skills-mcp-old-T and the staged folder to dir, with a journal
// .skills-mcp-swap-T naming dir written and flushed first; recoverLitter
// finishes the swap if the first rename happened and undoes it otherwise.
func swap(root *os.Root, staged, dir string) (cleanup func(), err error) {
	parent := path.Dir(dir)
	if !journaledOnly {
		err := exchangeAt(root, parent, path.Base(staged), path.Base(dir))
		if err == nil {
			return func() { root.RemoveAll(staged) }, nil
		}
		if !errors.Is(err, errNoExchange) {
			return nil, fmt.Errorf("replace %s: %w", dir, err)
		}
	}
	_, token, ok := parseLitter(path.Base(staged))
	if !ok {
		return nil, fmt.Errorf("replace %s: %s is not a staged folder", dir, staged)
	}
	journal := path.Join(parent, litterName(litterSwap, token))
	old := path.Join(parent, litterName(litterOld, token))
	if err := writeJournal(root, journal, path.Base(dir)); err != nil {
		return nil, fmt.Errorf("replace %s: %w", dir, err)
	}
	syncDir(root, parent)
	if err := root.Rename(dir, old); err != nil {
		root.Remove(journal)
		return nil, fmt.Errorf("replace %s: %w", dir, err)
	}
	if err := root.Rename(staged, dir); err != nil {
		if root.Rename(old, dir) == nil {
			root.Remove(journal)
		}
		return nil, fmt.Errorf("replace %s: %w", dir, err)
	}
	syncDir(root, parent)
	return func() {
		if root.RemoveAll(old) == nil {
			root.Remove(journal)
		}
	}, nil
}

// exchangeAt exchanges the names a and b in the folder parent.
func exchangeAt(root *os.Root, parent, a, b string) error {
	f, err := root.Open(parent)
	if err != nil {
		return err
	}
	defer f.Close()
	return exchange(f, a, b)
}

func writeJournal(root *os.Root, name, base string) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, base+"\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		root.Remove(name)
	}
	return err
}

func readJournal(root *os.Root, name string) (string, error) {
	f, err := root.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxJournal+1))
	if err != nil {
		return "", err
	}
	base, ok := strings.CutSuffix(string(data), "\n")
	if !ok || len(data) > maxJournal || strings.Contains(base, "/") || manifest.CheckPath(base) != nil {
		return "", fmt.Errorf("journal %s is damaged", name)
	}
	return base, nil
}

// recoverLitter cleans the folder parent of what killed runs left: it
// finishes or undoes journaled swaps, then removes staged and old folders.
// A staged folder never holds the only copy of anything: before its
// exchange it is a partial new version, after it the old one. It returns
// the number of entries it dealt with.
func recoverLitter(root *os.Root, parent string) (int, error) {
	f, err := root.Open(parent)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", parent, err)
	}
	var journals, rest []string
	for _, e := range ents {
		kind, token, ok := parseLitter(e.Name())
		switch {
		case !ok:
		case kind == litterSwap:
			journals = append(journals, token)
		default:
			rest = append(rest, e.Name())
		}
	}
	n := 0
	for _, token := range journals {
		journal := path.Join(parent, litterName(litterSwap, token))
		base, err := readJournal(root, journal)
		if err != nil {
			return n, fmt.Errorf("cannot recover an interrupted pull: %w; remove it and check the folders beside it", err)
		}
		dir, staged, old := path.Join(parent, base), path.Join(parent, litterName(litterStage, token)), path.Join(parent, litterName(litterOld, token))
		if _, err := root.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			// The first rename happened, the second did not: finish.
			err := root.Rename(staged, dir)
			if errors.Is(err, fs.ErrNotExist) {
				err = root.Rename(old, dir)
			}
			if err != nil {
				return n, fmt.Errorf("finish an interrupted replacement of %s: %w", dir, err)
			}
		}
		for _, p := range []string{staged, old} {
			if err := root.RemoveAll(p); err != nil {
				return n, err
			}
		}
		if err := root.Remove(journal); err != nil {
			return n, err
		}
		rest = slices.DeleteFunc(rest, func(name string) bool { return name == path.Base(staged) || name == path.Base(old) })
		n++
	}
	for _, name := range rest {
		if err := root.RemoveAll(path.Join(parent, name)); err != nil {
			return n, err
		}
		n++
	}
	if n > 0 {
		syncDir(root, parent)
	}
	return n, nil
}

// syncDir flushes a folder's entries, so that renames in it survive a
// crash. It is best effort: not every system can sync a folder.
func syncDir(root *os.Root, dir string) {
	if f, err := root.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}
