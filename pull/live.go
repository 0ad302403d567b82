package pull

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// LegacyProtocol is the protocol revision most clients and servers speak
// today, before the stateless 2026-07-28 revision the Go SDK tries first.
const LegacyProtocol = "2025-11-25"

// maxPages bounds a skills/list walk, so a server that keeps returning
// cursors cannot keep pull busy forever.
const maxPages = 10000

// ConnectOptions configure Connect.
type ConnectOptions struct {
	// Name is what to call the server in messages (a URL or a command).
	Name string
	// ProtocolVersion forces a protocol revision, such as LegacyProtocol.
	// Empty lets the SDK negotiate: it tries 2026-07-28, then falls back.
	ProtocolVersion string
	// Version is the client version announced to the server.
	Version string
}

type listParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

type listResult struct {
	mcp.ResultBase
	Skills     []json.RawMessage `json:"skills"`
	NextCursor string            `json:"nextCursor,omitempty"`
}

type getParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

type getResult struct {
	mcp.ResultBase
	Skill json.RawMessage `json:"skill"`
}

// Connect opens an MCP session over t (mcp.CommandTransport for stdio,
// mcp.StreamableClientTransport for HTTP, or any other transport) and walks
// skills/list to the end. It refuses a server that does not declare the
// io.modelcontextprotocol/skills extension before calling any skills/
// method: over HTTP a Go server answers an unknown method in a way that ends
// the session. Entries that are invalid or "dynamic" are skipped with a
// warning. The digests a server lists are unsigned (SEP-2640): they prove
// that the bytes arrived as listed, not who wrote them.
func Connect(ctx context.Context, t mcp.Transport, opt ConnectOptions) (*Source, error) {
	version := opt.Version
	if version == "" {
		version = "dev"
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "skills-mcp-pull", Version: version}, nil)
	for _, err := range []error{
		mcp.AddSendingCustomMethod[*listParams, *listResult](client, "skills/list"),
		mcp.AddSendingCustomMethod[*getParams, *getResult](client, "skills/get"),
	} {
		if err != nil {
			return nil, fmt.Errorf("server %s: %w", opt.Name, err)
		}
	}
	cs, err := client.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: opt.ProtocolVersion})
	if err != nil {
		return nil, fmt.Errorf("server %s: connect: %w", opt.Name, err)
	}
	src := &Source{Name: opt.Name, Kind: "server", back: &liveBackend{cs: cs, name: opt.Name}}
	if err := src.list(ctx, cs); err != nil {
		cs.Close()
		return nil, err
	}
	return src, nil
}

func (s *Source) list(ctx context.Context, cs *mcp.ClientSession) error {
	init := cs.InitializeResult()
	if init == nil || init.Capabilities == nil || init.Capabilities.Extensions[manifest.ExtensionName] == nil {
		return fmt.Errorf("server %s does not declare the %s extension: it serves no skills/list (SEP-2640)", s.Name, manifest.ExtensionName)
	}
	seenCursor := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page == maxPages {
			return fmt.Errorf("server %s: skills/list: more than %d pages", s.Name, maxPages)
		}
		res, err := mcp.CallCustomMethod[*listParams, *listResult](ctx, cs, "skills/list", &listParams{Cursor: cursor})
		if err != nil {
			return fmt.Errorf("server %s: skills/list: %w", s.Name, err)
		}
		for _, raw := range res.Skills {
			sk, err := parseEntry(raw)
			if err != nil {
				var e struct{ URI string }
				json.Unmarshal(raw, &e)
				s.refuse(e.URI, err)
				continue
			}
			s.Skills = append(s.Skills, sk)
		}
		if res.NextCursor == "" {
			break
		}
		if seenCursor[res.NextCursor] {
			return fmt.Errorf("server %s: skills/list: cursor %q came back twice", s.Name, short(res.NextCursor))
		}
		seenCursor[res.NextCursor] = true
		cursor = res.NextCursor
	}
	slices.SortFunc(s.Skills, func(a, b *Skill) int { return strings.Compare(a.URI, b.URI) })
	for i := 1; i < len(s.Skills); i++ {
		if s.Skills[i].URI == s.Skills[i-1].URI {
			return fmt.Errorf("server %s: skills/list lists %s twice", s.Name, s.Skills[i].URI)
		}
	}
	return nil
}

type liveBackend struct {
	cs   *mcp.ClientSession
	name string
}

func (lb *liveBackend) open(ctx context.Context, f *File) (io.ReadCloser, error) {
	res, err := lb.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: f.URI})
	if err != nil {
		return nil, fmt.Errorf("resources/read %s: %w", f.URI, err)
	}
	if len(res.Contents) == 0 || res.Contents[0] == nil {
		return nil, fmt.Errorf("resources/read %s: no contents", f.URI)
	}
	c := res.Contents[0]
	if c.URI != f.URI {
		return nil, fmt.Errorf("resources/read %s: answered for %q", f.URI, short(c.URI))
	}
	if c.Blob != nil {
		return io.NopCloser(bytes.NewReader(c.Blob)), nil
	}
	return io.NopCloser(strings.NewReader(c.Text)), nil
}

func (lb *liveBackend) get(ctx context.Context, uri string) (*Skill, error) {
	res, err := mcp.CallCustomMethod[*getParams, *getResult](ctx, lb.cs, "skills/get", &getParams{URI: uri})
	if err != nil {
		var je *jsonrpc.Error
		if errors.As(err, &je) && je.Code == jsonrpc.CodeInvalidParams {
			return nil, fmt.Errorf("server %s: skills/get %s: %w: %s", lb.name, uri, ErrNotFound, je.Message)
		}
		return nil, fmt.Errorf("server %s: skills/get %s: %w", lb.name, uri, err)
	}
	sk, err := parseEntry(res.Skill)
	if err != nil {
		return nil, err
	}
	if sk.URI != uri {
		return nil, fmt.Errorf("server %s: skills/get %s: answered with %s", lb.name, uri, sk.URI)
	}
	return sk, nil
}

func (lb *liveBackend) close() error { return lb.cs.Close() }

// short makes an untrusted string safe to quote in a message.
func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
