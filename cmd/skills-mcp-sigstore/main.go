// Command skills-mcp-sigstore checks keyless Sigstore bundles for
// skills-mcp, which runs it when --trusted-root is given: a
// cosign.KeylessRequest (JSON) on its standard input, a
// cosign.KeylessResponse on its standard output. It is a program of its
// own so that sigstore-go and its dependencies stay out of skills-mcp's
// start; install it beside skills-mcp (go install
// github.com/skills-mcp/skills-mcp/cmd/...@latest installs both).
package main

import (
	"fmt"
	"os"

	"github.com/skills-mcp/skills-mcp/cosign/keyless"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: skills-mcp-sigstore < request.json (skills-mcp runs it to check keyless Sigstore bundles)")
		os.Exit(2)
	}
	if err := keyless.Serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "skills-mcp-sigstore:", err)
		os.Exit(1)
	}
}
