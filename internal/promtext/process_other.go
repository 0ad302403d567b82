//go:build !unix

package promtext

// registerProcess registers nothing where the process's figures are not
// read (not unix).
func registerProcess(*Registry) {}
