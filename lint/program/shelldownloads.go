package program

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
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
	st.wrote(f, value{t: tFetched, installer: st.fromInstaller(args)}, at)
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
	if f != nil && f.installer {
		return SeverityNote // a project's own install script, from its own host over checked https
	}
	if f != nil && f.verified && f.src != "" && source.File(f.src, f.pinned) {
		return SeverityNote
	}
	return SeverityWarning
}

// fromInstaller reports a curl or wget command (its words after the name)
// that fetches a project's own install script: InstallerFetch of its
// words, every one known whole, with no CA or configuration of the
// environment's (ownCA).
func (st *shellState) fromInstaller(rest []value) bool {
	if st.ownCA {
		return false
	}
	words := make([]string, len(rest))
	for i, a := range rest {
		if !a.known {
			return false
		}
		words[i] = a.s
	}
	return InstallerFetch(words)
}

// InstallerFetch reports whether the words after curl or wget fetch one
// URL, spelled whole, from one of source's official installers, checking
// the server's certificate: no -k, --insecure, --no-check-certificate, no
// CA of its own (--cacert, --capath) and no options from a file (-K,
// --config). Every other word is an option or the value of one the list
// knows; any other word (curl takes an address without a scheme too) or a
// second URL is not. One test for the code analysis and the line rule.
func InstallerFetch(words []string) bool {
	u := ""
	for i, s := range words {
		switch {
		case strings.ContainsAny(s, "$`"):
			return false // a value the text does not spell
		case strings.ContainsAny(s, " \t\r\n"):
			return false // a value that holds more words than one
		case s == "--insecure" || s == "--no-check-certificate" || s == "--proxy-insecure" || s == "-K" || s == "--config" ||
			strings.HasPrefix(s, "--cacert") || strings.HasPrefix(s, "--capath") || strings.HasPrefix(s, "--ca-"):
			return false
		case strings.HasPrefix(s, "--") || s == "-":
		case strings.HasPrefix(s, "-"):
			if strings.ContainsRune(s[1:], 'k') {
				return false // curl's -k, alone or in a cluster (-fsSLk)
			}
		case strings.Contains(s, "://"):
			if u != "" {
				return false
			}
			u = s
		case i > 0 && installerValueOpts.Get()[words[i-1]]:
		default:
			return false
		}
	}
	return u != "" && source.Installer(u)
}

// tlsEnv reports variables that give curl or wget a CA or a
// configuration file of their own (CURL_CA_BUNDLE, SSL_CERT_FILE,
// SSL_CERT_DIR, CURL_HOME, WGETRC): with a proxy, whoever chose them
// serves the script.
func tlsEnv(vars map[string]value) bool {
	for _, n := range []string{"CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_HOME", "WGETRC"} {
		if _, ok := vars[n]; ok {
			return true
		}
	}
	return false
}

// installerValueOpts are the options of curl and wget an installer's
// command gives a value to (--proto '=https', -o FILE, -H …).
var installerValueOpts = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, o := range []string{"--proto", "--proto-redir", "-H", "--header", "-A", "--user-agent", "--retry", "--retry-delay",
		"--max-time", "-m", "--connect-timeout", "-o", "--output", "-O", "--output-document", "-w", "--write-out"} {
		m[o] = true
	}
	return m
}}

// downloadExcerpt is the excerpt of running the download f: for a
// project's own install script, the URL it came from (the line that runs
// it may name only the file, and the URL is what shows its capabilities
// at a note), otherwise none (the line's own).
func downloadExcerpt(f *shFile) string {
	if f != nil && f.installer {
		return "runs the download of " + f.src
	}
	return ""
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

// InstallerFetchPS reports whether the words after Invoke-RestMethod or
// Invoke-WebRequest (irm, iwr) fetch one URL, spelled whole, from one of
// source's official installers (its own .ps1 where the project gives one):
// the URL alone or after -Uri, and no parameter but -UseBasicParsing
// (-useb); any other (-SkipCertificateCheck, -Proxy, -Certificate, -OutFile)
// or a second URL is not. One test for the code analysis and the line rule;
// PSCertOff is the text's.
func InstallerFetchPS(words []string) bool {
	u := ""
	for i := 0; i < len(words); i++ {
		s := words[i]
		switch l := strings.ToLower(s); {
		case strings.ContainsAny(s, "$`@"):
			return false // a value the text does not spell
		case strings.ContainsAny(s, " \t\r\n"):
			return false // a value that holds more words than one
		case len(l) >= 5 && strings.HasPrefix("-usebasicparsing", l):
		case l == "-uri" && i+1 < len(words) && u == "":
			u = words[i+1]
			i++
		case strings.HasPrefix(l, "-") || u != "":
			return false
		default:
			u = s
		}
	}
	return u != "" && !strings.ContainsAny(u, "$`@") && source.Installer(u)
}

// psCertOff matches PowerShell switching the certificate check off for
// what follows (a validation callback, a certificate policy, a default of
// -SkipCertificateCheck): whoever is on the network path serves the
// script then.
var psCertOff = &lazyre.RE{Expr: `(?i)ServerCertificateValidationCallback|CertificatePolicy|SkipCertificateCheck`}

// PSCertOff reports whether a PowerShell text switches the certificate
// check off anywhere (psCertOff): no installer fetched in it is trusted.
func PSCertOff(text string) bool { return psCertOff.MatchString(text) }

// psInstaller reports a PowerShell fetch (the tokens of its arguments)
// of a project's own install script: InstallerFetchPS of its words, by irm
// or iwr (not curl or wget, which are curl's own in PowerShell 7), in a
// text that keeps the certificate check (PSCertOff). A bare word is the
// tokens written together (https, :, //astral.sh/…); a string is one word.
func (f *flowState) psInstaller(name string, toks []token) bool {
	switch strings.ToLower(name) {
	case "invoke-webrequest", "iwr", "invoke-restmethod", "irm":
	default:
		return false
	}
	if PSCertOff(f.s.text) {
		return false
	}
	var words []string
	end := -1 // where the last bare token ended
	for _, t := range toks {
		switch {
		case t.kind == tokString:
			words = append(words, t.s)
			end = -1
		case t.off == end && len(words) > 0:
			words[len(words)-1] += t.s
			end = t.off + len(t.s)
		default:
			words = append(words, t.s)
			end = t.off + len(t.s)
		}
	}
	return InstallerFetchPS(words)
}
