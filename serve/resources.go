package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// The two resource templates a server registers: they describe the URI space
// to clients; reads never go through template matching (see resourceMiddleware).
var (
	skillTemplate = &mcp.ResourceTemplate{
		Name:        "skill",
		Title:       "Skill instructions",
		Description: "The SKILL.md of a skill, by skill path",
		MIMEType:    manifest.SkillFileMIME,
		URITemplate: "skill://{+skillPath}/SKILL.md",
	}
	fileTemplate = &mcp.ResourceTemplate{
		Name:        "skill-file",
		Title:       "Skill file",
		Description: "Any file of a skill (references/, scripts/, assets/, …), by skill path and file path",
		URITemplate: "skill://{+skillPath}/{+path}",
	}
)

// checkURI refuses, before any lookup, a URI that is not a plain skill://
// path: another scheme, an empty, "." or ".." segment (also percent-encoded),
// a NUL or other control character, a backslash, or an encoded slash. Such a
// URI can never name a file of a bundle, and refusing it early means a
// traversal attempt reads nothing at all.
func checkURI(method, uri string) error {
	rest, ok := strings.CutPrefix(uri, manifest.URIScheme)
	if !ok {
		return notFound(uri, "%s: %q is not a skill:// URI", method, uri)
	}
	for _, c := range []byte(uri) {
		if c < 0x20 || c == 0x7f {
			return notFound(uri, "%s: %q holds a control character", method, uri)
		}
		if c == '\\' {
			return notFound(uri, "%s: %q holds a backslash", method, uri)
		}
	}
	for seg := range strings.SplitSeq(rest, "/") {
		dec := seg
		if strings.Contains(seg, "%") {
			if d, err := url.PathUnescape(seg); err == nil {
				dec = d
			}
		}
		switch {
		case seg == "":
			return notFound(uri, "%s: %q has an empty path segment (absolute paths and trailing slashes are not allowed)", method, uri)
		case dec == "." || dec == "..":
			return notFound(uri, "%s: %q has a %q path segment", method, uri, seg)
		case strings.ContainsAny(dec, "/\\\x00"):
			return notFound(uri, "%s: %q has an encoded slash, backslash or NUL", method, uri)
		}
	}
	return nil
}

// resourceMiddleware answers resources/list and resources/read from the
// snapshot. The SDK would otherwise need one registered resource per file
// (slow to start for large bundles) or match every read against templates
// (a regexp compiled per template per read).
func (s *Server) resourceMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListResourcesRequest:
			return s.listResources(ctx, r)
		case *mcp.ReadResourceRequest:
			if r.Params == nil {
				return nil, invalidParams("resources/read: params.uri is required")
			}
			c, err := s.read(ctx, r.Params.URI)
			if err != nil {
				return nil, err
			}
			res := &readResult{Contents: []*resourceContents{c}, Cacheable: s.cacheableFor(ctx)}
			if newProtocol(r.Session) {
				res.ResultType = resultComplete
			}
			return res, nil
		}
		return next(ctx, method, req)
	}
}

func (s *Server) listResources(ctx context.Context, req *mcp.ListResourcesRequest) (*mcp.ListResourcesResult, error) {
	snap := s.snapshotFor(ctx)
	var cur string
	if req.Params != nil {
		cur = req.Params.Cursor
	}
	start, err := decodeCursor(cur, cursorResources, snap, 0, snap.Len())
	if err != nil {
		return nil, err
	}
	res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}, Cacheable: s.cacheableFor(ctx)}
	for k := start; k < snap.Len(); k++ {
		if !snap.Listed(k) {
			continue
		}
		if len(res.Resources) == s.pageSize {
			res.NextCursor = encodeCursor(cursorResources, snap, k, 0)
			break
		}
		sk, err := snap.Skill(k)
		if err != nil {
			return nil, internalError("resources/list: %v", err)
		}
		res.Resources = append(res.Resources, skillResource(sk))
	}
	return res, nil
}

// skillResource describes a skill's SKILL.md for resources/list: name and
// trimmed description from the frontmatter, size, and under _meta (prefix
// io.modelcontextprotocol.skills/) every other frontmatter field verbatim,
// the library namespace, provenance, the lint rules that matched
// ("risk-flags", always present), the capabilities the analysis saw
// ("capabilities", always present) and the number of scripts withheld.
func skillResource(sk *manifest.Skill) *mcp.Resource {
	var fm map[string]json.RawMessage
	_ = json.Unmarshal(sk.Entry.Frontmatter, &fm) // the bundle reader checked it is an object
	var name, desc string
	_ = json.Unmarshal(fm["name"], &name)
	_ = json.Unmarshal(fm["description"], &desc)
	meta := mcp.Meta{}
	for k, v := range fm {
		if k != "name" && k != "description" {
			meta[manifest.MetaPrefix+k] = v
		}
	}
	if sk.Library != "" {
		meta[manifest.MetaPrefix+"library"] = sk.Library
	}
	if len(sk.Provenance) > 0 {
		meta[manifest.MetaPrefix+"provenance"] = sk.Provenance
	}
	rules := []string{}
	for _, f := range sk.Findings {
		if !slices.Contains(rules, f.Rule) {
			rules = append(rules, f.Rule)
		}
	}
	meta[manifest.MetaPrefix+"risk-flags"] = rules
	caps := sk.Capabilities
	if caps == nil {
		caps = []string{}
	}
	meta[manifest.MetaPrefix+"capabilities"] = caps
	if sk.ScriptsWithheld > 0 {
		meta[manifest.MetaPrefix+"scripts-withheld"] = sk.ScriptsWithheld
	}
	if name == "" {
		name = sk.Name()
	}
	return &mcp.Resource{
		URI:         sk.Entry.URI,
		Name:        name,
		Description: strings.TrimSpace(desc),
		MIMEType:    manifest.SkillFileMIME,
		Size:        sk.Entry.Resources[0].Size,
		Meta:        meta,
	}
}

// readResult is the result of resources/read as resourceMiddleware sends it:
// the wire form of mcp.ReadResourceResult, whose resultType field the SDK
// keeps unexported (and sets only in its own read path).
type readResult struct {
	mcp.ResultBase
	ResultType string `json:"resultType,omitempty"`
	mcp.Cacheable
	Contents []*resourceContents `json:"contents"`
}

// resourceContents is one file of a resources/read result on the wire. The
// schema requires text or blob on every item, and mcp.ResourceContents drops
// an empty text (omitempty), which strict clients reject: so a text file
// always carries text, "" for an empty one, and a binary file always carries
// blob (base64, "" for an empty one).
type resourceContents struct {
	URI      string  `json:"uri"`
	MIMEType string  `json:"mimeType"`
	Text     *string `json:"text,omitempty"`
	Blob     []byte  `json:"blob,omitzero"` // never nil for a binary file, so never omitted
}

// data returns the file's bytes.
func (c *resourceContents) data() []byte {
	if c.Text != nil {
		return []byte(*c.Text)
	}
	return c.Blob
}

// sdk returns c as the SDK's type, for the SDK's own read path. That type
// cannot carry an empty text, so an empty text file goes as an empty blob,
// which the schema allows.
func (c *resourceContents) sdk() *mcp.ResourceContents {
	r := &mcp.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Blob: c.Blob}
	if c.Text != nil {
		r.Text = *c.Text
		if r.Text == "" {
			r.Blob = []byte{}
		}
	}
	return r
}

// newProtocol reports whether a session speaks 2026-07-28 or later, where
// results carry resultType.
func newProtocol(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= "2026-07-28"
}

// read serves one file of the manifest, hidden skills included: text when the
// manifest marks it as text, else a blob (base64 on the wire), with its mime
// type. An empty file is an empty text or blob, never neither.
func (s *Server) read(ctx context.Context, uri string) (*resourceContents, error) {
	if err := checkURI("resources/read", uri); err != nil {
		return nil, err
	}
	snap := s.snapshotFor(ctx)
	b, f, err := snap.resource(uri)
	if errors.Is(err, errNoFile) {
		if ferr := snap.Fault(); ferr != nil {
			return nil, internalError("resources/read %s: %v", uri, ferr)
		}
		if _, ok := snap.directory(uri); ok {
			return nil, notFound(uri, "resources/read: %s is a directory; list it with %s", uri, MethodReadDirectory)
		}
		return nil, notFound(uri, "resources/read: no resource is served at %s", uri)
	}
	if err != nil {
		return nil, internalError("resources/read %s: %v", uri, err)
	}
	data, err := b.ReadBlob(f.digest)
	if err != nil {
		return nil, internalError("resources/read %s: %v", uri, err)
	}
	c := &resourceContents{URI: uri, MIMEType: f.mime}
	if c.MIMEType == "" {
		c.MIMEType = "application/octet-stream"
	}
	if f.text {
		t := string(data)
		c.Text = &t
	} else {
		c.Blob = data
		if c.Blob == nil {
			c.Blob = []byte{}
		}
	}
	return c, nil
}

func (s *Server) readDirectory(ctx context.Context, _ *mcp.ServerSession, p *ReadDirectoryParams) (*ReadDirectoryResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("%s: params.uri is required", MethodReadDirectory)
	}
	if err := checkURI(MethodReadDirectory, p.URI); err != nil {
		return nil, err
	}
	snap := s.snapshotFor(ctx)
	kids, ok := snap.directory(p.URI)
	if !ok {
		return nil, notFound(p.URI, "%s: %s is not a directory resource", MethodReadDirectory, p.URI)
	}
	if kids == nil {
		return nil, internalError("%s %s: unreadable skill record", MethodReadDirectory, p.URI)
	}
	key := dirKey(p.URI)
	start, err := decodeCursor(p.Cursor, cursorDirectory, snap, key, len(kids))
	if err != nil {
		return nil, err
	}
	res := &ReadDirectoryResult{ResultType: resultComplete, Resources: kids[start:]}
	if len(res.Resources) > s.pageSize {
		res.Resources = res.Resources[:s.pageSize]
		res.NextCursor = encodeCursor(cursorDirectory, snap, start+s.pageSize, key)
	}
	return res, nil
}

// directory lists the direct children of a directory URI, sorted by name,
// and reports whether uri is a directory at all. Directories are a skill's
// root and its sub-folders, and the folders above skill roots that hold a
// listed skill. It returns nil, true if a skill record cannot be read.
func (snap *Snapshot) directory(uri string) ([]*mcp.Resource, bool) {
	prefix := uri + "/"
	if k, ok := snap.SkillFor(uri); ok {
		sk, err := snap.Skill(k)
		if err != nil {
			return nil, true
		}
		var kids []*mcp.Resource
		for j, r := range sk.Entry.Resources {
			rest, ok := strings.CutPrefix(r.URI, prefix)
			if !ok {
				continue
			}
			if name, _, isDir := strings.Cut(rest, "/"); isDir {
				kids = append(kids, dirResource(prefix, name))
				continue
			}
			f := sk.Files[j]
			kids = append(kids, &mcp.Resource{URI: r.URI, Name: f.Path[strings.LastIndexByte(f.Path, '/')+1:],
				MIMEType: f.MimeType, Size: r.Size})
		}
		if len(kids) == 0 {
			return nil, false
		}
		return sortByURI(kids), true
	}
	// A folder above skill roots: its children are folders on the way to the
	// listed skills below it.
	var kids []*mcp.Resource
	for k := snap.Search(prefix); k < snap.Len(); k++ {
		u := snap.URI(k)
		if !strings.HasPrefix(u, prefix) {
			break
		}
		if !snap.Listed(k) {
			continue
		}
		name, _, _ := strings.Cut(u[len(prefix):], "/")
		if len(kids) == 0 || kids[len(kids)-1].URI != prefix+name {
			kids = append(kids, dirResource(prefix, name))
		}
	}
	kids = sortByURI(kids)
	return kids, len(kids) > 0
}

// dirResource describes a folder: name is its last URI segment, which may
// be percent-encoded; the resource's name is the decoded one.
func dirResource(prefix, name string) *mcp.Resource {
	r := &mcp.Resource{URI: prefix + name, Name: name, MIMEType: manifest.DirectoryMIME}
	if n, err := url.PathUnescape(name); err == nil {
		r.Name = n
	}
	return r
}

// sortByURI sorts children by URI and drops repeated folders (a folder
// appears once per file below it).
func sortByURI(kids []*mcp.Resource) []*mcp.Resource {
	slices.SortStableFunc(kids, func(a, b *mcp.Resource) int { return strings.Compare(a.URI, b.URI) })
	return slices.CompactFunc(kids, func(a, b *mcp.Resource) bool { return a.URI == b.URI })
}

// subscribe accepts a subscription to any file the catalog serves; the URI
// is remembered so that Swap can report its change.
func (s *Server) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if err := checkURI("resources/subscribe", uri); err != nil {
		return err
	}
	if _, _, err := s.snapshotFor(ctx).resource(uri); err != nil {
		return notFound(uri, "resources/subscribe: no resource is served at %s", uri)
	}
	s.subsMu.Lock()
	s.subs[uri] = struct{}{}
	s.subsMu.Unlock()
	return nil
}

// readTemplate is the handler of the registered templates. Reads are
// answered by resourceMiddleware before the SDK matches templates, so this
// only runs if that middleware is bypassed; it answers the same way.
func (s *Server) readTemplate(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	c, err := s.read(ctx, req.Params.URI)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c.sdk()}, Cacheable: s.cacheableFor(ctx)}, nil
}
