package serve

// The cache of pre-encoded answers (answers.go) of the current snapshot,
// under its byte budget: what a Server holds, depending on nothing above
// the Snapshot.

import "sync"

// DefaultAnswerBytes is the byte budget of the pre-encoded answers when
// Options.AnswerBytes is 0.
const DefaultAnswerBytes = 32 << 20

// entryOverhead is what one kept answer costs besides its key and bytes
// (the map's entry and the slice header), counted against the budget.
const entryOverhead = 64

// answers are the pre-encoded answers of one snapshot: key (fastKey) →
// the answer's bytes after its id.
type answerCache struct {
	mu     sync.RWMutex
	base   *Snapshot // the snapshot the answers are of
	m      map[string][]byte
	size   int // bytes counted against budget
	budget int
}

// newAnswers returns the cache of answers of base, nil if budget is
// negative (no cache).
func newAnswers(budget int, base *Snapshot) *answerCache {
	if budget < 0 {
		return nil
	}
	if budget == 0 {
		budget = DefaultAnswerBytes
	}
	return &answerCache{base: base, m: map[string][]byte{}, budget: budget}
}

// get returns the kept answer of key for snapshot base.
func (a *answerCache) get(base *Snapshot, key []byte) ([]byte, bool) {
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
func (a *answerCache) put(base *Snapshot, key, tail []byte) {
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
func (a *answerCache) reset(next *Snapshot) {
	a.mu.Lock()
	a.base, a.m, a.size = next, map[string][]byte{}, 0
	a.mu.Unlock()
}

// stats returns the number of answers kept and the bytes they count.
func (a *answerCache) stats() (n, size int) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return len(a.m), a.size
}
