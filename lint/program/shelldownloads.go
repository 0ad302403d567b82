package program

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/lint/source"
)

// This file is what the shell analysis knows of downloads saved to files:
// where each came from, whether a checksum tool checked it, and how
// running it is graded (download-exec).

// fetchedOnPath returns the download the region saved as name in a folder
// of programs (~/.local/bin, /usr/local/bin, ~/bin, sbin), where the shell
// finds it by name alone, or nil; of two, the first by path, so that the
// map's order never changes the grade.
func (st *shellState) fetchedOnPath(name string) *shFile {
	var found *shFile
	key := ""
	for k, f := range st.files {
		if f.holds&tFetched != 0 && path.Base(k) == name && (found == nil || k < key) {
			if d := path.Base(path.Dir(k)); d == "bin" || d == "sbin" {
				found, key = f, k
			}
		}
	}
	return found
}

// saved records a download written to the file f, from the URL among the
// command's arguments when it is known whole.
func (st *shellState) saved(f value, args []value, at int) {
	st.wrote(f, value{t: tFetched}, at)
	fl := st.files[fileKey(f)]
	if fl == nil {
		return
	}
	fl.src = ""
	for _, a := range args {
		if a.known && strings.Contains(a.s, "://") {
			fl.src = a.s
		}
	}
	if f.known && f.s != "" && !strings.Contains(f.s, "/") {
		st.files["./"+f.s] = fl // curl -o tool, then ./tool
	}
}

// checksumTool reports a command that checks a file against a hash or a
// signature: the sha*sum family with -c, shasum, b2sum, openssl dgst, gpg
// --verify, cosign verify-blob, minisign -V.
func checksumTool(name string, rest []value) bool {
	switch name {
	case "sha256sum", "sha384sum", "sha512sum", "b2sum", "shasum":
		return true
	case "openssl":
		return len(rest) > 0 && rest[0].s == "dgst"
	case "gpg", "gpg2":
		return has(rest, "--verify")
	case "cosign":
		return len(rest) > 0 && rest[0].s == "verify-blob"
	case "minisign":
		return has(rest, "-V")
	}
	return false
}

// verify marks the downloads a checksum tool reads as verified. Checking
// a list (-c, --check) verifies what the list names: the files its input
// names (echo "HASH  file" | sha256sum -c -), or, when the analysis sees
// no names (a list file), every download the region saved but the lists.
// Hashing files (sha256sum f, compared after) verifies those files.
func (st *shellState) verify(rest []value, stdin value) {
	pinned := hasHashLiteral(st.text)
	mark := func(f *shFile) { f.verified, f.pinned = true, f.pinned || pinned }
	check := has(rest, "-c") || has(rest, "--check")
	named := func(k string) bool {
		for _, a := range rest {
			if fileKey(a) == k || a.s != "" && path.Base(a.s) == path.Base(k) {
				return true
			}
		}
		return false
	}
	listed := false
	if check && stdin.s != "" {
		for k, f := range st.files {
			if f.holds&tFetched != 0 && strings.Contains(stdin.s, path.Base(k)) {
				mark(f)
				listed = true
			}
		}
	}
	for k, f := range st.files {
		switch {
		case f.holds&tFetched == 0:
		case !check && named(k), check && !listed && !named(k):
			mark(f)
		}
	}
}

// downloadSev grades running a download: a note when a checksum tool
// checked it and its source pins what it serves (source.File: a forge's
// release at a tag, an official index, or any file on a forge whose hash
// the text pins), a warning otherwise. A hash does not vouch for an
// unknown host, and a release's own list of checksums pins nothing that
// release does not.
func downloadSev(f *shFile) string {
	if f != nil && f.verified && f.src != "" && source.File(f.src, f.pinned) {
		return SeverityNote
	}
	return SeverityWarning
}

// hasHashLiteral reports whether text holds a SHA-256 or longer hash
// spelled out: 64 or more hex digits in a row.
func hasHashLiteral(text string) bool {
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i] | 0x20
		if '0' <= text[i] && text[i] <= '9' || 'a' <= c && c <= 'f' {
			if n++; n >= 64 {
				return true
			}
			continue
		}
		n = 0
	}
	return false
}
