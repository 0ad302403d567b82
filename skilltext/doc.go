// Package skilltext is what a skill says of itself to someone looking it
// up: its name, description, category and tags, read from the frontmatter
// of its entry (Of, Category), and its SKILL.md body without the
// frontmatter (Body). serve's catalog describes and indexes skills by it,
// and search's quality tests build their documents by it, so the two
// cannot drift apart.
//
// Invariants: it reads only the skill and bytes it is given; it never
// fails: a frontmatter value of an unexpected type is left out, and a
// SKILL.md without a closing "---" is its own body.
package skilltext
