package lazyre

import (
	"strings"
	"sync"
	"testing"
)

// TestCompiledOnce wants one compiled expression however many goroutines
// ask for it first, and matches that agree with regexp.
func TestCompiledOnce(t *testing.T) {
	l := &RE{Expr: `^a+(b)$`}
	got := make([]any, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = l.Regexp() })
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] || g == nil {
			t.Fatalf("compiled more than once: %v", got)
		}
	}
	if !l.MatchString("aab") || l.MatchString("b") || string(l.Find([]byte("aab"))) != "aab" ||
		l.FindStringSubmatch("ab")[1] != "b" || l.String() != `^a+(b)$` {
		t.Error("matches disagree with regexp")
	}
}

// TestBadPatternPanics wants a bad pattern to panic on first use.
func TestBadPatternPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a bad pattern did not panic")
		}
	}()
	(&RE{Expr: `(`}).MatchString("x")
}

// TestCheck passes good patterns and names a bad one.
func TestCheck(t *testing.T) {
	if err := Check(&RE{Expr: `^a+$`}, &RE{Expr: `b|c`}); err != nil {
		t.Errorf("good patterns: %v", err)
	}
	if err := Check(&RE{Expr: `^a+$`}, &RE{Expr: `(unclosed`}); err == nil || !strings.Contains(err.Error(), "(unclosed") {
		t.Errorf("bad pattern: %v, want an error naming it", err)
	}
}
