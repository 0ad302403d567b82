// Package build scans skill libraries (folders, .zip archives, https
// archives), validates, lints and hashes every skill, and writes one
// content-addressed bundle (manifest.Writer).
//
// Invariants:
//   - The bundle is a function of the libraries' content and the options
//     alone: file order, times, modes, the machine, the number of workers
//     and a Cache do not change a byte.
//   - Nothing outside a library's root is read, whatever is swapped in
//     during the build: on Linux, without a Cache, folders and files are
//     opened relative to folder descriptors with O_NOFOLLOW, or with openat2
//     RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS; otherwise through os.Root, each
//     file checked against its listing. Discovery skips a symlinked folder
//     with a warning; a symlink, FIFO or other irregular file in a skill, a
//     name that cannot be published, a file over the size limit and a case
//     collision withhold the skill, naming the rule.
//   - A skill breaking a rule is withheld and listed with its reasons; lint
//     findings only label a skill, they never withhold it.
//   - Package initialisation does no work: patterns and rule tables are
//     built on first use.
package build
