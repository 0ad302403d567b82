// Package sarif reads other tools' SARIF 2.1.0 logs (Semgrep, Cisco's
// skill-scanner, CodeQL, anything that writes SARIF), so that build folds
// their results into a bundle's findings (ParseSARIF, then Findings). It
// only parses: binding a result to a skill's file, and its digest, is
// build's. lint writes SARIF (lint.WriteSARIF) and accepts waivers of the
// rules this package names (IsImportedRule); it knows nothing of lint.
//
// Invariants: it reads only the bytes it is given, never the file system
// or the network; a log is bounded (MaxSARIFBytes, MaxSARIFResults, rule
// ids of MaxImportedRule bytes, uriBaseIds maxBaseDepth deep); it never
// panics, whatever the bytes, and every result it returns carries an
// imported rule id, a severity, and a path or a reason to drop it.
package sarif
