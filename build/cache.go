package build

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/build/frontmatter"
	"github.com/skills-mcp/skills-mcp/lint"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// racyWindow guards against file systems with coarse timestamps: a file
// modified less than this long before a build started may be modified again
// with the same size and timestamp after the build read it, so the build
// does not remember it and the next build reads it again.
const racyWindow = 2 * time.Second

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{files: map[fileKey]*cachedFile{}, dirs: map[string]*cachedDir{}, archives: map[string]*cachedArchive{}}
}

// blob returns the bytes of the blob d of the cache's bundle: a slice of
// it for a bundle opened with OpenMemory, else a copy.
func (c *Cache) blob(d manifest.Digest) ([]byte, error) {
	sr, err := c.bundle.BlobReader(d)
	if err != nil {
		return nil, err
	}
	if m, off, n := sr.Outer(); off >= 0 {
		if m, ok := m.(memReader); ok && off+n <= int64(len(m)) {
			return m[off : off+n : off+n], nil
		}
	}
	return c.bundle.ReadBlob(d)
}

// OpenMemory opens a bundle held in memory, such as one Build wrote into a
// buffer. A Cache given such a bundle takes the bytes of unchanged files
// from it without copying them. data must not change while the bundle or a
// Cache that uses it is in use.
func OpenMemory(data []byte) (*manifest.Bundle, error) {
	return manifest.Open(memReader(data), int64(len(data)))
}

// memReader is a bundle in memory.
type memReader []byte

// ReadAt implements io.ReaderAt.
func (m memReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(m)) {
		return 0, fmt.Errorf("read at %d: out of range (%d bytes)", off, len(m))
	}
	n := copy(p, m[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// UseBundle tells the cache where the bytes of the files it remembers are:
// b should be the bundle the last build with this cache wrote. The cache
// trusts b's bytes (it does not re-hash them), so give it a bundle you
// built, ideally held in memory and opened with OpenMemory.
func (c *Cache) UseBundle(b *manifest.Bundle) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bundle = b
}

// Len returns the number of files the cache remembers.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.files)
}

// Close closes the archives the cache holds open and forgets everything.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for k, a := range c.archives {
		if a.file != nil {
			if err := a.file.Close(); err != nil && first == nil {
				first = err
			}
		}
		delete(c.archives, k)
	}
	c.files, c.dirs, c.bundle, c.inputs, c.probes = map[fileKey]*cachedFile{}, map[string]*cachedDir{}, nil, nil, nil
	return first
}

// begin starts a build: it locks the cache until end.
func (c *Cache) begin() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.next = make(map[fileKey]*cachedFile, len(c.files))
	c.nextDirs = make(map[string]*cachedDir, len(c.dirs))
	c.used = map[string]bool{}
	c.settled = time.Now().Add(-racyWindow)
	c.incomplete.Store(false)
}

// keep records the files a finished skill load saw.
func (c *Cache) keep(l *loaded) {
	if c == nil {
		return
	}
	for _, s := range l.seen {
		c.next[s.key] = s.file
	}
}

// commit makes the build in progress, of opt with the bundle id, the one
// the next build starts from, and closes the archives it no longer used.
func (c *Cache) commit(opt *Options, id manifest.Digest) {
	if c == nil {
		return
	}
	in := inputsOf(opt)
	c.inputs, c.lastID, c.complete = &in, id, !c.incomplete.Load()
	c.files, c.dirs, c.probes = c.next, c.nextDirs, nil
	for k, a := range c.archives {
		if !c.used[k] {
			if a.file != nil {
				a.file.Close()
			}
			delete(c.archives, k)
		}
	}
}

// end unlocks the cache; a build that did not commit leaves it as it was.
func (c *Cache) end() {
	if c == nil {
		return
	}
	c.next, c.nextDirs, c.used = nil, nil, nil
	c.mu.Unlock()
}

// archiveKey is the cache key of an archive library: its URL and pin, or
// its absolute path.
func archiveKey(lib Library, path string) string {
	if lib.URL != "" {
		return "url:" + lib.URL + "#" + lib.SHA256
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return "zip:" + path
}

// cachedURL fills src from a cached https library.
func (c *Cache) cachedURL(src *source) bool {
	if c == nil {
		return false
	}
	k := archiveKey(src.lib, "")
	a := c.archives[k]
	if a == nil {
		return false
	}
	c.used[k] = true
	a.fill(src)
	return true
}

// cachedArchive fills src from the cached archive at path when f (open on
// that path, with info fi) is the same file as before, or holds the same
// bytes. It hashes f only when the identity differs, and then returns the
// digest even when the bytes differ too, for the caller not to hash the
// file again.
func (c *Cache) cachedArchive(src *source, path string, f *os.File, fi fs.FileInfo) (ok bool, d *manifest.Digest, err error) {
	if c == nil {
		return false, nil, nil
	}
	k := archiveKey(src.lib, path)
	a := c.archives[k]
	if a == nil || a.info == nil {
		return false, nil, nil
	}
	if !sameFile(a.info, fi) {
		h, err := hashFile(f)
		if err != nil || h != a.digest {
			return false, &h, err
		}
		a.info = fi
	}
	c.used[k] = true
	a.fill(src)
	return true, nil, nil
}

// keepArchive remembers the archive just opened into src; the cache takes
// over its open file.
func (c *Cache) keepArchive(src *source, path string, f *os.File, fi fs.FileInfo) {
	if c == nil {
		return
	}
	k := archiveKey(src.lib, path)
	if old := c.archives[k]; old != nil && old.file != nil && old.file != f {
		old.file.Close()
	}
	a := &cachedArchive{digest: *src.info.Digest, fsys: src.fsys, rootName: src.rootName, kind: src.info.Kind, file: f}
	if src.lib.URL == "" {
		a.info = fi
	}
	c.archives[k] = a
	c.used[k] = true
	src.close = nil
}

func (a *cachedArchive) fill(src *source) {
	d := a.digest
	src.fsys, src.rootName, src.info.Kind, src.info.Digest = a.fsys, a.rootName, a.kind, &d
	src.key = "zip:" + d.Hex()
}

func hashFile(f *os.File) (manifest.Digest, error) {
	h := manifest.NewHash()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, 1<<62)); err != nil {
		return manifest.Digest{}, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	return manifest.DigestOf(h), nil
}

// sameFile reports whether fi describes the file a cache entry was made
// from: same size and modification time, and for files on disk the same
// device and inode. Members of an archive carry no identity; their cache key
// holds the archive's digest instead.
func sameFile(old, fi fs.FileInfo) bool {
	if old.Size() != fi.Size() || !old.ModTime().Equal(fi.ModTime()) {
		return false
	}
	if old.Sys() == nil && fi.Sys() == nil {
		return true
	}
	return os.SameFile(old, fi)
}

// read returns the bytes of the file name in the folder f, at path p in the
// library's tree: from the cache's bundle when the file is unchanged, else
// from disk. It returns the cache entry it used (nil when the file was read)
// and the file's listing (with a cache).
func (l *loaded) read(f folder, p, name string, d fs.DirEntry, max int64) ([]byte, *cachedFile, fs.FileInfo, error) {
	c := l.cache
	if c == nil {
		data, err := f.read(name, d, max)
		return data, nil, nil, err
	}
	fi, err := d.Info()
	if err != nil {
		c.incomplete.Store(true)
		return nil, nil, nil, err
	}
	if fi.Size() > max {
		// Its skill is withheld, and stays withheld while the file keeps
		// its identity: remember that, so Unchanged can say so.
		l.remember(p, fi)
		return nil, nil, nil, errTooLarge
	}
	if e := c.files[fileKey{l.key, p}]; e != nil && c.bundle != nil && sameFile(e.info, fi) {
		if data, err := c.blob(e.digest); err == nil && int64(len(data)) == e.size {
			l.seen = append(l.seen, seenFile{fileKey{l.key, p}, e})
			return data, e, fi, nil
		}
	}
	// The listing just taken stands for d: one lstat per file, not two.
	data, err := f.read(name, fs.FileInfoToDirEntry(fi), max)
	if err != nil {
		c.incomplete.Store(true)
	} else {
		l.remember(p, fi)
	}
	return data, nil, fi, err
}

// remember records the identity of the file at p for the next build and for
// Unchanged, even if its skill is withheld; facts replaces it with
// everything else it learns. A file too new to be sure of is not
// remembered, and the build is incomplete.
func (l *loaded) remember(p string, fi fs.FileInfo) {
	if !l.settled(fi) {
		l.cache.incomplete.Store(true)
		return
	}
	l.seen = append(l.seen, seenFile{fileKey{l.key, p}, &cachedFile{info: fi, size: fi.Size()}})
}

// settled reports whether a file is old enough to be remembered (see
// racyWindow); members of an archive always are.
func (l *loaded) settled(fi fs.FileInfo) bool {
	return fi.Sys() == nil || fi.ModTime().Before(l.cache.settled)
}

// facts returns the digest, text flag and, when analyse is set and the file is
// lintable, the lint findings of f, from the cache when it knows them. It
// records what it learned for the next build.
func (l *loaded) facts(f srcFile, analyse bool) *cachedFile {
	e := f.hit
	if e == nil {
		e = &cachedFile{info: f.info, size: int64(len(f.data)), digest: manifest.Sum(f.data)}
		e.text = utf8.Valid(f.data) && bytes.IndexByte(f.data, 0) < 0
	}
	if analyse && !e.linted { // every file: Analyze reads it whole, in bounded windows, and knows a binary
		n := *e
		n.linted, n.findings = true, lint.Analyze(f.path, f.data)
		e = &n
	}
	if f.fm != nil && e.fm == nil {
		n := *e
		n.fm = f.fm
		e = &n
	}
	if l.cache != nil && f.info != nil && l.settled(f.info) {
		l.seen = append(l.seen, seenFile{fileKey{l.key, f.fsPath}, e})
	}
	return e
}

// findingsAt returns e's findings with File set to the path the skill
// knows the file by (a file of a nested skill has two). The rules depend on
// the file's name and bytes only, which do not change with the path.
func (e *cachedFile) findingsAt(p string) []manifest.Finding {
	if len(e.findings) == 0 || e.findings[0].File == p {
		return e.findings
	}
	out := make([]manifest.Finding, len(e.findings))
	for i, f := range e.findings {
		f.File = p
		out[i] = f
	}
	return out
}

// frontmatter parses the SKILL.md f, or takes the parse from the cache.
func (l *loaded) frontmatter(f *srcFile) (*frontmatter.Header, error) {
	if f.hit != nil && f.hit.fm != nil {
		return f.hit.fm, nil
	}
	fm, err := frontmatter.Parse(f.data)
	if err == nil && l.cache != nil {
		// Kept without its Body, which shares the file's bytes: the cache
		// must not hold a second copy of every SKILL.md.
		kept := *fm
		kept.Body = nil
		f.fm = &kept
	}
	return fm, err
}

// dirFS is a library folder seen through a Cache. Listings of unchanged
// folders come from the cache, and an entry's Info is a plain Lstat: a
// rescan of an unchanged tree costs one stat per folder and file. Folders
// are stat'ed and listed by path, and a listing is remembered with the
// identity the folder had before it was listed, so the two agree even if
// the tree is swapped (a symlink or a folder renamed over the root) during
// the build.
//
// Every file is opened through the os.Root view underneath, and readFile
// checks that the opened file is the one stat'ed by path: a cache hit can
// only ever give bytes that were read through os.Root before, from the file
// with the same identity. A listing by path could follow a symlink swapped
// in mid-build, but only to names: nothing outside the root can be read.
type dirFS struct {
	fs.FS // the os.Root view
	abs   string
	c     *Cache
}

// dirFS wraps root (the os.Root view of the folder abs) when c is not nil.
func (c *Cache) dirFS(abs string, root fs.FS) fs.FS {
	if c == nil {
		return root
	}
	return &dirFS{FS: root, abs: abs, c: c}
}

func (d *dirFS) path(name string) string { return filepath.Join(d.abs, filepath.FromSlash(name)) }

// statDir stats the folder name: the root follows a symlink (a root given
// as a link to a folder), anything below does not.
func statDir(p string, root bool) (fs.FileInfo, error) {
	if root {
		return os.Stat(p)
	}
	return os.Lstat(p)
}

// ReadDir implements fs.ReadDirFS.
func (d *dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	p := d.path(name)
	if cd := d.c.listed(p); cd != nil && cd.info != nil {
		return cd.entries(p), nil
	}
	root := name == "."
	fi, err := statDir(p, root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, rerr := fs.Stat(d.FS, name); errors.Is(rerr, fs.ErrNotExist) {
			// A folder that is not there (skills/, .claude/skills):
			// Unchanged checks that it still is not.
			d.c.keepDir(p, &cachedDir{})
		} else {
			d.c.incomplete.Store(true)
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	case err != nil || !fi.IsDir():
		// Not a folder (a symlink below the root, say): the os.Root view
		// says what it is.
		d.c.incomplete.Store(true)
		return fs.ReadDir(d.FS, name)
	}
	if old := d.c.dirs[p]; old != nil && old.info != nil && sameFile(old.info, fi) {
		d.c.keepDir(p, old)
		return old.entries(p), nil
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		d.c.incomplete.Store(true)
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.Unwrap(err)}
	}
	if fi.ModTime().Before(d.c.settled) {
		cd := &cachedDir{info: fi, root: root, names: make([]string, len(ents)), types: make([]fs.FileMode, len(ents))}
		for i, e := range ents {
			cd.names[i], cd.types[i] = e.Name(), e.Type()
		}
		d.c.keepDir(p, cd)
	} else {
		d.c.incomplete.Store(true)
	}
	return ents, nil
}

// listed returns the listing of the folder p that this build already
// checked, or nil.
func (c *Cache) listed(p string) *cachedDir {
	c.dirMu.Lock()
	defer c.dirMu.Unlock()
	return c.nextDirs[p]
}

func (cd *cachedDir) entries(p string) []fs.DirEntry {
	ents := make([]fs.DirEntry, len(cd.names))
	arr := make([]cachedEntry, len(cd.names))
	for i, n := range cd.names {
		arr[i] = cachedEntry{dir: p, name: n, typ: cd.types[i]}
		ents[i] = &arr[i]
	}
	return ents
}

func (c *Cache) keepDir(p string, cd *cachedDir) {
	c.dirMu.Lock()
	c.nextDirs[p] = cd
	c.dirMu.Unlock()
}

// cachedEntry is an entry of a cached listing; Info stats it afresh.
type cachedEntry struct {
	dir, name string
	typ       fs.FileMode
}

func (e *cachedEntry) Name() string               { return e.name }
func (e *cachedEntry) IsDir() bool                { return e.typ.IsDir() }
func (e *cachedEntry) Type() fs.FileMode          { return e.typ }
func (e *cachedEntry) Info() (fs.FileInfo, error) { return os.Lstat(filepath.Join(e.dir, e.name)) }

// IgnoredFolder reports whether builds skip folders of this name wherever
// they are (dependency and tool caches such as node_modules, .git, .venv).
// Watchers use it to leave such folders alone.
func IgnoredFolder(name string) bool { return ignoredDir(name) }

func inputsOf(opt *Options) buildInputs {
	o := *opt
	o.defaults()
	return buildInputs{slices.Clone(o.Libraries), o.Depth, slices.Clone(o.Exclude), o.NoScripts, o.NoLint, o.MaxFileBytes, o.Created, o.Archive, slices.Clone(o.Waivers), slices.Clone(o.SARIF), slices.Clone(o.Deny)}
}

// Unchanged reports whether a build of opt now would write exactly the
// bundle the cache's last build wrote, which must be the cache's bundle
// (UseBundle). It reads no file and lists no folder: it stats every folder
// and file the last build looked at, in parallel, and the archives it
// opened. It answers false whenever it cannot be sure: different options,
// a file or folder that changed or was too new to be remembered, one that
// could not be read, or an archive with another identity.
//
// A periodic rescan calls it first and builds only when it says false.
func (c *Cache) Unchanged(opt Options) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.complete || c.inputs == nil || c.bundle == nil || c.bundle.ID() != c.lastID {
		return false
	}
	if !reflect.DeepEqual(*c.inputs, inputsOf(&opt)) {
		return false
	}
	// Each worker takes a run of neighbouring paths (the list is sorted),
	// which share the kernel's cached folder entries: a third faster than
	// taking every other probe.
	probes := c.probeList()
	var changed atomic.Bool
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), 8)
	for w := range workers {
		wg.Go(func() {
			for _, p := range probes[w*len(probes)/workers : (w+1)*len(probes)/workers] {
				if changed.Load() || !p.unchanged() {
					changed.Store(true)
					return
				}
			}
		})
	}
	wg.Wait()
	return !changed.Load()
}

// probeList returns the probes of the last build, made on first use.
func (c *Cache) probeList() []probe {
	if c.probes != nil {
		return c.probes
	}
	probes := make([]probe, 0, len(c.files)+len(c.dirs))
	for p, d := range c.dirs {
		probes = append(probes, probe{p, d.info, d.root})
	}
	for k, f := range c.files {
		root, ok := strings.CutPrefix(k.lib, "dir:")
		if !ok {
			continue // an archive member: the archive's identity stands for it
		}
		probes = append(probes, probe{filepath.Join(root, filepath.FromSlash(k.path)), f.info, false})
	}
	for k, a := range c.archives {
		if p, ok := strings.CutPrefix(k, "zip:"); ok {
			probes = append(probes, probe{p, a.info, true})
		}
	}
	slices.SortFunc(probes, func(a, b probe) int { return strings.Compare(a.path, b.path) })
	c.probes = probes
	return probes
}
