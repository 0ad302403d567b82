package serve

// What a catalog keeps of its per-skill prompts (prompts.go), and the rule
// that names them (promptNames): records that depend on nothing else here.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// Limits of the per-skill prompts.
const (
	// DefaultPromptLimit is the most skills a session may see for it to be
	// given one prompt per skill, when Options.PromptLimit is 0. A slash
	// menu of 200 entries is still browsable by typing; the list is then
	// some 60 KiB, sent once per session.
	DefaultPromptLimit = 200
	// MaxPromptName is the longest prompt name: the Agent Skills limit on a
	// skill name, short enough for hosts that put the server's name in
	// front (mcp__<server>__<prompt>) and cap the whole.
	MaxPromptName = 64
	// maxPromptTitle and maxPromptDescription cap a prompt's title and
	// description, in characters: a title is a menu label, and 1,024 is
	// the Agent Skills limit on a description.
	maxPromptTitle       = 100
	maxPromptDescription = 1024
	// promptTaskArg is the argument of every per-skill prompt.
	promptTaskArg = "task"
)

// skillPrompt is one skill's prompt.
type skillPrompt struct {
	k      int // snapshot number
	prompt *mcp.Prompt
}

// promptWire is a per-skill prompt as prompts/list sends it: the fields of
// mcp.Prompt that newSkillPrompt sets, in mcp.Prompt's order, with _meta a
// struct whose fields are in the order encoding/json writes a map's keys
// (sorted), so that it encodes to the same bytes as the mcp.Prompt
// (TestPromptListWire) without a map to encode.
type promptWire struct {
	Meta        *promptMeta           `json:"_meta,omitempty"`
	Arguments   []*mcp.PromptArgument `json:"arguments,omitempty"`
	Description string                `json:"description,omitempty"`
	Name        string                `json:"name"`
	Title       string                `json:"title,omitempty"`
}

// promptMeta is the _meta of a per-skill prompt; the keys are
// manifest.MetaPrefix + "disable-model-invocation" and + "uri".
type promptMeta struct {
	DisableModelInvocation bool   `json:"io.modelcontextprotocol.skills/disable-model-invocation,omitempty"`
	URI                    string `json:"io.modelcontextprotocol.skills/uri"`
}

// wireOf returns p as prompts/list sends it.
func wireOf(p *mcp.Prompt) *promptWire {
	w := &promptWire{Arguments: p.Arguments, Description: p.Description, Name: p.Name, Title: p.Title}
	if p.Meta != nil {
		w.Meta = &promptMeta{}
		w.Meta.URI, _ = p.Meta[manifest.MetaPrefix+"uri"].(string)
		w.Meta.DisableModelInvocation, _ = p.Meta[manifest.MetaPrefix+"disable-model-invocation"].(bool)
	}
	return w
}

// promptListing is what a catalog (the caller's view) says about its
// per-skill prompts, made once: the prompts in name order, the same as
// prompts/list sends them, and the status catalog_status reports.
type promptListing struct {
	prompts []skillPrompt
	wire    []*promptWire
	status  PromptStatus
	err     error
}

// promptSet is every skill's prompt name, made once per catalog, and the
// prompts themselves, made on first need.
type promptSet struct {
	names  []string       // by snapshot number
	byName map[string]int // name → snapshot number
}

// normalPromptName is the prompt name of a skill path before collisions
// are resolved (see promptNames); exact reports that the path was already
// in that form, and hash that the name must carry the path's hash (it was
// shortened, or nothing of the path was left).
func normalPromptName(skillPath string) (name string, exact, hash bool) {
	var segs []string
	exact = true
	for raw := range strings.SplitSeq(skillPath, "/") {
		seg := raw
		if u, err := url.PathUnescape(raw); err == nil {
			seg = u
		}
		var b strings.Builder
		dash := false
		for _, r := range seg {
			r = unicode.ToLower(r)
			if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
				if dash && b.Len() > 0 {
					b.WriteByte('-')
				}
				dash = false
				b.WriteRune(r)
				continue
			}
			dash = true
		}
		s := b.String()
		if s != raw {
			exact = false
		}
		if s == "" {
			hash = true // nothing of the segment is left
			continue
		}
		segs = append(segs, s)
	}
	name = strings.Join(segs, "_")
	switch {
	case name == "":
		return "skill", false, true
	case len(name) <= MaxPromptName:
		return name, exact, hash
	}
	// Keep the end, where the skill's own name is: drop leading segments,
	// then cut what is left; the hash goes after it.
	for len(segs) > 1 && len(strings.Join(segs, "_")) > MaxPromptName-7 {
		segs = segs[1:]
	}
	name = strings.Join(segs, "_")
	if len(name) > MaxPromptName-7 {
		name = strings.TrimRight(name[:MaxPromptName-7], "-_")
	}
	return name, false, true
}

// withHash appends "-" and the first n hex digits of the path's sha256 to
// name, cutting name so that the whole stays within MaxPromptName.
func withHash(name, skillPath string, n int) string {
	sum := sha256.Sum256([]byte(skillPath))
	h := hex.EncodeToString(sum[:])[:n]
	if len(name)+1+n > MaxPromptName {
		name = strings.TrimRight(name[:MaxPromptName-1-n], "-_")
	}
	return name + "-" + h
}

// promptNames returns each skill path's prompt name. The rule:
//
//  1. Each path segment is lowercased, every run of characters other than
//     a-z and 0-9 becomes one "-", and "-" is trimmed from both ends;
//     empty segments are dropped and the rest joined with "_" (so a name
//     never holds "__", the separator hosts put between server and prompt
//     names). acme/billing/refunds → acme_billing_refunds.
//  2. A name longer than MaxPromptName loses leading segments, then its
//     end, and gets "-" and 6 hex digits of the path's sha256; so does a
//     name of which a segment was left empty (数据 → "skill-<hash>").
//  3. Names that collide (with each other or with a reserved name such as
//     use-skill) keep the plain name only for the path that was already in
//     normal form (at most one is); every other gets "-" and 6 hex digits
//     of its path's sha256, 12 if that still collides, then a number.
//
// So a name depends on its own path alone unless another path normalises
// to the same name, and it is a valid MCP name and slash command: 1 to 64
// characters of a-z, 0-9, "-" and "_".
func promptNames(paths []string, reserved []string) []string {
	names := make([]string, len(paths))
	exact := make([]bool, len(paths))
	count := map[string]int{}
	for _, r := range reserved {
		count[r]++
	}
	for i, p := range paths {
		var hash bool
		names[i], exact[i], hash = normalPromptName(p)
		if hash {
			names[i] = withHash(names[i], p, 6)
		}
		count[names[i]]++
	}
	taken := map[string]bool{}
	for _, r := range reserved {
		taken[r] = true
	}
	var again []int
	for i := range paths {
		if count[names[i]] == 1 || exact[i] && !slices.Contains(reserved, names[i]) {
			taken[names[i]] = true
			continue
		}
		again = append(again, i)
	}
	for _, i := range again {
		n := withHash(names[i], paths[i], 6)
		if taken[n] {
			n = withHash(names[i], paths[i], 12)
		}
		base := n[:min(len(n), MaxPromptName-5)]
		for j := 2; taken[n]; j++ {
			n = fmt.Sprintf("%s-%d", base, j)
		}
		names[i] = n
		taken[n] = true
	}
	return names
}

// PromptStatus says whether a session gets one prompt per skill, and why
// not.
type PromptStatus struct {
	Enabled bool   `json:"enabled" jsonschema:"one prompt per skill is served (hosts show them as slash commands)"`
	Prompts int    `json:"prompts" jsonschema:"per-skill prompts served"`
	Skills  int    `json:"skills" jsonschema:"skills that would get a prompt"`
	Limit   int    `json:"limit" jsonschema:"the most skills for which prompts are served (--prompt-limit); 0: off"`
	Reason  string `json:"reason,omitempty" jsonschema:"why there are no per-skill prompts"`
}
