package search

// The memo of word analyses that indexing keeps per chunk of documents.

// termMemo maps words (byte strings of at least one byte) to an int32: an
// open-addressed hash table (FNV-1a, linear probing, at most half full)
// whose keys are kept in one byte slice. Indexing looks up every word of
// every document in it, and a lookup here hashes the word once and
// compares it once, with no allocation.
type termMemo struct {
	slots []memoSlot
	keys  []byte
	used  int
}

// memoSlot is one entry of a termMemo; n is 0 in an empty slot.
type memoSlot struct {
	hash uint32
	val  int32
	off  uint32 // the key is keys[off:off+n]
	n    uint32
}

// lookup returns the value of w and true, or false when w is not in the
// memo.
func (m *termMemo) lookup(w []byte) (int32, bool) {
	if len(m.slots) == 0 {
		return 0, false
	}
	h := fnv32(w)
	s := &m.slots[m.find(w, h)]
	return s.val, s.n != 0
}

// store sets the value of w, which lookup has just not found.
func (m *termMemo) store(w []byte, val int32) {
	if 2*(m.used+1) > len(m.slots) {
		m.grow()
	}
	h := fnv32(w)
	s := &m.slots[m.find(w, h)]
	*s = memoSlot{hash: h, val: val, off: uint32(len(m.keys)), n: uint32(len(w))}
	m.keys = append(m.keys, w...)
	m.used++
}

// find returns the slot of w, or the empty slot where it would go.
func (m *termMemo) find(w []byte, h uint32) int {
	mask := len(m.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.n == 0 || s.hash == h && int(s.n) == len(w) && string(m.keys[s.off:s.off+s.n]) == string(w) {
			return i
		}
	}
}

// grow doubles the table (starting at 1,024 slots) and rehashes it.
func (m *termMemo) grow() {
	old := m.slots
	m.slots = make([]memoSlot, max(1024, 2*len(old)))
	mask := len(m.slots) - 1
	for _, s := range old {
		if s.n == 0 {
			continue
		}
		i := int(s.hash) & mask
		for m.slots[i].n != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = s
	}
}

// fnv32 is the 32-bit FNV-1a hash of w.
func fnv32(w []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range w {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}
