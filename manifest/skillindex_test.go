package manifest

import (
	"bytes"
	"slices"
	"testing"
)

// TestEntriesContaining: EntriesContaining finds the entries that hold a
// string, whichever of its bytes the scan looks for first: every substring
// of every entry of the test bundle up to 9 bytes, and strings that lie
// across an entry's end or in the rest of its record, found in no entry.
func TestEntriesContaining(t *testing.T) {
	data, _ := testBundle(t)
	b, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var entries [][]byte
	for i := range b.NumSkills() {
		e, err := b.EntryJSON(i)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	want := func(sub []byte) (idx []int) {
		for i, e := range entries {
			if bytes.Contains(e, sub) {
				idx = append(idx, i)
			}
		}
		return idx
	}
	subs := [][]byte{[]byte(`gory":`), []byte(`"uri":"`), []byte("}]}"), []byte(`}]},"library":`), []byte(`"files":[`), []byte("zzz")}
	for _, e := range entries {
		for n := 1; n <= 9; n++ {
			for s := 0; s+n <= len(e); s++ {
				subs = append(subs, e[s:s+n])
			}
		}
	}
	for _, sub := range subs {
		if got, w := b.EntriesContaining(sub), want(sub); !slices.Equal(got, w) {
			t.Fatalf("EntriesContaining(%q) = %v, want %v", sub, got, w)
		}
	}
}
