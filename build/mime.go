package build

import (
	"path"
	"strings"
)

var mimeTypes = map[string]string{
	".md": "text/markdown", ".markdown": "text/markdown", ".txt": "text/plain", ".csv": "text/csv",
	".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml",
	".toml": "application/toml", ".xml": "application/xml", ".xsd": "application/xml", ".html": "text/html",
	".htm": "text/html", ".css": "text/css", ".py": "text/x-python", ".js": "text/javascript",
	".mjs": "text/javascript", ".cjs": "text/javascript", ".ts": "text/typescript", ".sh": "text/x-shellscript",
	".bash": "text/x-shellscript", ".zsh": "text/x-shellscript", ".ps1": "text/plain", ".sql": "application/sql",
	".rb": "text/x-ruby", ".pl": "text/x-perl", ".php": "text/x-php", ".go": "text/x-go", ".rs": "text/x-rust",
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".svg": "image/svg+xml",
	".webp": "image/webp", ".pdf": "application/pdf", ".ttf": "font/ttf", ".otf": "font/otf", ".woff": "font/woff",
	".woff2": "font/woff2",
	".docx":  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx":  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx":  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}

// mimeType gives a file's media type from its extension; an unknown
// extension is text/plain for text and application/octet-stream otherwise.
func mimeType(name string, text bool) string {
	if name == "SKILL.md" {
		return "text/markdown"
	}
	if t, ok := mimeTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	if text {
		return "text/plain"
	}
	return "application/octet-stream"
}

// documentExts are zip-based document formats. They are containers too, but
// a skill's templates legitimately include them, and a host sees them as
// opaque blobs, so their zip magic is not held against them.
var documentExts = map[string]bool{".docx": true, ".xlsx": true, ".pptx": true, ".odt": true, ".ods": true, ".odp": true}

// isArchive reports whether a file is an archive, by its extension or by the
// magic bytes at its start, so that a renamed archive is caught too.
func isArchive(name string, data []byte) bool {
	if IsArchiveName(name) {
		return true
	}
	return !documentExts[strings.ToLower(path.Ext(name))] && SniffArchive(data) != ""
}
