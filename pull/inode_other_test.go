//go:build !unix

package pull_test

import "io/fs"

func inode(fs.FileInfo) (uint64, bool) { return 0, false }
