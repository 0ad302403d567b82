package build

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on its first use. The package's
// patterns are declared as &lazyRE{expr: ...} literals, which the compiler
// lays out statically: a program that links build but never parses
// frontmatter pays nothing for them at start-up.
type lazyRE struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// get returns the compiled expression; a bad pattern panics on first use, as
// regexp.MustCompile would have at initialisation (the tests use them all).
func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

func (l *lazyRE) String() string { return l.expr }

func (l *lazyRE) MatchString(s string) bool { return l.get().MatchString(s) }

func (l *lazyRE) Find(b []byte) []byte { return l.get().Find(b) }

func (l *lazyRE) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }

func (l *lazyRE) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}

func (l *lazyRE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}

func (l *lazyRE) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
