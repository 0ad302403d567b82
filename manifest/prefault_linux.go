package manifest

import (
	"os"
	"syscall"
)

// madvPopulateRead is Linux's MADV_POPULATE_READ (5.14 and later).
const madvPopulateRead = 22

// prefault maps in, with one system call, the pages of mapped from off to
// the end: the metadata, which open reads whole (the digest check) and
// serving reads from. Faulting them in one at a time costs about twice as
// much, and on a virtual machine with shadow page tables, more. An older
// kernel refuses the advice, and the pages fault in as they are read.
func prefault(mapped []byte, off int64) {
	start := off &^ int64(os.Getpagesize()-1)
	_ = syscall.Madvise(mapped[start:], madvPopulateRead)
}
