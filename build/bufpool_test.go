package build

import "testing"

func TestBufPool(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1024, 1025, 14 << 10, 4 << 20, 4<<20 + 1, 9 << 20} {
		b := getBuf(n)
		if len(b) != 0 || cap(b) < n {
			t.Fatalf("getBuf(%d): len %d cap %d", n, len(b), cap(b))
		}
		b = append(b, "data"...)
		putBuf(b)
		if c := getBuf(n); len(c) != 0 || cap(c) < n {
			t.Fatalf("getBuf(%d) after putBuf: len %d cap %d", n, len(c), cap(c))
		}
	}
	putBuf(make([]byte, 3000)) // not a class size: dropped
	putBuf(nil)
	for range 3 {
		if c := cap(getBuf(3000)); c != 4096 {
			t.Fatalf("getBuf(3000) after putBuf of a 3000-byte buffer: cap %d, want the 4 KiB class", c)
		}
	}
}
