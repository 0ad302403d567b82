// Package lazyre holds regular expressions compiled on their first use.
// Patterns are declared as &lazyre.RE{Expr: ...} literals, which the
// compiler lays out statically: a program that links a package of patterns
// but never matches one pays nothing for them at start-up. build and lint
// declare theirs this way.
package lazyre

import (
	"fmt"
	"regexp"
	"sync"
)

// RE is a regular expression compiled on its first use. The zero value is
// not usable: Expr must be set, and not changed after the first match.
type RE struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Regexp returns the compiled expression, compiling it once. A bad pattern
// panics on first use, as regexp.MustCompile would have at initialisation;
// each package's tests compile all of its patterns.
func (l *RE) Regexp() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.Expr) })
	return l.re
}

// String returns the expression's source.
func (l *RE) String() string { return l.Expr }

// MatchString is regexp.Regexp.MatchString.
func (l *RE) MatchString(s string) bool { return l.Regexp().MatchString(s) }

// Find is regexp.Regexp.Find.
func (l *RE) Find(b []byte) []byte { return l.Regexp().Find(b) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (l *RE) FindStringSubmatch(s string) []string { return l.Regexp().FindStringSubmatch(s) }

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (l *RE) FindAllStringIndex(s string, n int) [][]int {
	return l.Regexp().FindAllStringIndex(s, n)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (l *RE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.Regexp().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (l *RE) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.Regexp().FindAllStringSubmatchIndex(s, n)
}

// Check compiles each pattern and reports the first that does not compile,
// or is not compiled once: each package's tests give it all of theirs, so
// a bad pattern fails a test rather than the first input that reaches it.
func Check(all ...*RE) error {
	for _, l := range all {
		if _, err := regexp.Compile(l.Expr); err != nil {
			return fmt.Errorf("pattern %s: %w", l, err)
		}
		if first := l.Regexp(); first == nil || l.Regexp() != first {
			return fmt.Errorf("pattern %s: not compiled once", l)
		}
	}
	return nil
}
