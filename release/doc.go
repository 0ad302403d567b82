// Package release compares two releases of skill libraries: two bundles,
// or anything `pull --from` opens (an export folder, a bundle downloaded
// over https or fetched from a registry, a discovery site). It says which
// skills were added, removed, moved and changed (files, with sizes, and
// frontmatter), and what changed in their risk: findings and capabilities
// new in the newer release, gone, or unchanged, and waivers that no longer
// cover a finding. The new-findings gate of build and lint (--baseline,
// --fail-on-new) is a comparison with the baseline release, made here.
//
// It is a package of its own, not part of manifest, because it needs more
// than the format: lint's severities, capabilities and SARIF writer, and
// pull's sources. Dependencies point down: release imports manifest, lint
// and pull; only the command line imports release.
//
// # Invariants
//
//   - A release compared with itself is identical: no skill, finding or
//     capability is reported, and Diff.Identical is true.
//   - Comparing two bundles reads their manifests' heads and skill indexes
//     in place, and parses only the skill records that differ byte for
//     byte (Bundle.CompareSkill); no file's bytes are read unless a patch
//     is asked for, and then only those of files that changed.
//   - A skill at a new path with the same tree (manifest.Skill.TreeDigest)
//     is a rename, never a removal and an addition.
//   - A finding's identity is its skill, rule, file and line content (the
//     excerpt), not its line number: a finding whose line moved is the same
//     finding. A file moved within its skill keeps its findings (matched by
//     the file's digest). A finding whose severity rose is new. See
//     matchFindings.
//   - Output is deterministic: skills in path order, findings in file,
//     line and rule order.
package release
