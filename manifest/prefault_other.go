//go:build !linux

package manifest

// prefault does nothing where there is no MADV_POPULATE_READ: the pages of
// the metadata fault in as they are read.
func prefault([]byte, int64) {}
