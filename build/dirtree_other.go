//go:build !linux

package build

import "errors"

// openDirTree is Linux only; elsewhere a folder is read through os.Root.
func openDirTree(string) (tree, error) { return nil, errors.ErrUnsupported }
