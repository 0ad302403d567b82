package main

import (
	"runtime"
	"slices"
	"testing"
)

// TestBrowserCommand: $BROWSER is a command line, its first entry of a
// list; %s stands for the URL, else the URL is appended. Without it and
// without a display, no browser is started.
func TestBrowserCommand(t *testing.T) {
	const u = "http://127.0.0.1:1/authorize?state=x"
	for _, tc := range []struct {
		browser string
		want    []string
	}{
		{"curl -sfL", []string{"curl", "-sfL", u}},
		{"firefox --new-tab %s:lynx", []string{"firefox", "--new-tab", u}},
	} {
		t.Setenv("BROWSER", tc.browser)
		if got := browserCommand(u); !slices.Equal(got, tc.want) {
			t.Errorf("BROWSER=%q: %q, want %q", tc.browser, got, tc.want)
		}
	}
	if runtime.GOOS == "linux" {
		t.Setenv("BROWSER", "")
		t.Setenv("DISPLAY", "")
		t.Setenv("WAYLAND_DISPLAY", "")
		if got := browserCommand(u); got != nil {
			t.Errorf("no display: %q, want none", got)
		}
		t.Setenv("DISPLAY", ":0")
		if got := browserCommand(u); !slices.Equal(got, []string{"xdg-open", u}) {
			t.Errorf("display: %q", got)
		}
	}
}
