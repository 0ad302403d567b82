package oci

import (
	"fmt"
	"net"
	"strings"

	"oras.land/oras-go/v2/registry"
)

// Scheme prefixes a registry reference wherever a bundle file may be named.
const Scheme = "oci://"

// IsRef reports whether s names an artifact in a registry (oci://…) rather
// than a file.
func IsRef(s string) bool { return strings.HasPrefix(s, Scheme) }

// Ref is a parsed oci:// reference: a registry host (with its port, if any),
// a repository, and a tag or a digest (or neither, for push).
type Ref struct {
	Host       string
	Repository string
	Tag        string
	Digest     string // "sha256:<hex>"; when set, Tag is ignored
}

// ParseRef parses oci://HOST[:PORT]/REPO[:TAG|@sha256:<hex>]. The rules are
// the distribution specification's (through oras-go): a lower-case
// repository path, a tag of at most 128 word characters, dots and hyphens, a
// digest in its canonical form.
func ParseRef(s string) (Ref, error) {
	rest, ok := strings.CutPrefix(s, Scheme)
	if !ok {
		return Ref{}, fmt.Errorf("reference %q: want %sHOST[:PORT]/REPO[:TAG|@sha256:…]", s, Scheme)
	}
	if strings.ContainsAny(rest, "?#") || strings.Contains(rest, "://") {
		return Ref{}, fmt.Errorf("reference %q: want %sHOST[:PORT]/REPO[:TAG|@sha256:…], without query or fragment", s, Scheme)
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 && strings.Contains(rest[:i], "@") {
		return Ref{}, fmt.Errorf("reference %q: credentials do not belong in a reference: use the docker config or SKILLS_REGISTRY_USER/SKILLS_REGISTRY_PASSWORD", Scheme+redactHost(rest))
	}
	r, err := registry.ParseReference(rest)
	if err != nil {
		return Ref{}, fmt.Errorf("reference %q: %w", s, err)
	}
	ref := Ref{Host: r.Registry, Repository: r.Repository}
	if strings.Contains(rest, "@") {
		if !strings.HasPrefix(r.Reference, "sha256:") {
			return Ref{}, fmt.Errorf("reference %q: only sha256 digests are accepted", s)
		}
		ref.Digest = r.Reference
	} else {
		ref.Tag = r.Reference
	}
	return ref, nil
}

// redactHost drops anything before an @ in the host part of a reference.
func redactHost(rest string) string {
	i := strings.IndexByte(rest, '/')
	if j := strings.LastIndexByte(rest[:i], '@'); j >= 0 {
		return "…@" + rest[j+1:]
	}
	return rest
}

// String returns the reference in its oci:// form.
func (r Ref) String() string {
	s := Scheme + r.Host + "/" + r.Repository
	switch {
	case r.Digest != "":
		s += "@" + r.Digest
	case r.Tag != "":
		s += ":" + r.Tag
	}
	return s
}

// WithDigest returns the reference pinned to digest d.
func (r Ref) WithDigest(d string) Ref {
	r.Tag, r.Digest = "", d
	return r
}

// repo is the reference without scheme, tag or digest, as oras-go names a
// repository.
func (r Ref) repo() string { return r.Host + "/" + r.Repository }

// isLoopback reports whether host (with or without a port) names this
// machine: localhost, 127.0.0.0/8 or ::1.
func isLoopback(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.Trim(h, "[]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
