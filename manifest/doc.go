// Package manifest defines the skills bundle: the manifest that lists every
// published skill with the digest and size of each file, and the single-file
// container (.skb) that holds the manifest and the files' bytes. It uses the
// standard library only.
//
// # Invariants
//
//   - A digest is the SHA-256 of a file's raw bytes, written "sha256:<64
//     lowercase hex>": the SEP-2640 digest, the OCI digest and a blob's name.
//   - The manifest bytes are canonical (see Marshal); Parse rejects any other
//     encoding. The bundle id is the digest of those bytes, and signatures
//     cover exactly those bytes.
//   - Skills are sorted by URI, bytewise, without duplicates. Each skill lists
//     SKILL.md first, then its other files sorted bytewise by path. Each entry
//     keeps the SEP-2640 limits: at most MaxSkillFiles files and MaxSkillBytes
//     bytes.
//   - Every string in a manifest is valid UTF-8, and every skill and file
//     path keeps the path rule (CheckPath, PathSet) that build and pull
//     apply too; Check refuses anything else when a manifest is written and
//     when it is parsed.
//   - No local path, time of day or file mode enters a manifest; Created is set
//     only from SOURCE_DATE_EPOCH. Identical input gives identical bytes.
//   - A skill's capabilities (what the analysis saw it do) are lowercase
//     words, sorted bytewise, unique (CheckCapabilities); the format names
//     none of them.
//   - Each skill's SEP-2640 entry ({uri, frontmatter, resources}) is stored as
//     the exact bytes sent on the wire, so a server answers skills/list and
//     skills/get without parsing or re-encoding.
//
// # Format
//
// The manifest's media type names its version (v1). Version 1 grows only by
// optional fields that are left out when empty (a finding's column, a
// skill's capabilities): a bundle written before a field is read as having
// none, so every older bundle stays readable, and one bundle has one
// encoding still. A reader older than a field refuses a manifest that
// uses it (unknown fields are refused), rather than serve it without. A
// change that would make an older bundle mean something else takes a new
// media type.
//
// A bundle is one file, little-endian throughout:
//
//	0       header: magic "\x89SKB\r\n\x1a\n" | u32 version (1) | u32 flags (0),
//	        zero-padded to 16 KiB
//	16384   blobs: each distinct file once, in first-use order (skills by URI,
//	        files in manifest order), each starting on an 8-byte boundary
//	…       manifest: the canonical JSON bytes, then zero padding to 8 bytes
//	…       blob index: one 48-byte entry per blob, sorted by digest:
//	        digest[32] | u64 offset | u64 length
//	…       skill index: one 24-byte entry per skill, in manifest order:
//	        u32 record offset | u32 record length | u32 entry length |
//	        u32 uri length | u32 flags (1 = hidden) | u32 zero
//	…       signatures (outside everything hashed): empty, or u32 count | u32 0,
//	        then per signature u16 kind | u16 0 | u32 length | bytes, padded to 8
//	end-128 trailer: u64 blobs offset, blobs length, manifest offset, manifest
//	        length, blob index offset, blob count, skill index offset, skill
//	        count, signature offset, signature length, file size |
//	        sha256(manifest)[32] | magic "SKB-END1"
//
// Every section follows the previous one at the exact offset a Writer would
// use, so there is one layout for one content, and every padding is zeros.
// Open checks all of it but the blobs, and the manifest digest, without
// parsing JSON; Verify also parses the manifest, re-hashes every blob and
// checks the padding between blobs. Every read of a blob hashes it the first
// time and refuses bytes that do not match its digest.
//
// # Serving safely from a mapped file
//
// OpenFile memory-maps the bundle on unix and reads blobs, manifest and
// indexes in place: opening costs one hash of the manifest and no copy of it.
// A mapped file that is truncated or overwritten in place can make a read
// fault, or break an invariant Open checked. Every accessor reads the map
// under a guard that turns a fault or a failed bounds check into an error (or
// "not found") instead of a crash, and no slice of the map escapes the
// package: what an accessor returns is a copy. ManifestBytes hashes its copy
// again, so signatures are only ever checked against the verified manifest. To roll out a new bundle, write a new file
// (WriteFileAtomic does this) and rename it over the old one: the running
// server keeps reading the old inode until it reopens. OpenFile keeps the
// file open, so Changed can tell, with one fstat and no read of the map,
// that it was truncated or overwritten in place since.
package manifest
