// Package frontmatter reads the header of a SKILL.md: the YAML between its
// two --- lines, rendered verbatim as a JSON object with YAML 1.2
// core-schema meaning (Parse), and the body after it. build parses every
// SKILL.md it reads through it; frontmatter.go states each decision.
//
// Invariants: a host that re-parses SKILL.md with a YAML 1.2 parser and
// serializes the result gets the same JSON object; where parsers disagree,
// or a value has no JSON form, the frontmatter is refused with a named rule
// (an *Error with its line), never guessed at; the YAML text, the rendered
// JSON and the nesting are bounded (MaxSize, MaxJSONSize, MaxDepth), so an
// alias bomb is refused; it reads only the bytes it is given.
package frontmatter
