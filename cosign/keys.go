package cosign

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"io"
	"os"

	"github.com/secure-systems-lab/go-securesystemslib/encrypted"
)

// EnvPassword holds the password of a cosign private key, as for cosign.
const EnvPassword = "COSIGN_PASSWORD"

// PEM block types of cosign's key files: generate-key-pair writes the
// first (older cosign the second) and import-key-pair the same.
const (
	pemEncrypted       = "ENCRYPTED SIGSTORE PRIVATE KEY"
	pemEncryptedCosign = "ENCRYPTED COSIGN PRIVATE KEY"
	pemPublicKey       = "PUBLIC KEY"
)

// maxKeyFile bounds a key file read.
const maxKeyFile = 64 << 10

// LoadPrivateKey reads a cosign private key file (cosign generate-key-pair
// or import-key-pair): a PEM block of scrypt and nacl/secretbox encrypted
// PKCS #8, decrypted with password. The key must be ECDSA P-256 or
// Ed25519.
func LoadPrivateKey(path string, password []byte) (crypto.Signer, error) {
	b, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != pemEncrypted && blk.Type != pemEncryptedCosign {
		return nil, fmt.Errorf("%s: not a cosign private key (want a PEM block %q)", path, pemEncrypted)
	}
	der, err := encrypted.Decrypt(blk.Bytes, password)
	if err != nil {
		return nil, fmt.Errorf("%s: decrypt the cosign key (password from %s): %w", path, EnvPassword, err)
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("%s: cosign key: %w", path, err)
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%s: cosign key of type %T: want ECDSA P-256 or Ed25519", path, k)
	}
	if err := checkKey(s.Public()); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// IsPublicKeyFile reports whether b is a PEM public key file, the form of
// cosign.pub: what --trust takes for cosign signatures.
func IsPublicKeyFile(b []byte) bool {
	blk, _ := pem.Decode(b)
	return blk != nil && blk.Type == pemPublicKey
}

// ParsePublicKeys reads the PEM public keys of a file such as cosign.pub:
// one or more PUBLIC KEY blocks (PKIX, ECDSA P-256 or Ed25519), nothing
// else. name is the file's name for errors.
func ParsePublicKeys(name string, b []byte) ([]crypto.PublicKey, error) {
	if len(b) > maxKeyFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, maxKeyFile)
	}
	var keys []crypto.PublicKey
	for rest := b; ; {
		blk, r := pem.Decode(rest)
		if blk == nil {
			if len(keys) == 0 || len(trimSpace(rest)) != 0 {
				return nil, fmt.Errorf("%s: malformed PEM: want PUBLIC KEY blocks only", name)
			}
			break
		}
		rest = r
		if blk.Type != pemPublicKey {
			return nil, fmt.Errorf("%s: PEM block %q: want %q", name, blk.Type, pemPublicKey)
		}
		k, err := x509.ParsePKIXPublicKey(blk.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: public key: %w", name, err)
		}
		if err := checkKey(k); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		keys = append(keys, k)
		if len(keys) > maxKeys {
			return nil, fmt.Errorf("%s: more than %d keys", name, maxKeys)
		}
	}
	return keys, nil
}

// maxKeys bounds the keys of one trust file.
const maxKeys = 64

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// checkKey accepts the key types cosign signs with that we support.
func checkKey(k crypto.PublicKey) error {
	switch k := k.(type) {
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return fmt.Errorf("ECDSA key on %s: want P-256", k.Curve.Params().Name)
		}
		return nil
	case ed25519.PublicKey:
		return nil
	}
	return fmt.Errorf("key of type %T: want ECDSA P-256 or Ed25519", k)
}

// KeyID names a public key in messages and bundles: the base64 sha256 of
// its PKIX encoding, the hint cosign writes into a bundle.
func KeyID(k crypto.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		return "?"
	}
	sum := sha256.Sum256(der)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// PublicKeyPEM returns k as cosign writes cosign.pub.
func PublicKeyPEM(k crypto.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: pemPublicKey, Bytes: der}), nil
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxKeyFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxKeyFile)
	}
	return b, nil
}
