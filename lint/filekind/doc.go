// Package filekind tells what kind of file a skill ships, by its name and
// by its bytes: text or binary (IsBinary), which format the leading bytes
// say (Sniff: an image, an archive, bytecode, an office document, a native
// executable), which kind the extension claims (ByName), and what a
// format hides from a reader: data appended after an image's end
// (Trailer), macros and outside relationships of an office document
// (OfficeActive), a file no reader can check (Opaque), a name that says
// another kind (Disguised). lint's opacity rules grade what it reports.
//
// Invariants: it knows nothing of lint (lint imports it, never the other
// way) and decides no severity: a check returns what it found as an
// excerpt, "" for nothing; it reads only the bytes it is given; every walk
// over a format's structure moves forward by at least one byte per step,
// so it is linear in the file's size, and what it inflates of an office
// document is bounded; it never fails or panics, whatever the bytes.
package filekind
