//go:build !linux

package build

import (
	"errors"
	"io/fs"
)

// unchanged reports whether the probed path is as the last build saw it.
func (p *probe) unchanged() bool {
	fi, err := statDir(p.path, p.follow)
	if p.old == nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	return err == nil && sameFile(p.old, fi)
}
