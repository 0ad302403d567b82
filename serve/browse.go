package serve

// The browsing tools: <prefix>_search_skills, <prefix>_list_skills,
// <prefix>_list_libraries and <prefix>_list_categories, with their
// filters, results and cursors.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// filter holds the library and category filters of search and list.
type filter struct {
	library  string // namespace; only used when byLib
	byLib    bool
	category string // "" for any
}

func (f filter) keep(doc *skillDoc) bool {
	return (!f.byLib || f.library == doc.library) && (f.category == "" || strings.EqualFold(f.category, doc.category))
}

// newFilter checks the filters against the catalog.
func (d *discovery) newFilter(c *catalog, library, category string) (filter, error) {
	lib, err := d.checkLibrary(c, strings.TrimSpace(library))
	if err != nil {
		return filter{}, err
	}
	f := filter{library: lib, byLib: strings.TrimSpace(library) != "", category: strings.TrimSpace(category)}
	if f.category == "" {
		return f, nil
	}
	docs, err := c.skills()
	if err != nil {
		return filter{}, err
	}
	cats := map[string]bool{}
	for i := range docs {
		if docs[i].listed && (!f.byLib || docs[i].library == f.library) {
			if strings.EqualFold(docs[i].category, f.category) {
				return f, nil
			}
			cats[docs[i].category] = true
		}
	}
	list := slices.Sorted(maps.Keys(cats))
	if len(list) > 30 {
		list = append(list[:30], "…")
	}
	return filter{}, toolError("unknown category %q; categories: %s (see %s_list_categories)", category, strings.Join(list, ", "), d.prefix)
}

// SkillSummary describes a skill in search and list results.
type SkillSummary struct {
	Name        string         `json:"name" jsonschema:"the skill's name"`
	Path        string         `json:"path" jsonschema:"the skill path (namespace, folders, name): pass it as the skill argument of the other tools"`
	URI         string         `json:"uri" jsonschema:"the skill:// URI of the skill's SKILL.md"`
	Library     string         `json:"library" jsonschema:"the library namespace; empty for an un-namespaced library"`
	Category    string         `json:"category"`
	Description string         `json:"description"`
	Files       int            `json:"files" jsonschema:"number of files, SKILL.md included"`
	Hidden      bool           `json:"hidden,omitempty" jsonschema:"disable-model-invocation: use only when the user asks for it"`
	Trust       map[string]any `json:"trust,omitempty" jsonschema:"provenance from the frontmatter (origin, license, risk, allowed-tools, …)"`
	RiskFlags   []string       `json:"riskFlags,omitempty" jsonschema:"lint rules that matched the skill's files; get_skill shows file:line"`
	// Capabilities are what the analysis saw the skill do.
	Capabilities []string `json:"capabilities,omitempty" jsonschema:"what the analysis saw the skill do (network, exec-remote, reads-secrets, writes-persistence, agent-config, destructive, dynamic-code, opaque-files)"`
}

func (doc *skillDoc) summary() SkillSummary {
	return SkillSummary{Name: doc.name, Path: doc.path, URI: doc.uri, Library: doc.library, Category: doc.category,
		Description: doc.description, Files: doc.files, Hidden: doc.hidden, Trust: doc.trust, RiskFlags: doc.rules, Capabilities: doc.caps}
}

// SearchInput are the arguments of search_skills.
type SearchInput struct {
	Query    string `json:"query" jsonschema:"what the skill should do, in a few words"`
	Library  string `json:"library,omitempty" jsonschema:"only skills of this library namespace"`
	Category string `json:"category,omitempty" jsonschema:"only skills of this category (see list_categories)"`
	Limit    int    `json:"limit,omitempty" jsonschema:"most results to return, 1 to 50; 10 if absent"`
}

// SearchHit is one search result.
type SearchHit struct {
	SkillSummary
	Score float64 `json:"score" jsonschema:"relevance; higher is better; comparable within one search only"`
}

// SearchOutput is the result of search_skills.
type SearchOutput struct {
	Query   string      `json:"query"`
	Results []SearchHit `json:"results"`
	Hint    string      `json:"hint,omitempty"`
}

func (d *discovery) searchSkills(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
	var out SearchOutput
	q := strings.TrimSpace(in.Query)
	if q == "" {
		return nil, out, toolError("query is empty: describe the task in a few words, or browse with %s_list_skills", d.prefix)
	}
	if len(q) > 1000 {
		return nil, out, toolError("query is %d bytes; keep it under 1000", len(q))
	}
	limit, err := checkLimit(in.Limit, searchDefaultLimit, searchMaxLimit)
	if err != nil {
		return nil, out, err
	}
	c := d.current(ctx)
	f, err := d.newFilter(c, in.Library, in.Category)
	if err != nil {
		return nil, out, err
	}
	ix, idocs, err := c.searchable()
	if err != nil {
		return nil, out, err
	}
	hits := ix.Search(q, limit, func(doc int) bool { return f.keep(&c.docs[idocs[doc]]) })
	out = SearchOutput{Query: q, Results: make([]SearchHit, 0, len(hits))}
	var text strings.Builder
	for i, h := range hits {
		doc := &c.docs[idocs[h.Doc]]
		out.Results = append(out.Results, SearchHit{SkillSummary: doc.summary(), Score: roundScore(h.Score)})
		fmt.Fprintf(&text, "%d. %s  [%s]  score %.2f%s\n   %s\n", i+1, doc.path, doc.category, h.Score, flagNote(doc), oneLine(doc.description, 300))
	}
	if len(hits) == 0 {
		out.Hint = fmt.Sprintf("No skill matches. Try other or fewer words, drop the filters, or browse with %s_list_categories and %s_list_skills.", d.prefix, d.prefix)
		text.WriteString(out.Hint)
	} else {
		fmt.Fprintf(&text, "\nNext: %s_get_skill(skill=\"<path>\") with the chosen path.", d.prefix)
	}
	return textResult(text.String()), out, nil
}

func roundScore(s float64) float64 { return float64(int64(s*1e4+0.5)) / 1e4 }

// flagNote marks a listed skill with risk flags, capabilities or hidden.
func flagNote(doc *skillDoc) string {
	var s string
	if len(doc.rules) > 0 {
		s += "  ⚠ " + strings.Join(doc.rules, ", ")
	}
	if len(doc.caps) > 0 {
		s += "  (capabilities: " + strings.Join(doc.caps, ", ") + ")"
	}
	if doc.hidden {
		s += "  (explicit use only)"
	}
	return s
}

// oneLine returns s on one line, cut to at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func checkLimit(v, def, max int) (int, error) {
	switch {
	case v == 0:
		return def, nil
	case v < 0 || v > max:
		return 0, toolError("limit %d is out of range: give 1 to %d", v, max)
	}
	return v, nil
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// ListSkillsInput are the arguments of list_skills.
type ListSkillsInput struct {
	Library  string `json:"library,omitempty" jsonschema:"only skills of this library namespace"`
	Category string `json:"category,omitempty" jsonschema:"only skills of this category"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"nextCursor of the previous page"`
	Limit    int    `json:"limit,omitempty" jsonschema:"skills per page, 1 to 200; 50 if absent"`
}

// ListSkillsOutput is a page of list_skills.
type ListSkillsOutput struct {
	Total      int            `json:"total" jsonschema:"skills that pass the filters, on every page"`
	Skills     []SkillSummary `json:"skills"`
	NextCursor string         `json:"nextCursor,omitempty" jsonschema:"pass it as cursor for the next page; absent on the last page"`
}

func (d *discovery) listSkills(ctx context.Context, _ *mcp.CallToolRequest, in ListSkillsInput) (*mcp.CallToolResult, ListSkillsOutput, error) {
	var out ListSkillsOutput
	limit, err := checkLimit(in.Limit, listDefaultLimit, listMaxLimit)
	if err != nil {
		return nil, out, err
	}
	c := d.current(ctx)
	f, err := d.newFilter(c, in.Library, in.Category)
	if err != nil {
		return nil, out, err
	}
	docs, err := c.skills()
	if err != nil {
		return nil, out, err
	}
	var match []int
	for k := range docs {
		if docs[k].listed && f.keep(&docs[k]) {
			match = append(match, k)
		}
	}
	key := fnvKey(f.library + "\x00" + strings.ToLower(f.category))
	start, err := decodeListCursor(in.Cursor, c.snap, key, len(match))
	if err != nil {
		return nil, out, err
	}
	out = ListSkillsOutput{Total: len(match), Skills: []SkillSummary{}}
	end := min(start+limit, len(match))
	var text strings.Builder
	for _, k := range match[start:end] {
		out.Skills = append(out.Skills, docs[k].summary())
		fmt.Fprintf(&text, "- %s  [%s]%s  %s\n", docs[k].path, docs[k].category, flagNote(&docs[k]), oneLine(docs[k].description, 200))
	}
	if end < len(match) {
		out.NextCursor = encodeListCursor(c.snap, key, end)
		fmt.Fprintf(&text, "… %d more; pass cursor %q.\n", len(match)-end, out.NextCursor)
	}
	if len(match) == 0 {
		text.WriteString("No skills.\n")
	}
	return textResult(text.String()), out, nil
}

func fnvKey(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// A list_skills cursor is base64url of the first 8 bytes of the snapshot
// id, the filters' hash and the index to resume at: opaque, stable for a
// catalog, and refused for another catalog or other filters.
func encodeListCursor(snap *Snapshot, key uint32, i int) string {
	var b [16]byte
	id := snap.ID()
	copy(b[:8], id[:8])
	binary.BigEndian.PutUint32(b[8:], key)
	binary.BigEndian.PutUint32(b[12:], uint32(i))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func decodeListCursor(cur string, snap *Snapshot, key uint32, n int) (int, error) {
	if cur == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cur)
	id := snap.ID()
	switch {
	case err != nil || len(b) != 16:
		return 0, toolError("invalid cursor %q: pass nextCursor from the previous page, or no cursor to start over", cur)
	case !bytes.Equal(b[:8], id[:8]):
		return 0, toolError("cursor %q belongs to another catalog (the served skills changed); list again without a cursor", cur)
	case binary.BigEndian.Uint32(b[8:]) != key:
		return 0, toolError("cursor %q was issued for other filters; pass the same library and category, or no cursor", cur)
	}
	i := int(binary.BigEndian.Uint32(b[12:]))
	if i > n {
		return 0, toolError("invalid cursor %q: pass nextCursor from the previous page", cur)
	}
	return i, nil
}

// ListLibrariesOutput is the result of list_libraries.
type ListLibrariesOutput struct {
	Libraries []LibraryInfo `json:"libraries"`
}

func (d *discovery) listLibraries(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, ListLibrariesOutput, error) {
	libs, err := d.current(ctx).libraries()
	if err != nil {
		return nil, ListLibrariesOutput{}, err
	}
	out := ListLibrariesOutput{Libraries: libs}
	if out.Libraries == nil {
		out.Libraries = []LibraryInfo{}
	}
	var text strings.Builder
	for _, l := range libs {
		fmt.Fprintf(&text, "- %s: %d skills (%d hidden)", libraryName(l.Namespace), l.Skills, l.Hidden)
		if desc := libraryDesc(l); desc != "" {
			fmt.Fprintf(&text, "  %s", desc)
		}
		if l.NoScripts {
			text.WriteString("  [scripts withheld]")
		}
		text.WriteString("\n")
	}
	if len(libs) == 0 {
		text.WriteString("No libraries.\n")
	}
	return textResult(text.String()), out, nil
}

func libraryName(ns string) string {
	if ns == "" {
		return "(root)"
	}
	return ns
}

// libraryDesc joins a library's public description: title, source,
// version, the archive digest and metadata.
func libraryDesc(l LibraryInfo) string {
	var parts []string
	if l.Title != "" {
		parts = append(parts, l.Title)
	}
	if l.Source != "" {
		parts = append(parts, "from "+l.Source)
	}
	if l.Version != "" {
		parts = append(parts, "version "+l.Version)
	}
	if l.Digest != "" {
		parts = append(parts, l.Kind+" "+strings.TrimPrefix(l.Digest, "sha256:")[:12])
	}
	for _, k := range slices.Sorted(maps.Keys(l.Metadata)) {
		parts = append(parts, k+"="+l.Metadata[k])
	}
	return strings.Join(parts, ", ")
}

// ListCategoriesInput are the arguments of list_categories.
type ListCategoriesInput struct {
	Library string `json:"library,omitempty" jsonschema:"only skills of this library namespace"`
}

// CategoryCount is a category with its number of skills.
type CategoryCount struct {
	Category string `json:"category"`
	Skills   int    `json:"skills"`
}

// ListCategoriesOutput is the result of list_categories.
type ListCategoriesOutput struct {
	Categories  []CategoryCount `json:"categories" jsonschema:"by number of skills, most first"`
	TotalSkills int             `json:"totalSkills"`
}

func (d *discovery) listCategories(ctx context.Context, _ *mcp.CallToolRequest, in ListCategoriesInput) (*mcp.CallToolResult, ListCategoriesOutput, error) {
	out := ListCategoriesOutput{Categories: []CategoryCount{}}
	c := d.current(ctx)
	f, err := d.newFilter(c, in.Library, "")
	if err != nil {
		return nil, out, err
	}
	docs, err := c.skills()
	if err != nil {
		return nil, out, err
	}
	counts := map[string]int{}
	for i := range docs {
		if docs[i].listed && f.keep(&docs[i]) {
			counts[docs[i].category]++
			out.TotalSkills++
		}
	}
	for cat, n := range counts {
		out.Categories = append(out.Categories, CategoryCount{cat, n})
	}
	slices.SortFunc(out.Categories, func(a, b CategoryCount) int {
		if a.Skills != b.Skills {
			return b.Skills - a.Skills
		}
		return strings.Compare(a.Category, b.Category)
	})
	var text strings.Builder
	for _, cc := range out.Categories {
		fmt.Fprintf(&text, "- %s: %d\n", cc.Category, cc.Skills)
	}
	fmt.Fprintf(&text, "%d skills. Browse one with %s_list_skills(category=…), or search within it with %s_search_skills(query, category=…).\n",
		out.TotalSkills, d.prefix, d.prefix)
	return textResult(text.String()), out, nil
}
