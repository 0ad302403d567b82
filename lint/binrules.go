package lint

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/lint/filekind"
)

// This file is the bin matchers of the opacity rules: filekind says what a
// binary file's format hides, and each is a warning, its excerpt shown as
// any other (invisible characters marked).

func opaqueBinary(_ string, data []byte) (string, string) { return binWarning(filekind.Opaque(data)) }

func disguisedBinary(file string, data []byte) (string, string) {
	return binWarning(filekind.Disguised(file, data))
}

func imageTrailer(_ string, data []byte) (string, string) { return binWarning(filekind.Trailer(data)) }

func officeDoc(file string, data []byte) (string, string) {
	return binWarning(filekind.OfficeActive(file, data))
}

// binWarning grades what a filekind check found: a warning, or nothing for "".
func binWarning(excerpt string) (string, string) {
	if excerpt == "" {
		return "", ""
	}
	return SeverityWarning, strings.Map(visible, excerpt)
}
