package serve

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// FuzzRead feeds arbitrary URIs to resources/read and
// resources/directory/read: neither may panic, a read may only succeed for
// a file the manifest lists (with its bytes), and a directory only for a
// folder that holds a listed file.
func FuzzRead(f *testing.F) {
	b, _ := memBundle(f, exampleFixture())
	m, err := b.Manifest()
	if err != nil {
		f.Fatal(err)
	}
	files := map[string]manifest.Digest{}
	for _, sk := range m.Skills {
		for _, r := range sk.Entry.Resources {
			files[r.URI] = r.Digest
			f.Add(r.URI)
		}
	}
	for _, u := range traversals {
		f.Add(u)
	}
	f.Add("skill://acme")
	f.Add("skill://acme/pdf-processing/templates/purchase%20order.md")
	f.Add("skill://acme/pdf-processing/templates/purchase order.md")
	s := newServer(f, Options{}, b)
	f.Fuzz(func(t *testing.T, uri string) {
		c, err := s.read(context.Background(), uri)
		if err == nil {
			want, listed := files[uri]
			data := c.data()
			if !listed || c.URI != uri || manifest.Sum(data) != want {
				t.Fatalf("read %q succeeded; it is not a listed file or its bytes differ", uri)
			}
		} else {
			wantCode(t, err)
		}
		res, err := s.readDirectory(context.Background(), nil, &ReadDirectoryParams{URI: uri})
		if err != nil {
			wantCode(t, err)
			return
		}
		held := false
		for f := range files {
			held = held || strings.HasPrefix(f, uri+"/")
		}
		if !held || len(res.Resources) == 0 {
			t.Fatalf("directory read %q succeeded; no listed file is below it", uri)
		}
	})
}

// wantCode fails unless err is a -32602 refusal.
func wantCode(t *testing.T, err error) {
	t.Helper()
	wantRPCError(t, err, -32602)
}

// FuzzCursor feeds arbitrary cursors to every paginated method: a cursor is
// refused with -32602 or resumes within bounds, never panics.
func FuzzCursor(f *testing.F) {
	b, _ := memBundle(f, exampleFixture())
	s := newServer(f, Options{PageSize: 1}, b)
	snap := s.Snapshot()
	f.Add(encodeCursor(cursorSkills, snap, 1, 0))
	f.Add(encodeCursor(cursorResources, snap, 2, 0))
	f.Add(encodeCursor(cursorDirectory, snap, 1, dirKey("skill://acme/pdf-processing")))
	f.Add("")
	f.Add("AAAA")
	f.Add("c2tpbGxz")
	f.Fuzz(func(t *testing.T, cursor string) {
		if _, err := s.listSkills(context.Background(), nil, &ListSkillsParams{Cursor: cursor}); err != nil {
			wantCode(t, err)
		}
		req := &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{Cursor: cursor}}
		if _, err := s.listResources(context.Background(), req); err != nil {
			wantCode(t, err)
		}
		if _, err := s.readDirectory(context.Background(), nil, &ReadDirectoryParams{URI: "skill://acme/pdf-processing", Cursor: cursor}); err != nil {
			wantCode(t, err)
		}
	})
}
