package serve

// Skill use: which skills are read, by whom and how, for the operator's
// metrics and usage log. Nothing about what a skill is used for: only that
// one was read, and through which method.

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve/usage"
	"github.com/skills-mcp/skills-mcp/serve/wire"
)

// ObserveUsage makes the observers learn of every skill use from now on;
// none stops it.
func (s *Server) ObserveUsage(o ...usage.Observer) {
	if len(o) == 0 {
		s.usage.obs.Store(nil)
		return
	}
	s.usage.obs.Store(&o)
}

const maxSkillsOfURIs = 1 << 16

// usageMiddleware reports the skills/get and resources/read calls that the
// SDK answered (usedFast those answered with pre-encoded answers; the tools
// and prompts report their own uses, as they know the skill). It costs one
// load when nobody observes.
func (s *Server) usageMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || s.usage.obs.Load() == nil {
			return res, err
		}
		switch p := req.GetParams().(type) {
		case *mcp.ReadResourceParams:
			snap := s.snapshotFor(ctx)
			if skill, ok := s.skillOfFile(snap, p.URI); ok {
				s.used(req, snap, skill, usage.Read, method)
			}
		case *GetSkillParams:
			s.used(req, s.snapshotFor(ctx), skillPath(p.URI), usage.Get, method)
		}
		return res, err
	}
}

// skillOfFile returns the path of the skill that serves the file uri.
func (s *Server) skillOfFile(snap *Snapshot, uri string) (string, bool) {
	if snap.base != nil {
		snap = snap.base // the read passed the view; the skill is the base's
	}
	c := s.usage.skills.Load()
	if c == nil || c.base != snap {
		c = &skillsOfURIs{base: snap}
		s.usage.skills.Store(c)
	}
	if v, ok := c.m.Load(uri); ok {
		return v.(string), true
	}
	k, ok := snap.SkillFor(uri)
	if !ok {
		return "", false
	}
	skill := skillPath(snap.URI(k))
	if c.n.Add(1) <= maxSkillsOfURIs {
		c.m.Store(strings.Clone(uri), skill)
	}
	return skill, true
}

// skillPath is the path of the skill whose SKILL.md has the URI skillURI.
func skillPath(skillURI string) string {
	return strings.TrimSuffix(strings.TrimPrefix(skillURI, manifest.URIScheme), "/"+manifest.SkillFile)
}

// used tells the observers that the skill (its path) was used, in a call
// the SDK answered.
func (s *Server) used(req mcp.Request, snap *Snapshot, skill, kind, method string) {
	if s.usage.obs.Load() == nil {
		return
	}
	var caller, protocol string
	if ex := req.GetExtra(); ex != nil && ex.TokenInfo != nil {
		caller = ex.TokenInfo.UserID
	}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		if p := ss.InitializeParams(); p != nil {
			protocol = p.ProtocolVersion
		}
	}
	s.report(snap, skill, kind, method, caller, protocol)
}

// usedFast reports the use of a call answered with a pre-encoded answer
// (answers.go), which only a call that succeeded has: resources/read and
// skills/get; base is the snapshot the answer is of.
func (s *Server) usedFast(ctx context.Context, base *Snapshot, q *wire.Request, protocol string) {
	if s.usage.obs.Load() == nil {
		return
	}
	var skill, kind string
	switch q.Method {
	case "resources/read":
		var ok bool
		if skill, ok = s.skillOfFile(base, string(q.URI)); !ok {
			return
		}
		kind = usage.Read
	case MethodGetSkill:
		skill, kind = skillPath(string(q.URI)), usage.Get
	default:
		return
	}
	var caller string
	if ti := auth.TokenInfoFromContext(ctx); ti != nil {
		caller = ti.UserID
	}
	s.report(base, skill, kind, q.Method, caller, protocol)
}

// report tells the observers of one use.
func (s *Server) report(snap *Snapshot, skill, kind, method, caller, protocol string) {
	obs := s.usage.obs.Load()
	if obs == nil {
		return
	}
	u := usage.Use{Skill: skill, Kind: kind, Method: method, Caller: caller, Catalog: snap.ID(), Protocol: protocol}
	if snap.base != nil {
		u.Catalog = snap.base.ID() // a view: the catalog it is a view of
	}
	for _, o := range *obs {
		o.SkillUsed(&u)
	}
}
