package teamserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/skills-mcp/skills-mcp/serve/wire"
)

// checkMessages answers a POST whose body is one JSON-RPC message that
// breaks serve's message rules (wire.CheckMessage: an id that is not a
// string or an exact integer, a message with no method, result or error)
// with 400 and the JSON-RPC error, as stdio does, rather than let the SDK
// answer it under another id or drop it. A batch is left to the SDK, which
// refuses it (400) under the revisions served. The body is read whole, at
// most limit bytes (a negative limit: none), and given to next as read.
func checkMessages(limit int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body := r.Body
		if limit > 0 {
			body = http.MaxBytesReader(w, r.Body, limit)
		}
		data, err := io.ReadAll(body)
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(data))
		if msg := bytes.TrimSpace(data); len(msg) > 0 && msg[0] == '{' {
			if id, jerr := wire.CheckMessage(msg); jerr != nil {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				json.NewEncoder(w).Encode(struct {
					JSONRPC string `json:"jsonrpc"`
					ID      any    `json:"id"`
					Error   any    `json:"error"`
				}{"2.0", id, jerr})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
