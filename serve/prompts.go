package serve

// Per-skill prompts: one MCP prompt per skill, which hosts show as a slash
// command (Claude Code: /mcp__<server>__<prompt>), so that a person types
// the skill's name and the skill is loaded.
//
// Decisions:
//   - They are served while the skills a caller may see number at most the
//     prompt limit (Options.PromptLimit); above it there are none, and
//     catalog_status says why: a slash menu of thousands of entries helps
//     no one, and use-skill still reaches every skill.
//   - prompts/list and prompts/get for them are answered by the discovery
//     middleware from the catalog, built on the first prompts/list: nothing
//     is registered with the SDK per skill, so start-up does not grow with
//     the catalog, and a caller restricted to some namespaces (access.go)
//     gets the prompts of its view of the catalog. prompts/list is one page
//     holding every prompt: hosts fetch the list once for their menus, and
//     the limit bounds it.
//   - The list a catalog sends is made once, in name order, of promptWire
//     records that encode as mcp.Prompt does but without a map per prompt;
//     a request only merges in the SDK's own prompts. It is not kept as
//     encoded bytes: the SDK re-validates every json.RawMessage and
//     json.Marshaler result byte by byte, which costs more than encoding
//     these flat records.
//   - Hidden skills (disable-model-invocation) get prompts too, marked as
//     for explicit use: a slash command is exactly an explicit use.
//   - A prompt name is derived from the skill path by promptNames (the rule
//     is in its doc comment and in the README); names are made over the
//     caller's view of the catalog, so that a name is a function of what the
//     caller may read: a hash suffix never tells of a colliding skill in a
//     namespace the caller may not see.

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/serve/usage"
)

// promptSetOf returns the prompt names of the catalog's skills, made on
// first use from the catalog's skill paths alone: for a view (access.go)
// those of the view, so that no name tells of a skill the caller may not
// read.
func (d *discovery) promptSetOf(c *catalog) *promptSet {
	c.promptOnce.Do(func() {
		paths, _ := c.skillPaths()
		names := promptNames(paths, []string{PromptUseSkill})
		ps := &promptSet{names: names, byName: make(map[string]int, len(names))}
		for k, n := range names {
			ps.byName[n] = k
		}
		c.promptSet = ps
	})
	return c.promptSet
}

// skillPrompts returns every skill's prompt, by snapshot number, made on
// first use from the frontmatter in the skills' entries.
func (d *discovery) skillPrompts(c *catalog) ([]skillPrompt, error) {
	c.promptsOnce.Do(func() {
		ps := d.promptSetOf(c)
		out := make([]skillPrompt, c.snap.Len())
		for k := range out {
			fm, err := c.frontmatter(k)
			if err != nil {
				b, _ := c.snap.Bundle(k)
				c.promptsErr = fmt.Errorf("bundle %s: entry of %s: %w", b.ID(), c.snap.URI(k), err)
				return
			}
			out[k] = skillPrompt{k: k, prompt: newSkillPrompt(ps.names[k], c.snap.URI(k), c.snap.Hidden(k), fm)}
		}
		c.promptList = out
	})
	return c.promptList, c.promptsErr
}

// libraryOf returns the library namespace of skill k (see skillPaths).
func (c *catalog) libraryOf(k int) string { _, libs := c.skillPaths(); return libs[k] }

// skillPaths returns, by snapshot number, each skill's path as its URI
// writes it (percent-encoding kept) and its library namespace: the path's
// first segment when that names one of its bundle's libraries, else "" (an
// un-namespaced library). Both are made once per catalog, from the URIs.
func (c *catalog) skillPaths() (paths, libs []string) {
	c.pathsOnce.Do(func() {
		heads, _ := c.headers()
		ns := map[*manifest.Bundle]map[string]bool{}
		for i, b := range c.snap.Bundles() {
			set := map[string]bool{}
			if i < len(heads) {
				for _, l := range heads[i].Libraries {
					set[l.Namespace] = l.Namespace != ""
				}
			}
			ns[b] = set
		}
		// Each path is cut from its URI in place, in the slice URIs made.
		c.paths = c.snap.URIs()
		c.libs = make([]string, len(c.paths))
		for k, uri := range c.paths {
			p := strings.TrimSuffix(strings.TrimPrefix(uri, manifest.URIScheme), "/"+manifest.SkillFile)
			c.paths[k] = p
			b, _ := c.snap.Bundle(k)
			if first, _, _ := strings.Cut(p, "/"); ns[b][first] {
				c.libs[k] = first
			}
		}
	})
	return c.paths, c.libs
}

// newSkillPrompt is the prompt of one skill: title and description from its
// frontmatter, one optional task argument, and the skill's URI under _meta.
func newSkillPrompt(name, uri string, hidden bool, fm map[string]any) *mcp.Prompt {
	skillName, _ := fm["name"].(string)
	title, _ := fm["title"].(string)
	if strings.TrimSpace(title) == "" {
		title = skillName
	}
	desc, _ := fm["description"].(string)
	meta := mcp.Meta{manifest.MetaPrefix + "uri": uri}
	var titleMark, descMark string
	if hidden {
		titleMark = " (explicit use only)"
		descMark = "Explicit use only (disable-model-invocation): for when you ask for this skill. "
		meta[manifest.MetaPrefix+"disable-model-invocation"] = true
	}
	// The marks count against the limits and are never cut.
	title = plainText(title, maxPromptTitle-utf8.RuneCountInString(titleMark)) + titleMark
	desc = descMark + plainText(desc, maxPromptDescription-utf8.RuneCountInString(descMark))
	return &mcp.Prompt{Name: name, Title: title, Description: desc, Arguments: promptArgs, Meta: meta}
}

// promptArgs are the arguments of every per-skill prompt, shared: prompts
// are never changed once made.
var promptArgs = []*mcp.PromptArgument{{Name: promptTaskArg, Title: "Task", Description: "What to apply the skill to (optional)"}}

// plainText returns s as one line of printable text, cut to at most n
// characters: control characters, line and paragraph separators and
// bidirectional controls become spaces, and runs of spaces one.
func plainText(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), unicode.In(r, unicode.Zl, unicode.Zp),
			0x202A <= r && r <= 0x202E, 0x2066 <= r && r <= 0x2069, r == 0x200E, r == 0x200F:
			return ' '
		}
		return r
	}, s)
	return oneLine(s, n)
}

// promptsFor returns the skill prompts of a catalog (the caller's view),
// in name order, or none and why. The slice is shared: callers must not
// change it.
func (d *discovery) promptsFor(c *catalog) ([]skillPrompt, PromptStatus, error) {
	l := d.promptListing(c)
	return l.prompts, l.status, l.err
}

// promptListing returns the per-skill prompts of a catalog, made on first
// use.
func (d *discovery) promptListing(c *catalog) *promptListing {
	c.listingOnce.Do(func() {
		l := &promptListing{status: PromptStatus{Limit: d.promptLimit, Skills: c.snap.Len()}}
		c.listing = l
		st := &l.status
		if d.promptLimit < 0 {
			st.Limit = 0
			st.Reason = "per-skill prompts are off (--prompt-limit 0); use the use-skill prompt"
			return
		}
		if st.Skills > d.promptLimit {
			st.Reason = fmt.Sprintf("%d skills, more than the prompt limit of %d (--prompt-limit): no per-skill prompts; "+
				"use the use-skill prompt, or raise the limit", st.Skills, d.promptLimit)
			return
		}
		all, err := d.skillPrompts(c)
		if err != nil {
			l.err = err
			return
		}
		l.prompts = slices.Clone(all)
		slices.SortFunc(l.prompts, func(a, b skillPrompt) int { return strings.Compare(a.prompt.Name, b.prompt.Name) })
		l.wire = make([]*promptWire, len(l.prompts))
		for i, p := range l.prompts {
			l.wire[i] = wireOf(p.prompt)
		}
		st.Enabled, st.Prompts = true, len(l.prompts)
	})
	return c.listing
}

// listPrompts answers prompts/list: the prompts registered with the SDK
// (use-skill) and the per-skill prompts the session may see, in name
// order, in one page.
func (d *discovery) listPrompts(ctx context.Context, method string, r *mcp.ListPromptsRequest, next mcp.MethodHandler) (mcp.Result, error) {
	if r.Params != nil && r.Params.Cursor != "" {
		return nil, invalidParams("prompts/list: invalid cursor %q: the list is one page; list again without a cursor", r.Params.Cursor)
	}
	res, err := next(ctx, method, r)
	if err != nil {
		return res, err
	}
	lr, ok := res.(*mcp.ListPromptsResult)
	if !ok {
		return res, nil
	}
	l := d.promptListing(d.current(ctx))
	if l.err != nil {
		return nil, internalError("prompts/list: %v", l.err)
	}
	if len(l.wire) == 0 {
		return lr, nil
	}
	out := &promptListResult{ResultBase: mcp.ResultBase{Meta: lr.Meta}, Cacheable: lr.Cacheable, NextCursor: lr.NextCursor,
		Prompts: mergePrompts(lr.Prompts, l.wire)}
	if newProtocol(r.Session) {
		out.ResultType = resultComplete
	}
	return out, nil
}

// promptListResult is the result of prompts/list with per-skill prompts:
// the wire form of mcp.ListPromptsResult (whose resultType the SDK keeps
// unexported), its fields in the same order, each prompt an *mcp.Prompt
// (the SDK's) or a *promptWire.
type promptListResult struct {
	ResultType string `json:"resultType,omitempty"`
	mcp.ResultBase
	mcp.Cacheable
	NextCursor string `json:"nextCursor,omitempty"`
	Prompts    []any  `json:"prompts"`
}

// mergePrompts returns the SDK's prompts and the per-skill ones (in name
// order) in name order; of two with one name, the SDK's comes first.
func mergePrompts(sdk []*mcp.Prompt, skills []*promptWire) []any {
	sdk = slices.Clone(sdk)
	slices.SortStableFunc(sdk, func(a, b *mcp.Prompt) int { return strings.Compare(a.Name, b.Name) })
	out := make([]any, 0, len(sdk)+len(skills))
	i := 0
	for _, p := range sdk {
		for ; i < len(skills) && skills[i].Name < p.Name; i++ {
			out = append(out, skills[i])
		}
		out = append(out, p)
	}
	for _, w := range skills[i:] {
		out = append(out, w)
	}
	return out
}

// promptResult is the result of prompts/get for a per-skill prompt: the
// wire form of mcp.GetPromptResult, whose resultType field the SDK keeps
// unexported (and sets only in its own prompts/get path).
type promptResult struct {
	mcp.ResultBase
	ResultType  string               `json:"resultType,omitempty"`
	Description string               `json:"description,omitempty"`
	Messages    []*mcp.PromptMessage `json:"messages"`
}

// getSkillPrompt answers prompts/get for a per-skill prompt; ok is false
// when name is no skill's prompt in the session, so that the SDK answers.
func (d *discovery) getSkillPrompt(ctx context.Context, r *mcp.GetPromptRequest) (res mcp.Result, ok bool, err error) {
	if r.Params == nil {
		return nil, false, nil
	}
	c := d.current(ctx)
	k, found := d.promptSetOf(c).byName[r.Params.Name]
	if !found {
		return nil, false, nil // another prompt, or a skill the caller may not see: the SDK answers
	}
	if _, st, _ := d.promptsFor(c); !st.Enabled {
		return nil, false, nil // no per-skill prompts for this caller: unknown, as the SDK says
	}
	l, err := d.loadNumber(c, k)
	if err != nil {
		return nil, true, internalError("prompts/get %s: %v", r.Params.Name, err)
	}
	d.srv.used(r, c.snap, skillPath(l.doc.uri), usage.Prompt, "prompts/get")
	md := &mcp.ResourceContents{URI: l.sk.Entry.URI, MIMEType: manifest.SkillFileMIME}
	if l.sk.Files[0].Text {
		md.Text = string(l.md)
	} else {
		md.Blob = l.md
	}
	var t strings.Builder
	fmt.Fprintf(&t, "Apply the skill %q (%s) above.\n%s", l.doc.name, l.doc.category, d.skillHead(l))
	if task := strings.TrimSpace(r.Params.Arguments[promptTaskArg]); task != "" {
		t.WriteString("\n\nTask: " + task)
	}
	t.WriteString("\n" + d.skillTail(l, r.Extra))
	pr := &promptResult{
		Description: l.doc.description,
		Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.EmbeddedResource{Resource: md, Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}}}},
			{Role: "user", Content: &mcp.TextContent{Text: t.String()}},
		},
	}
	if newProtocol(r.Session) {
		pr.ResultType = resultComplete
	}
	return pr, true, nil
}

// promptsFingerprint identifies what prompts/list says about the per-skill
// prompts of a catalog (all of them, for a session that sees every skill),
// so that a swap that changes it can be told to clients.
func (d *discovery) promptsFingerprint(c *catalog) uint64 {
	l := d.promptListing(c)
	h := fnv.New64a()
	if l.err != nil {
		fmt.Fprintf(h, "error %v", l.err)
		return h.Sum64()
	}
	fmt.Fprintf(h, "%v %d\n", l.status.Enabled, l.status.Skills)
	b, _ := json.Marshal(l.wire)
	h.Write(b)
	return h.Sum64()
}

// promptsChanged tells clients that the prompt list changed when a swap
// changed the per-skill prompts. Re-adding use-skill is how the SDK is
// asked to send notifications/prompts/list_changed; only a server whose
// prompts can change (promptsChange) does it, as only it declares so.
func (d *discovery) promptsChanged(old, next *Snapshot) {
	if !d.promptsMove {
		return
	}
	if d.promptsFingerprint(d.catalogFor(old)) != d.promptsFingerprint(d.catalogFor(next)) {
		d.addPrompt()
	}
}

// promptsChange reports whether the per-skill prompts of a server with opt
// can change: only on a live server, and only when they are on.
func promptsChange(opt Options) bool { return opt.Refresh != nil && opt.PromptLimit >= 0 }
