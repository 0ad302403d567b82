package manifest

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestRelease: a field is the value every library that sets it agrees on.
func TestRelease(t *testing.T) {
	for _, tc := range []struct {
		libs []Library
		want ReleaseInfo
	}{
		{nil, ReleaseInfo{}},
		{[]Library{{Version: "1.0", Source: "https://x.example/r", Metadata: map[string]string{"revision": "abc"}}, {}},
			ReleaseInfo{"1.0", "https://x.example/r", "abc"}},
		{[]Library{{Version: "1.0", Source: "s"}, {Version: "1.0", Source: "t"}}, ReleaseInfo{Version: "1.0"}},
		{[]Library{{Version: "1.0"}, {Version: "2.0", Metadata: map[string]string{"revision": "r"}}}, ReleaseInfo{Revision: "r"}},
	} {
		if got := Release(tc.libs); got != tc.want {
			t.Errorf("Release(%+v) = %+v, want %+v", tc.libs, got, tc.want)
		}
	}
}

// FuzzHead: on any bytes that open as a bundle, Head and CompareSkill never
// panic, and when the whole manifest parses, Head is its head and every
// skill record equals itself.
func FuzzHead(f *testing.F) {
	f.Add(synthetic(f, 3))
	f.Add(synthetic(f, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		head, herr := b.Head()
		for i := range b.NumSkills() {
			if order, same := b.CompareSkill(i, b, i); order != 0 || !same {
				t.Fatalf("skill %d differs from itself: %d %v", i, order, same)
			}
		}
		m, err := b.Manifest()
		if err != nil {
			return
		}
		if herr != nil {
			t.Fatalf("the manifest parses, its head does not: %v", herr)
		}
		m.Skills = nil
		want, _ := json.Marshal(m)
		got, _ := json.Marshal(head)
		if !bytes.Equal(got, want) {
			t.Fatalf("head %s, manifest %s", got, want)
		}
	})
}
