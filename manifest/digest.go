package manifest

import (
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
)

// Digest is the SHA-256 of a byte string. Its text form is "sha256:" followed
// by 64 lowercase hexadecimal digits: the SEP-2640 digest, the OCI digest and
// the name of a blob in a bundle are one and the same string.
type Digest [sha256.Size]byte

var (
	_ encoding.TextMarshaler   = Digest{}
	_ encoding.TextUnmarshaler = (*Digest)(nil)
)

const digestPrefix = "sha256:"

// Sum returns the digest of b.
func Sum(b []byte) Digest { return sha256.Sum256(b) }

// NewHash returns a hash.Hash whose Sum, passed to DigestOf, gives a Digest.
func NewHash() hash.Hash { return sha256.New() }

// DigestOf converts the output of a NewHash hash into a Digest.
func DigestOf(h hash.Hash) Digest {
	var d Digest
	h.Sum(d[:0])
	return d
}

// ParseDigest parses the strict text form "sha256:<64 lowercase hex>".
func ParseDigest(s string) (Digest, error) {
	var d Digest
	if len(s) != len(digestPrefix)+2*len(d) || s[:len(digestPrefix)] != digestPrefix {
		return d, fmt.Errorf("invalid digest %q: want sha256:<64 lowercase hex>", s)
	}
	for _, c := range s[len(digestPrefix):] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return d, fmt.Errorf("invalid digest %q: want sha256:<64 lowercase hex>", s)
		}
	}
	if _, err := hex.Decode(d[:], []byte(s[len(digestPrefix):])); err != nil {
		return d, fmt.Errorf("invalid digest %q: %w", s, err)
	}
	return d, nil
}

// String returns "sha256:<hex>".
func (d Digest) String() string { return digestPrefix + d.Hex() }

// Hex returns the 64 lowercase hexadecimal digits alone.
func (d Digest) Hex() string { return hex.EncodeToString(d[:]) }

// IsZero reports whether d is the zero value (not the digest of anything).
func (d Digest) IsZero() bool { return d == Digest{} }

// MarshalText implements encoding.TextMarshaler.
func (d Digest) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParseDigest's rules.
func (d *Digest) UnmarshalText(b []byte) error {
	if d == nil {
		return errors.New("unmarshal digest into nil pointer")
	}
	v, err := ParseDigest(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
