package manifest

// The layout of the .skb container (see the package documentation): its
// constants, magic numbers, the trailer that locates every section, and
// the kinds of signature its signature area holds. Both the writer and the
// reader use this file, which uses neither.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Layout constants.
const (
	headerSize     = 16
	blobsStart     = 16 << 10 // the blob area starts on a 16 KiB boundary
	blobAlign      = 8
	blobIndexEntry = 48 // digest[32] | u64 offset | u64 length
	skillIndexSize = 24 // u32 recOff | u32 recLen | u32 entryLen | u32 uriLen | u32 flags | u32 zero
	trailerSize    = 128
	formatVersion  = 1
	flagHidden     = 1
	recordPrefix   = `{"skill":`
	entryPrefix    = `{"uri":"`
)

var (
	headerMagic  = [8]byte{0x89, 'S', 'K', 'B', '\r', '\n', 0x1a, '\n'}
	trailerMagic = [8]byte{'S', 'K', 'B', '-', 'E', 'N', 'D', '1'}
)

// SignatureKind says how a signature in a bundle's signature area is encoded.
type SignatureKind uint16

// Signature kinds.
const (
	SignatureSSH      SignatureKind = 1 // armored SSHSIG over the manifest bytes
	SignatureMinisign SignatureKind = 2 // minisign .minisig text over the manifest bytes
	// SignatureCosign is a signature in a Sigstore format (cosign's
	// simple signing, or a Sigstore bundle) over the digest of the OCI
	// artifact the bundle was fetched as, not over the manifest bytes: a
	// JSON record package oci writes and reads, which this package
	// carries without checking.
	SignatureCosign SignatureKind = 3
)

// Signature is one detached signature over a bundle's manifest bytes.
type Signature struct {
	Kind SignatureKind
	Data []byte
}

// trailer is the file's last trailerSize bytes: where each section is, and
// the manifest's digest.
type trailer struct {
	blobsOff, blobsLen        int64
	manifestOff, manifestLen  int64
	blobIndexOff, blobCount   int64
	skillIndexOff, skillCount int64
	sigOff, sigLen            int64
	fileSize                  int64
	manifestDigest            Digest
}

func (t *trailer) encode() []byte {
	b := make([]byte, 0, trailerSize)
	for _, v := range []int64{t.blobsOff, t.blobsLen, t.manifestOff, t.manifestLen, t.blobIndexOff, t.blobCount,
		t.skillIndexOff, t.skillCount, t.sigOff, t.sigLen, t.fileSize} {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	b = append(b, t.manifestDigest[:]...)
	b = append(b, trailerMagic[:]...)
	return b
}

func decodeTrailer(b []byte) (t trailer) {
	v := func(i int) int64 { return int64(binary.LittleEndian.Uint64(b[8*i:])) }
	t.blobsOff, t.blobsLen = v(0), v(1)
	t.manifestOff, t.manifestLen = v(2), v(3)
	t.blobIndexOff, t.blobCount = v(4), v(5)
	t.skillIndexOff, t.skillCount = v(6), v(7)
	t.sigOff, t.sigLen = v(8), v(9)
	t.fileSize = v(10)
	copy(t.manifestDigest[:], b[88:120])
	return t
}

func align8(n int64) int64 { return (n + 7) &^ 7 }

// zeros reports whether p is all zero bytes: the one rule for every padding
// of the format, which no digest covers.
func zeros(p []byte) bool {
	for _, c := range p {
		if c != 0 {
			return false
		}
	}
	return true
}

// check verifies that the sections follow one another exactly as a Writer
// lays them out, without overflow.
func (t *trailer) check(size int64) error {
	switch {
	case t.fileSize != size:
		return fmt.Errorf("trailer says %d bytes, file has %d", t.fileSize, size)
	case t.blobsOff != blobsStart:
		return fmt.Errorf("blob area at %d, want %d", t.blobsOff, blobsStart)
	case t.blobsLen < 0 || t.blobsLen > size:
		return errors.New("blob area length out of range")
	case t.manifestOff != align8(t.blobsOff+t.blobsLen):
		return errors.New("manifest offset out of place")
	case t.manifestLen <= 0 || t.manifestLen > size || t.manifestLen > math.MaxUint32:
		return errors.New("manifest length out of range")
	case t.blobIndexOff != align8(t.manifestOff+t.manifestLen):
		return errors.New("blob index offset out of place")
	case t.blobCount < 0 || t.blobCount > size/blobIndexEntry:
		return errors.New("blob count out of range")
	case t.skillIndexOff != t.blobIndexOff+t.blobCount*blobIndexEntry:
		return errors.New("skill index offset out of place")
	case t.skillCount < 0 || t.skillCount > size/skillIndexSize:
		return errors.New("skill count out of range")
	case t.sigOff != t.skillIndexOff+t.skillCount*skillIndexSize:
		return errors.New("signature area offset out of place")
	case t.sigLen < 0 || t.sigOff+t.sigLen != size-trailerSize:
		return errors.New("signature area length out of place")
	}
	return nil
}
