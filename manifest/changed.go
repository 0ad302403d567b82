package manifest

import "fmt"

// Changed returns an error if the file the bundle was opened from
// (OpenFile) has changed since it was opened: its size or modification
// time differ, which is what truncating or overwriting it in place does.
// It costs one fstat of the file, kept open for it, so a readiness probe
// can call it every time. Renaming another file over the path is not a
// change: the bundle goes on reading the file it opened. A bundle that
// Open read from elsewhere never changes.
func (b *Bundle) Changed() error {
	if b.file == nil {
		return nil
	}
	fi, err := b.file.Stat()
	if err != nil {
		return fmt.Errorf("bundle %s: %w", b.name, err)
	}
	if fi.Size() != b.opened.Size() || !fi.ModTime().Equal(b.opened.ModTime()) {
		return fmt.Errorf("bundle %s: the file changed since it was opened (%d bytes modified %s, was %d bytes modified %s): %s",
			b.name, fi.Size(), fi.ModTime().UTC().Format("2006-01-02T15:04:05.000000000Z"),
			b.opened.Size(), b.opened.ModTime().UTC().Format("2006-01-02T15:04:05.000000000Z"), mappedChanged)
	}
	return nil
}
