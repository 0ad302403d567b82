package build

import (
	"path"
	"strings"
)

// extMIME gives the media type of a file name extension (lower case), or
// "" for one it does not know.
func extMIME(ext string) string {
	switch ext {
	case ".md", ".markdown":
		return "text/markdown"
	case ".txt", ".ps1":
		return "text/plain"
	case ".csv":
		return "text/csv"
	case ".json":
		return "application/json"
	case ".yaml", ".yml":
		return "application/yaml"
	case ".toml":
		return "application/toml"
	case ".xml", ".xsd":
		return "application/xml"
	case ".html", ".htm":
		return "text/html"
	case ".css":
		return "text/css"
	case ".py":
		return "text/x-python"
	case ".js", ".mjs", ".cjs":
		return "text/javascript"
	case ".ts":
		return "text/typescript"
	case ".sh", ".bash", ".zsh":
		return "text/x-shellscript"
	case ".sql":
		return "application/sql"
	case ".rb":
		return "text/x-ruby"
	case ".pl":
		return "text/x-perl"
	case ".php":
		return "text/x-php"
	case ".go":
		return "text/x-go"
	case ".rs":
		return "text/x-rust"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".svg":
		return "image/svg+xml"
	case ".webp":
		return "image/webp"
	case ".pdf":
		return "application/pdf"
	case ".ttf":
		return "font/ttf"
	case ".otf":
		return "font/otf"
	case ".woff":
		return "font/woff"
	case ".woff2":
		return "font/woff2"
	case ".docx":
		return "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	case ".xlsx":
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	case ".pptx":
		return "application/vnd.openxmlformats-officedocument.presentationml.presentation"
	}
	return ""
}

// mimeType gives a file's media type from its extension; an unknown
// extension is text/plain for text and application/octet-stream otherwise.
func mimeType(name string, text bool) string {
	if name == "SKILL.md" {
		return "text/markdown"
	}
	if t := extMIME(strings.ToLower(path.Ext(name))); t != "" {
		return t
	}
	if text {
		return "text/plain"
	}
	return "application/octet-stream"
}

// isDocument reports zip-based document formats. They are containers too, but
// a skill's templates legitimately include them, and a host sees them as
// opaque blobs, so their zip magic is not held against them.
func isDocument(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".docx", ".xlsx", ".pptx", ".odt", ".ods", ".odp":
		return true
	}
	return false
}

// isArchive reports whether a file is an archive, by its extension or by the
// magic bytes at its start, so that a renamed archive is caught too.
func isArchive(name string, data []byte) bool {
	if IsArchiveName(name) {
		return true
	}
	return !isDocument(name) && SniffArchive(data) != ""
}
