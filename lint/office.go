package lint

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
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

// zipKind tells an office document from a plain zip archive: OOXML has a
// [Content_Types].xml part, OpenDocument a mimetype one.
func zipKind(data []byte) (kind, string) {
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && err != zip.ErrInsecurePath {
		return kindArchive, "zip"
	}
	for _, f := range r.File {
		switch f.Name {
		case "[Content_Types].xml":
			return kindOffice, "Office Open XML"
		case "mimetype":
			return kindOffice, "OpenDocument"
		}
	}
	return kindArchive, "zip"
}

// externalRel matches a relationship to an outside target, with its type
// and target in either order.
var (
	relTag      = rx(`(?is)<Relationship\b[^>]*>`)
	relExternal = rx(`(?i)\bTargetMode\s*=\s*["']External["']`)
	relType     = rx(`(?i)\bType\s*=\s*["'][^"']*/([A-Za-z]+)["']`)
	relTarget   = rx(`(?i)\bTarget\s*=\s*["']([^"']*)["']`)
)

// officeDoc finds what makes an office document run or fetch something:
// VBA macros (vbaProject.bin, an OpenDocument Basic library), a macro-enabled
// name (.docm, .xlsm), a relationship to an outside target other than a
// hyperlink (a remote template, an OLE object, a frame), and an OLE2
// compound file, which the analyser cannot open. A document it cannot read
// within its budget is reported as such.
func officeDoc(file string, data []byte) (string, string) {
	k, name := sniff(data)
	if k != kindOffice {
		return "", ""
	}
	if name == "OLE2 compound file" {
		return SeverityWarning, "an OLE2 compound file (legacy Office, MSI): it may hold macros the analyser cannot read"
	}
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && err != zip.ErrInsecurePath {
		return SeverityWarning, "an office document the analyser cannot open: " + err.Error()
	}
	parts := 0
	for _, f := range r.File {
		lower := strings.ToLower(f.Name)
		switch {
		case strings.HasSuffix(lower, "vbaproject.bin"), strings.HasPrefix(lower, "basic/") && strings.HasSuffix(lower, ".xml") && !strings.HasSuffix(lower, "script-lc.xml"),
			strings.HasPrefix(lower, "scripts/"):
			return SeverityWarning, "macros: " + printable(f.Name)
		case strings.HasSuffix(lower, ".rels"):
			parts++
			if parts > officeMaxParts {
				return SeverityWarning, fmt.Sprintf("more than %d relationship parts: the analyser did not read them all", officeMaxParts)
			}
			rc, err := f.Open()
			if err != nil {
				return SeverityWarning, "a relationship part the analyser cannot read: " + printable(f.Name)
			}
			body, err := io.ReadAll(io.LimitReader(rc, officePartMax+1))
			rc.Close()
			if err != nil || len(body) > officePartMax {
				return SeverityWarning, "a relationship part the analyser cannot read within its budget: " + printable(f.Name)
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
				return SeverityWarning, "an external " + printable(typ) + " relationship to " + printable(target)
			}
		}
	}
	if ext := strings.ToLower(file); strings.HasSuffix(ext, "m") && (strings.HasSuffix(ext, ".docm") || strings.HasSuffix(ext, ".xlsm") ||
		strings.HasSuffix(ext, ".pptm") || strings.HasSuffix(ext, ".dotm") || strings.HasSuffix(ext, ".xltm")) {
		return SeverityWarning, "a macro-enabled office document"
	}
	return "", ""
}

// printable keeps what an excerpt may show of a name from a file.
func printable(s string) string {
	if len(s) > 80 {
		s = s[:80]
	}
	return strings.Map(visible, s)
}
