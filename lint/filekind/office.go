package filekind

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file reads office documents, which are zip containers (OOXML:
// .docx, .xlsx, .pptx; OpenDocument) or OLE2 compound files (.doc, .xls):
// macros and relationships to outside documents make one run or fetch
// something when it is opened. The zip reader is the standard library's,
// which reads the central directory record by record; what is inflated is
// bounded (officeBudget).

// officeBudget bounds the reading of one document: how many relationship
// parts are inflated and how many bytes of each.
const (
	officeMaxParts = 64
	officePartMax  = 1 << 20
)

// externalRel matches a relationship to an outside target, with its type
// and target in either order.
var (
	relTag      = &lazyre.RE{Expr: `(?is)<Relationship\b[^>]*>`}
	relExternal = &lazyre.RE{Expr: `(?i)\bTargetMode\s*=\s*["']External["']`}
	relType     = &lazyre.RE{Expr: `(?i)\bType\s*=\s*["'][^"']*/([A-Za-z]+)["']`}
	relTarget   = &lazyre.RE{Expr: `(?i)\bTarget\s*=\s*["']([^"']*)["']`}
)

// OfficeActive says what makes an office document run or fetch something,
// "" for nothing: VBA macros (vbaProject.bin, an OpenDocument Basic
// library), a macro-enabled name (.docm, .xlsm), a relationship to an
// outside target other than a hyperlink (a remote template, an OLE object,
// a frame), and an OLE2 compound file, which the analyser cannot open. A
// document it cannot read within its budget is reported as such. Names
// from the document are cut to 80 bytes; the caller shows its invisible
// characters as it shows them in any excerpt.
func OfficeActive(file string, data []byte) string {
	k, name := Sniff(data)
	if k != Office {
		return ""
	}
	if name == "OLE2 compound file" {
		return "an OLE2 compound file (legacy Office, MSI): it may hold macros the analyser cannot read"
	}
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && err != zip.ErrInsecurePath {
		return "an office document the analyser cannot open: " + err.Error()
	}
	parts := 0
	for _, f := range r.File {
		lower := strings.ToLower(f.Name)
		switch {
		case strings.HasSuffix(lower, "vbaproject.bin"), strings.HasPrefix(lower, "basic/") && strings.HasSuffix(lower, ".xml") && !strings.HasSuffix(lower, "script-lc.xml"),
			strings.HasPrefix(lower, "scripts/"):
			return "macros: " + short(f.Name)
		case strings.HasSuffix(lower, ".rels"):
			parts++
			if parts > officeMaxParts {
				return fmt.Sprintf("more than %d relationship parts: the analyser did not read them all", officeMaxParts)
			}
			rc, err := f.Open()
			if err != nil {
				return "a relationship part the analyser cannot read: " + short(f.Name)
			}
			body, err := io.ReadAll(io.LimitReader(rc, officePartMax+1))
			rc.Close()
			if err != nil || len(body) > officePartMax {
				return "a relationship part the analyser cannot read within its budget: " + short(f.Name)
			}
			for _, tag := range relTag.Regexp().FindAll(body, -1) {
				if !relExternal.Regexp().Match(tag) {
					continue
				}
				typ := ""
				if m := relType.Regexp().FindSubmatch(tag); m != nil {
					typ = string(m[1])
				}
				if strings.EqualFold(typ, "hyperlink") {
					continue
				}
				target := ""
				if m := relTarget.Regexp().FindSubmatch(tag); m != nil {
					target = string(m[1])
				}
				return "an external " + short(typ) + " relationship to " + short(target)
			}
		}
	}
	if ext := strings.ToLower(file); strings.HasSuffix(ext, "m") && (strings.HasSuffix(ext, ".docm") || strings.HasSuffix(ext, ".xlsm") ||
		strings.HasSuffix(ext, ".pptm") || strings.HasSuffix(ext, ".dotm") || strings.HasSuffix(ext, ".xltm")) {
		return "a macro-enabled office document"
	}
	return ""
}

// short keeps what an excerpt may show of a name from a file.
func short(s string) string {
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}
