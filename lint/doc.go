// Package lint is the risk analyser that build runs on every file of every
// skill, and the report that `skills-mcp lint` prints (JSON and SARIF).
//
// Invariants: the analyser labels, it never blocks; it reads only the bytes
// it is given (at most MaxBytes of a file), never the file system, the
// network or the environment, so its findings depend on a file's path and
// bytes alone and can be cached by digest; every pattern is a Go regexp
// (RE2, linear in its input), so no input makes it slow; and it never fails
// or panics, whatever the bytes.
package lint
