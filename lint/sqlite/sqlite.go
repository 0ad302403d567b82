// Package sqlite reads the text an SQLite database holds, so that the
// analyser can read a database a skill ships (a test fixture, a lookup
// table) as it reads any other text, instead of calling it opaque.
//
// It walks the database's b-trees from the schema on page 1 to every
// table's root, as SQLite itself finds rows, and returns the schema's SQL
// and each row's text values: what a program that queries the database can
// get out of it as text. Pages no table reaches (the free list, unused
// space) are not read: SQL cannot reach them either.
//
// Invariants: every page is visited at most once and every overflow chain
// is bounded by the page count, so the work is linear in the file's size;
// any structure it does not read whole (a bad page number, a cycle, a
// record that runs past its page, an encoding it does not know, a binary
// blob larger than MaxBlob) is an error, never a partial answer.
package sqlite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxBlob is the largest binary (not UTF-8) blob a database may hold and
// still be read: a larger one is data the analyser cannot read.
const MaxBlob = 256

// maxDepth bounds the depth of a b-tree: a real one of 2^32 pages is a few
// levels deep.
const maxDepth = 32

// header is the file's magic string.
const header = "SQLite format 3\x00"

// Page types of a b-tree page's first byte.
const (
	interiorIndex = 0x02
	interiorTable = 0x05
	leafIndex     = 0x0a
	leafTable     = 0x0d
)

// A db is a database being read.
type db struct {
	data     []byte
	pageSize int
	usable   int
	pages    int
	enc      byte // 1 UTF-8, 2 UTF-16le, 3 UTF-16be
	seen     []bool
	out      strings.Builder
}

// Text returns the text of the database data: the schema's SQL and every
// table row's text values, a row to a line and its values separated by
// tabs; or an error saying what it could not read.
func Text(data []byte) (string, error) {
	if len(data) < 100 || string(data[:16]) != header {
		return "", errors.New("not an SQLite database")
	}
	d := &db{data: data}
	d.pageSize = int(binary.BigEndian.Uint16(data[16:18]))
	if d.pageSize == 1 {
		d.pageSize = 65536
	}
	if d.pageSize < 512 || d.pageSize&(d.pageSize-1) != 0 {
		return "", fmt.Errorf("page size %d", d.pageSize)
	}
	d.usable = d.pageSize - int(data[20])
	if d.usable < 480 {
		return "", fmt.Errorf("usable page size %d", d.usable)
	}
	d.pages = len(data) / d.pageSize
	d.enc = byte(binary.BigEndian.Uint32(data[56:60]))
	if d.enc == 0 {
		d.enc = 1
	}
	if d.enc > 3 {
		return "", fmt.Errorf("text encoding %d", d.enc)
	}
	d.seen = make([]bool, d.pages+1)
	var roots []int
	err := d.walk(1, 0, func(values []any) error {
		d.row(values)
		// The schema's rows: type, name, tbl_name, rootpage, sql. A table's
		// rows are read from its root; an index holds copies of them.
		if len(values) >= 4 {
			if t, ok := values[0].(string); ok && t == "table" {
				if root, ok := values[3].(int64); ok && root > 0 {
					roots = append(roots, int(root))
				}
			}
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	for _, r := range roots {
		if err := d.walk(r, 0, func(values []any) error { d.row(values); return nil }); err != nil {
			return "", fmt.Errorf("table at page %d: %w", r, err)
		}
	}
	return d.out.String(), nil
}

// row writes a row's text values as one line.
func (d *db) row(values []any) {
	first := true
	for _, v := range values {
		s, ok := v.(string)
		if !ok || s == "" {
			continue
		}
		if !first {
			d.out.WriteByte('\t')
		}
		d.out.WriteString(s)
		first = false
	}
	if !first {
		d.out.WriteByte('\n')
	}
}

// page returns page n (from 1), or an error for one the file does not
// hold or one already read.
func (d *db) page(n int) ([]byte, error) {
	if n < 1 || n > d.pages {
		return nil, fmt.Errorf("page %d of %d", n, d.pages)
	}
	if d.seen[n] {
		return nil, fmt.Errorf("page %d reached twice", n)
	}
	d.seen[n] = true
	return d.data[(n-1)*d.pageSize : n*d.pageSize], nil
}

// walk reads the b-tree rooted at page n and calls fn with each row's
// values.
func (d *db) walk(n, depth int, fn func([]any) error) error {
	if depth > maxDepth {
		return errors.New("b-tree too deep")
	}
	p, err := d.page(n)
	if err != nil {
		return err
	}
	hdr := 0
	if n == 1 {
		hdr = 100
	}
	if hdr+8 > len(p) {
		return errors.New("short page")
	}
	kind := p[hdr]
	cells := int(binary.BigEndian.Uint16(p[hdr+3:]))
	ptrs := hdr + 8
	if kind == interiorTable || kind == interiorIndex {
		ptrs = hdr + 12
	}
	if ptrs+2*cells > d.usable {
		return fmt.Errorf("page %d: %d cells do not fit", n, cells)
	}
	for i := range cells {
		off := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
		if off < ptrs || off >= d.usable {
			return fmt.Errorf("page %d: cell at %d", n, off)
		}
		cell := p[off:d.usable]
		switch kind {
		case interiorTable:
			if len(cell) < 4 {
				return fmt.Errorf("page %d: short cell", n)
			}
			if err := d.walk(int(binary.BigEndian.Uint32(cell)), depth+1, fn); err != nil {
				return err
			}
		case interiorIndex, leafIndex, leafTable:
			if kind == interiorIndex {
				if len(cell) < 4 {
					return fmt.Errorf("page %d: short cell", n)
				}
				if err := d.walk(int(binary.BigEndian.Uint32(cell)), depth+1, fn); err != nil {
					return err
				}
				cell = cell[4:]
			}
			size, k := varint(cell)
			if k == 0 {
				return fmt.Errorf("page %d: bad payload size", n)
			}
			cell = cell[k:]
			if kind == leafTable {
				if _, k = varint(cell); k == 0 {
					return fmt.Errorf("page %d: bad row id", n)
				}
				cell = cell[k:]
			}
			payload, err := d.payload(cell, int64(size), kind == leafTable)
			if err != nil {
				return fmt.Errorf("page %d: %w", n, err)
			}
			values, err := d.record(payload)
			if err != nil {
				return fmt.Errorf("page %d: %w", n, err)
			}
			if err := fn(values); err != nil {
				return err
			}
		default:
			return fmt.Errorf("page %d: type %#x is no b-tree page", n, kind)
		}
	}
	if kind == interiorTable || kind == interiorIndex {
		return d.walk(int(binary.BigEndian.Uint32(p[hdr+8:])), depth+1, fn)
	}
	return nil
}

// payload returns a cell's payload of size bytes, the part on its page
// (cell) and the rest from its overflow pages.
func (d *db) payload(cell []byte, size int64, table bool) ([]byte, error) {
	if size < 0 || size > int64(len(d.data)) {
		return nil, fmt.Errorf("payload of %d bytes", size)
	}
	u := int64(d.usable)
	x := u - 35
	if !table {
		x = (u-12)*64/255 - 23
	}
	local := size
	if size > x {
		m := (u-12)*32/255 - 23
		local = m + (size-m)%(u-4)
		if local > x {
			local = m
		}
	}
	if int64(len(cell)) < local {
		return nil, errors.New("payload runs past its page")
	}
	if local == size {
		return cell[:local], nil
	}
	if int64(len(cell)) < local+4 {
		return nil, errors.New("no overflow page number")
	}
	out := make([]byte, 0, size)
	out = append(out, cell[:local]...)
	next := int(binary.BigEndian.Uint32(cell[local:]))
	for int64(len(out)) < size {
		p, err := d.page(next)
		if err != nil {
			return nil, fmt.Errorf("overflow: %w", err)
		}
		n := min(int64(d.usable-4), size-int64(len(out)))
		out = append(out, p[4:4+n]...)
		next = int(binary.BigEndian.Uint32(p))
	}
	return out, nil
}

// record decodes a record's values: nil, int64, float64 (as nil: a number
// carries no text), string.
func (d *db) record(b []byte) ([]any, error) {
	hsize, k := varint(b)
	if k == 0 || hsize > uint64(len(b)) || hsize < uint64(k) {
		return nil, errors.New("bad record header")
	}
	types, body := b[k:hsize], b[hsize:]
	var values []any
	for len(types) > 0 {
		t, k := varint(types)
		if k == 0 {
			return nil, errors.New("bad serial type")
		}
		types = types[k:]
		n := 0
		switch {
		case t <= 4:
			n = int(t)
		case t == 5:
			n = 6
		case t == 6 || t == 7:
			n = 8
		case t == 8 || t == 9:
		case t == 10 || t == 11:
			return nil, fmt.Errorf("reserved serial type %d", t)
		default:
			if (t-12)/2 > uint64(len(body)) {
				return nil, errors.New("value runs past its record")
			}
			n = int((t - 12) / 2)
		}
		if n > len(body) {
			return nil, errors.New("value runs past its record")
		}
		v := body[:n]
		body = body[n:]
		switch {
		case t >= 1 && t <= 6:
			var x int64
			for _, c := range v {
				x = x<<8 | int64(c)
			}
			if n > 0 && v[0]&0x80 != 0 && n < 8 {
				x -= 1 << (8 * n)
			}
			values = append(values, x)
		case t == 8:
			values = append(values, int64(0))
		case t == 9:
			values = append(values, int64(1))
		case t >= 13 && t%2 == 1:
			s, err := d.text(v)
			if err != nil {
				return nil, err
			}
			values = append(values, s)
		case t >= 12:
			if utf8.Valid(v) {
				values = append(values, string(v))
			} else if len(v) > MaxBlob {
				return nil, fmt.Errorf("a binary blob of %d bytes", len(v))
			} else {
				values = append(values, nil)
			}
		default:
			values = append(values, nil)
		}
	}
	return values, nil
}

// text decodes a text value in the database's encoding.
func (d *db) text(v []byte) (string, error) {
	if d.enc == 1 {
		if !utf8.Valid(v) {
			return "", errors.New("text that is not UTF-8")
		}
		return string(v), nil
	}
	if len(v)%2 != 0 {
		return "", errors.New("UTF-16 text of an odd length")
	}
	u := make([]uint16, len(v)/2)
	for i := range u {
		if d.enc == 2 {
			u[i] = binary.LittleEndian.Uint16(v[2*i:])
		} else {
			u[i] = binary.BigEndian.Uint16(v[2*i:])
		}
	}
	return string(utf16.Decode(u)), nil
}

// varint decodes SQLite's variable-length integer at the start of b: up to
// nine bytes, seven bits each, all eight of the ninth. It returns the
// value and its length, 0 when b ends first.
func varint(b []byte) (uint64, int) {
	var x uint64
	for i := 0; i < 9 && i < len(b); i++ {
		if i == 8 {
			return x<<8 | uint64(b[i]), 9
		}
		x = x<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return x, i + 1
		}
	}
	return 0, 0
}
