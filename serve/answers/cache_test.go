package answers

import (
	"strings"
	"testing"
)

// TestCacheBudget: the cache never counts more than its budget, keeps no
// answer for a snapshot it is not of (a Swap came in between), and drops
// everything on reset.
func TestCacheBudget(t *testing.T) {
	a, b := new(int), new(int) // two snapshots, by identity
	const budget = 1000
	c := newCache(budget, a)
	for i := range 100 {
		key := []byte(strings.Repeat("k", 10) + string(rune('a'+i%26)) + string(rune('a'+i/26)))
		c.put(a, key, []byte(strings.Repeat("v", 50)))
		if _, size := c.stats(); size > budget {
			t.Fatalf("after %d answers: %d bytes counted, budget %d", i+1, size, budget)
		}
		if _, ok := c.get(a, key); !ok {
			t.Fatalf("answer %d not kept at once", i)
		}
	}
	if n, _ := c.stats(); n == 0 || n >= 100 {
		t.Errorf("%d answers kept of 100 under a budget of %d", n, budget)
	}
	c.put(a, []byte("huge"), make([]byte, budget))
	if _, ok := c.get(a, []byte("huge")); ok {
		t.Error("an answer over the whole budget was kept")
	}
	c.put(b, []byte("other"), []byte("x"))
	if _, ok := c.get(b, []byte("other")); ok {
		t.Error("an answer of another snapshot was kept")
	}
	c.reset(b)
	if n, size := c.stats(); n != 0 || size != 0 {
		t.Errorf("after reset: %d answers, %d bytes", n, size)
	}
	if _, ok := c.get(a, []byte("kkkkkkkkkkaa")); ok {
		t.Error("an answer of the old snapshot is served after reset")
	}
	if New[*int](nil, -1, a) != nil {
		t.Error("a negative budget keeps answers")
	}
}
