package lazy

import (
	"sync"
	"testing"
)

// built counts the calls of table's New.
var built int

var table = Value[map[string]int]{New: func() map[string]int {
	built++
	return map[string]int{"a": 1}
}}

// TestBuiltOnce: nothing is built before the first Get, and concurrent
// Gets build once and see the same value.
func TestBuiltOnce(t *testing.T) {
	if built != 0 {
		t.Fatalf("built %d times before the first Get", built)
	}
	var wg sync.WaitGroup
	got := make([]map[string]int, 8)
	for i := range got {
		wg.Go(func() { got[i] = table.Get() })
	}
	wg.Wait()
	if built != 1 {
		t.Errorf("built %d times, want once", built)
	}
	for _, m := range got {
		if m["a"] != 1 {
			t.Fatalf("Get = %v", m)
		}
		m["b"] = 2 // the same map for every caller
	}
	if table.Get()["b"] != 2 {
		t.Error("a later Get returned another value")
	}
}
