package manifest

import "testing"

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
