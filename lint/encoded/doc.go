// Package encoded finds encoded runs in text and what they decode to: what
// a file may hide in plain sight as base64, base32 and hex runs, \x and \u
// escapes, lists of character codes, rot13 and reversed strings, and bytes
// XORed with a key the same text holds. lint/program analyses a decoded
// text that reads as text again as the same file would be, so a payload
// hidden under encodings meets the same rules as one written out.
//
// Invariants: it reads only the string it is given and imports nothing of
// lint. Find reads the text once and returns at most limit runs, in order,
// each inside the text (0 <= Off < End <= len(text)); it decodes only runs
// of at least 20 characters and keeps only decodings that read as text. It
// looks for XOR keys only in a text that holds a ^, and then at most 4 keys
// of at most 64 bytes, from at most 64 ^ and 8 names. No decoder grows its
// input beyond a small factor (Unescape at most 4 bytes per byte, and 4
// more).
package encoded
