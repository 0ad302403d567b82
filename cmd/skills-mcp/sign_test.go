package main

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

// TestStockToolsInCI makes the stock-tool checks in export.txtar mandatory
// under CI, where the script would otherwise skip: CI installs Debian's
// openssh-client, minisign and coreutils.
func TestStockToolsInCI(t *testing.T) {
	if os.Getenv("CI") == "" {
		t.Skip("CI is not set: export.txtar skips when a tool is missing")
	}
	for _, tool := range []string{"ssh-keygen", "minisign", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Errorf("%s is required under CI (Debian packages openssh-client, minisign, coreutils): %v", tool, err)
		}
	}
}

// TestSplitCommand: everything after pull's --command is the server's
// command line, flags included.
func TestSplitCommand(t *testing.T) {
	for _, c := range []struct {
		in, args, argv []string
	}{
		{[]string{"pull", "--all", "--command", "srv", "--lib", "a=b", "--all"}, []string{"pull", "--all", "--command"}, []string{"srv", "--lib", "a=b", "--all"}},
		{[]string{"pull", "x", "--url", "u"}, []string{"pull", "x", "--url", "u"}, nil},
		{[]string{"serve", "--command", "x"}, []string{"serve", "--command", "x"}, nil},
		{[]string{"pull", "--", "--command", "x"}, []string{"pull", "--", "--command", "x"}, nil},
	} {
		args, argv := splitCommand(c.in)
		if !slices.Equal(args, c.args) || !slices.Equal(argv, c.argv) {
			t.Errorf("splitCommand(%q) = %q, %q; want %q, %q", c.in, args, argv, c.args, c.argv)
		}
	}
}
