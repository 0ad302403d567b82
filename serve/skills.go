package serve

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve/wire"
)

// SEP-2640 method names.
const (
	MethodListSkills    = wire.MethodListSkills
	MethodGetSkill      = wire.MethodGetSkill
	MethodReadDirectory = wire.MethodReadDirectory
)

// resultComplete is the only resultType these methods return.
const resultComplete = "complete"

// ListSkillsParams are the parameters of skills/list.
type ListSkillsParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

// ListSkillsResult is the result of skills/list. Skills holds each entry's
// bytes exactly as the bundle stores them: the server never parses or
// re-encodes an entry.
type ListSkillsResult struct {
	mcp.ResultBase
	ResultType string            `json:"resultType"`
	Skills     []json.RawMessage `json:"skills"`
	NextCursor string            `json:"nextCursor,omitempty"`
	mcp.Cacheable
}

// GetSkillParams are the parameters of skills/get.
type GetSkillParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

// GetSkillResult is the result of skills/get: one entry, as stored.
type GetSkillResult struct {
	mcp.ResultBase
	ResultType string          `json:"resultType"`
	Skill      json.RawMessage `json:"skill"`
	mcp.Cacheable
}

// ReadDirectoryParams are the parameters of resources/directory/read.
type ReadDirectoryParams struct {
	mcp.ParamsBase
	URI    string `json:"uri"`
	Cursor string `json:"cursor,omitempty"`
}

// ReadDirectoryResult is the result of resources/directory/read: the
// directory's direct children, folders with mimeType inode/directory.
type ReadDirectoryResult struct {
	mcp.ResultBase
	ResultType string          `json:"resultType"`
	Resources  []*mcp.Resource `json:"resources"`
	NextCursor string          `json:"nextCursor,omitempty"`
}

func (s *Server) listSkills(ctx context.Context, _ *mcp.ServerSession, p *ListSkillsParams) (*ListSkillsResult, error) {
	snap := s.snapshotFor(ctx)
	var cur string
	if p != nil {
		cur = p.Cursor
	}
	start, err := decodeCursor(cur, cursorSkills, snap, 0, snap.Len())
	if err != nil {
		return nil, err
	}
	res := &ListSkillsResult{ResultType: resultComplete, Skills: []json.RawMessage{}, Cacheable: s.cacheableFor(ctx)}
	size := 0
	for k := start; k < snap.Len(); k++ {
		if !snap.Listed(k) {
			continue
		}
		e, err := snap.EntryJSON(k)
		if err != nil {
			return nil, internalError("skills/list: %v", err)
		}
		if len(res.Skills) == s.pageSize || len(res.Skills) > 0 && size+len(e) > maxPageBytes {
			res.NextCursor = encodeCursor(cursorSkills, snap, k, 0)
			break
		}
		res.Skills = append(res.Skills, e)
		size += len(e)
	}
	return res, nil
}

func (s *Server) getSkill(ctx context.Context, _ *mcp.ServerSession, p *GetSkillParams) (*GetSkillResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("skills/get: params.uri is required")
	}
	snap := s.snapshotFor(ctx)
	if !strings.HasSuffix(p.URI, "/"+manifest.SkillFile) {
		return nil, notFound(p.URI, "no skill is served at %s: a skill URI ends in /%s", p.URI, manifest.SkillFile)
	}
	k, ok := snap.Find(p.URI)
	if err := snap.Fault(); err != nil {
		return nil, internalError("skills/get %s: %v", p.URI, err)
	}
	if !ok {
		return nil, notFound(p.URI, "no skill is served at %s", p.URI)
	}
	e, err := snap.EntryJSON(k)
	if err != nil {
		return nil, internalError("skills/get %s: %v", p.URI, err)
	}
	return &GetSkillResult{ResultType: resultComplete, Skill: e, Cacheable: s.cacheableFor(ctx)}, nil
}
