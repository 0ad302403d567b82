// Package lint is the risk analyser that build runs on every file of every
// skill, and the report that `skills-mcp lint` prints (JSON and SARIF).
//
// Invariants: the analyser labels, it never blocks; it reads every byte it
// is given (a big file in windows of WindowBytes, so a scan's memory is
// bounded) and only those, never the file system, the network or the
// environment, so its findings depend on a file's path and bytes alone and
// can be cached by digest; what it cannot read is a finding, never skipped
// (the code analysis, package program, works within a budget per file, and
// what lies past it is an unanalysed-code finding); every pattern is a Go regexp
// (RE2, linear in its input), so no input makes it slow; and it never fails
// or panics, whatever the bytes. The same holds for what it reads of other
// tools (package sarif: bytes in, imported results out, bounded); each rule
// names the capabilities its findings show (caps.go). What kind a file is
// by its name and bytes, and what a binary format hides, is package
// filekind's, which knows nothing of lint; lint grades what it finds.
package lint
