package build

import (
	"math/bits"
	"sync"
)

// bufPools recycle the buffers files are read into, by size class: class k
// holds buffers of capacity 1<<k. A build without a cache reads every file
// and is done with its bytes once the skill is written to the bundle.
var bufPools [23]sync.Pool // up to 4 MiB, DefaultMaxFileBytes

const minBufClass = 10 // 1 KiB

// getBuf returns an empty buffer with room for n bytes.
func getBuf(n int) []byte {
	k := max(bits.Len(uint(max(n, 1)-1)), minBufClass)
	if k >= len(bufPools) {
		return make([]byte, 0, n)
	}
	if b, ok := bufPools[k].Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return make([]byte, 0, 1<<k)
}

// putBuf gives b back for reuse; nothing may refer to its bytes after. A
// buffer getBuf did not make is dropped.
func putBuf(b []byte) {
	c := cap(b)
	k := bits.TrailingZeros(uint(c))
	if c == 0 || c != 1<<k || k < minBufClass || k >= len(bufPools) {
		return
	}
	b = b[:0]
	bufPools[k].Put(&b)
}
