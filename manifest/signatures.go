package manifest

// The signature block of a bundle: encoded by the writer, decoded at open,
// and written again with other signatures by WriteSigned.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

func decodeSignatures(p []byte) ([]Signature, error) {
	if len(p) == 0 {
		return nil, nil
	}
	if len(p) < 8 || binary.LittleEndian.Uint32(p[4:]) != 0 {
		return nil, errors.New("signature area header")
	}
	n := int(binary.LittleEndian.Uint32(p))
	p = p[8:]
	if n == 0 || n > len(p)/8 {
		return nil, errors.New("signature count out of range")
	}
	sigs := make([]Signature, 0, n)
	for range n {
		if len(p) < 8 || binary.LittleEndian.Uint16(p[2:]) != 0 {
			return nil, errors.New("signature header")
		}
		kind := SignatureKind(binary.LittleEndian.Uint16(p))
		l := int(binary.LittleEndian.Uint32(p[4:]))
		padded := (8 + l + 7) &^ 7
		if l < 0 || padded > len(p) || padded < 8 {
			return nil, errors.New("signature length out of range")
		}
		sigs = append(sigs, Signature{Kind: kind, Data: bytes.Clone(p[8 : 8+l])})
		if !zeros(p[8+l : padded]) {
			return nil, errors.New("non-zero signature padding")
		}
		p = p[padded:]
	}
	if len(p) != 0 {
		return nil, errors.New("trailing bytes in signature area")
	}
	return sigs, nil
}

// WriteSigned copies the bundle to w with its signature area replaced by
// sigs. The manifest, and so the bundle id, does not change.
func (b *Bundle) WriteSigned(w io.Writer, sigs []Signature) error {
	if _, err := io.Copy(w, io.NewSectionReader(b.r, 0, b.t.sigOff)); err != nil {
		return fmt.Errorf("bundle %s: copy: %w", b.name, err)
	}
	t := b.t
	sa := encodeSignatures(sigs)
	t.sigLen = int64(len(sa))
	t.fileSize = t.sigOff + t.sigLen + trailerSize
	if _, err := w.Write(append(sa, t.encode()...)); err != nil {
		return fmt.Errorf("bundle %s: write signatures: %w", b.name, err)
	}
	return nil
}

func encodeSignatures(sigs []Signature) []byte {
	if len(sigs) == 0 {
		return nil
	}
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, uint32(len(sigs)))
	b = binary.LittleEndian.AppendUint32(b, 0)
	for _, s := range sigs {
		b = binary.LittleEndian.AppendUint16(b, uint16(s.Kind))
		b = binary.LittleEndian.AppendUint16(b, 0)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s.Data)))
		b = append(b, s.Data...)
		for len(b)%8 != 0 {
			b = append(b, 0)
		}
	}
	return b
}
