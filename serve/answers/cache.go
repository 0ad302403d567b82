package answers

// The cache of pre-encoded answers (answers.go) of the current snapshot,
// under its byte budget.

import "sync"

// DefaultBytes is the byte budget of the pre-encoded answers when New is
// given 0.
const DefaultBytes = 32 << 20

// entryOverhead is what one kept answer costs besides its key and bytes
// (the map's entry and the slice header), counted against the budget.
const entryOverhead = 64

// answers are the pre-encoded answers of one snapshot: key (fastKey) →
// the answer's bytes after its id.
type cache[S comparable] struct {
	mu     sync.RWMutex
	base   S // the snapshot the answers are of
	m      map[string][]byte
	size   int // bytes counted against budget
	budget int
}

// newCache returns the cache of answers of base under budget
// (DefaultBytes if 0).
func newCache[S comparable](budget int, base S) *cache[S] {
	if budget == 0 {
		budget = DefaultBytes
	}
	return &cache[S]{base: base, m: map[string][]byte{}, budget: budget}
}

// get returns the kept answer of key for snapshot base.
func (a *cache[S]) get(base S, key []byte) ([]byte, bool) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	if a.base != base {
		return nil, false
	}
	v, ok := a.m[string(key)]
	return v, ok
}

// put keeps the answer of key for snapshot base, unless the cache is of
// another snapshot by now (a Swap came in between) or the answer alone
// exceeds the budget; to make room it drops answers at random (the map's
// iteration order).
func (a *cache[S]) put(base S, key, tail []byte) {
	cost := len(key) + len(tail) + entryOverhead
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.base != base || cost > a.budget {
		return
	}
	if _, ok := a.m[string(key)]; ok {
		return
	}
	for k, v := range a.m {
		if a.size+cost <= a.budget {
			break
		}
		a.size -= len(k) + len(v) + entryOverhead
		delete(a.m, k)
	}
	a.m[string(key)] = tail
	a.size += cost
}

// reset drops every answer: the server now serves next.
func (a *cache[S]) reset(next S) {
	a.mu.Lock()
	a.base, a.m, a.size = next, map[string][]byte{}, 0
	a.mu.Unlock()
}

// stats returns the number of answers kept and the bytes they count.
func (a *cache[S]) stats() (n, size int) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return len(a.m), a.size
}
