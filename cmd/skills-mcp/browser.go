package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// browserCommand is the command line that opens url in the person's
// browser: $BROWSER when set (its first entry, split at spaces; %s is
// replaced by the URL, else the URL is appended), else open on macOS, the
// URL handler on Windows, and xdg-open where a graphical display is set.
// It is nil where no browser can be opened: over ssh without a display, in
// CI, in a container.
func browserCommand(url string) []string {
	if b := os.Getenv("BROWSER"); b != "" {
		first, _, _ := strings.Cut(b, string(os.PathListSeparator))
		argv := strings.Fields(first)
		if len(argv) == 0 {
			return nil
		}
		replaced := false
		for i, a := range argv {
			if strings.Contains(a, "%s") {
				argv[i] = strings.ReplaceAll(a, "%s", url)
				replaced = true
			}
		}
		if !replaced {
			argv = append(argv, url)
		}
		return argv
	}
	switch runtime.GOOS {
	case "darwin":
		return []string{"open", url}
	case "windows":
		return []string{"rundll32", "url.dll,FileProtocolHandler", url}
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil
	}
	return []string{"xdg-open", url}
}

// signInPrompt returns the OAuthOptions.Open of pull --oauth: it prints the
// authorization URL on stderr and, unless noBrowser, starts a browser on it
// without waiting for it (its output is discarded).
func signInPrompt(server string, noBrowser bool, wait time.Duration) func(ctx context.Context, url string) error {
	return func(ctx context.Context, url string) error {
		fmt.Fprintf(stderr, "skills-mcp: %s asks you to sign in: open this URL in a browser (waiting up to %v):\n\n    %s\n\n", server, wait, url)
		argv := browserCommand(url)
		if noBrowser || argv == nil {
			return nil
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		if err := cmd.Start(); err != nil {
			stderrNote("warning: could not open a browser (%v); open the URL yourself", err)
			return nil
		}
		stderrNote("opened it with %s; waiting for the sign-in", argv[0])
		go cmd.Wait()
		return nil
	}
}
