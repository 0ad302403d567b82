package pull_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
	"github.com/skills-mcp/skills-mcp/pull"
)

// A hand-written SEP-2640 server, not ours, that lists what the test says
// and serves what the test says: it proves pull works with any conformant
// server and refuses what a hostile one sends.

type listParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

type listResult struct {
	mcp.ResultBase
	ResultType string            `json:"resultType"`
	Skills     []json.RawMessage `json:"skills"`
	NextCursor string            `json:"nextCursor,omitempty"`
}

// hostileFile is a file the listing announces (listed) and the bytes
// resources/read returns for it (served).
type hostileFile struct {
	uri            string
	listed, served string
	listedSize     int // -1: the length of listed
}

type hostileSkill struct {
	uri, name string
	files     []hostileFile
	dynamic   bool
}

func entry(s hostileSkill) json.RawMessage {
	var res any = "dynamic"
	if !s.dynamic {
		var rs []map[string]any
		for _, f := range s.files {
			size := f.listedSize
			if size < 0 {
				size = len(f.listed)
			}
			rs = append(rs, map[string]any{"uri": f.uri, "digest": manifest.Sum([]byte(f.listed)).String(), "size": size})
		}
		res = rs
	}
	b, _ := json.Marshal(map[string]any{"uri": s.uri, "frontmatter": map[string]any{"name": s.name, "description": "d"}, "resources": res})
	return b
}

// hostileServer serves skills in pages of two; with loop, its cursor never
// ends. Without the extension it declares nothing, but still answers
// skills/list, so a call would show in count.
func hostileServer(skills []hostileSkill, declare, loop bool) (*mcp.Server, *counter) {
	caps := &mcp.ServerCapabilities{Resources: &mcp.ResourceCapabilities{}}
	if declare {
		caps.AddExtension(manifest.ExtensionName, nil)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	c := &counter{n: map[string]int{}}
	srv.AddReceivingMiddleware(c.middleware)
	mcp.AddReceivingCustomMethod(srv, "skills/list", func(_ context.Context, _ *mcp.ServerSession, p *listParams) (*listResult, error) {
		start := 0
		if p != nil && p.Cursor != "" {
			fmt.Sscan(p.Cursor, &start)
		}
		res := &listResult{ResultType: "complete", Skills: []json.RawMessage{}}
		for i := start; i < len(skills) && i < start+2; i++ {
			res.Skills = append(res.Skills, entry(skills[i]))
		}
		switch {
		case loop:
			res.NextCursor = "0"
		case start+2 < len(skills):
			res.NextCursor = fmt.Sprint(start + 2)
		}
		return res, nil
	})
	for _, s := range skills {
		for _, f := range s.files {
			srv.AddResource(&mcp.Resource{URI: f.uri, Name: f.uri}, func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				c := &mcp.ResourceContents{URI: f.uri}
				if strings.HasSuffix(f.uri, ".bin") {
					c.Blob = []byte(f.served)
				} else {
					c.Text = f.served
				}
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
			})
		}
	}
	return srv, c
}

func file(uri, content string) hostileFile { return hostileFile{uri, content, content, -1} }

func TestHostileServer(t *testing.T) {
	skillMD := "---\nname: x\n---\n"
	skills := []hostileSkill{
		{uri: "skill://h/good/SKILL.md", name: "good", files: []hostileFile{
			file("skill://h/good/SKILL.md", skillMD), file("skill://h/good/data.bin", "\x00\xffbinary"), file("skill://h/good/a%20b/c.md", "spaced")}},
		{uri: "skill://h/too-long/SKILL.md", name: "too-long", files: []hostileFile{
			file("skill://h/too-long/SKILL.md", skillMD), {"skill://h/too-long/x.md", "abc", "abcd", -1}}},
		{uri: "skill://h/short-size/SKILL.md", name: "short-size", files: []hostileFile{
			file("skill://h/short-size/SKILL.md", skillMD), {"skill://h/short-size/x.md", "abc", "abc", 2}}},
		{uri: "skill://h/flipped/SKILL.md", name: "flipped", files: []hostileFile{
			file("skill://h/flipped/SKILL.md", skillMD), {"skill://h/flipped/x.md", "abc", "abd", -1}}},
		{uri: "skill://h/dynamic/SKILL.md", name: "dynamic", dynamic: true},
		{uri: "skill://h/dotdot/SKILL.md", name: "dotdot", files: []hostileFile{
			file("skill://h/dotdot/SKILL.md", skillMD), file("skill://h/dotdot/../../x", "escape")}},
		{uri: "skill://h/../escape/SKILL.md", name: "escape", files: []hostileFile{file("skill://h/../escape/SKILL.md", skillMD)}},
		{uri: "skill://h/misnamed/SKILL.md", name: "other", files: []hostileFile{file("skill://h/misnamed/SKILL.md", skillMD)}},
		{uri: "skill://h/no-skill-md/SKILL.md", name: "no-skill-md", files: []hostileFile{file("skill://h/no-skill-md/x.md", "x")}},
		{uri: "skill://h/outside/SKILL.md", name: "outside", files: []hostileFile{
			file("skill://h/outside/SKILL.md", skillMD), file("skill://h/other/x.md", "x")}},
	}
	srv, count := hostileServer(skills, true, false)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	must(t, err)
	defer ss.Close()
	src, err := pull.Connect(context.Background(), ct, pull.ConnectOptions{Name: "hostile", ProtocolVersion: pull.LegacyProtocol})
	must(t, err)
	defer src.Close()
	if got := strings.Join(skillPaths(src.Skills), " "); got != "h/flipped h/good h/short-size h/too-long" {
		t.Errorf("skills: %s", got)
	}
	warnings := strings.Join(src.Warnings, "\n")
	for _, w := range []string{
		`skill://h/dynamic/SKILL.md: resources are "dynamic"`,
		`resource "skill://h/dotdot/../../x": unsafe path: segment .. is a parent-folder reference`,
		`skill "skill://h/../escape/SKILL.md": unsafe skill path`,
		`frontmatter name "other" differs from the last segment of its uri`,
		`skill://h/no-skill-md/SKILL.md: resources do not list its SKILL.md`,
		`resource "skill://h/other/x.md" is outside the skill folder`,
	} {
		if !strings.Contains(warnings, w) {
			t.Errorf("no warning %q in:\n%s", w, warnings)
		}
	}
	for _, name := range []string{"dynamic", "h/dynamic", "skill://h/dynamic/SKILL.md"} {
		_, err := src.Select(context.Background(), []string{name}, false)
		if err == nil || !strings.Contains(err.Error(), `was refused: skill skill://h/dynamic/SKILL.md: resources are "dynamic": the server publishes no digests`) {
			t.Errorf("select %s: %v", name, err)
		}
	}
	if n := count.reset(); n["skills/list"] != 5 {
		t.Errorf("skills/list pages: %v", n)
	}

	dir := t.TempDir()
	all, _ := src.Select(context.Background(), nil, true)
	res, err := pull.Pull(context.Background(), src, all, pull.Options{To: dir})
	if err == nil || res.Failed != 3 {
		t.Fatalf("err = %v, result %+v", err, res)
	}
	errs := map[string]string{}
	for _, s := range res.Skills {
		errs[s.Path] = s.Error
	}
	for path, want := range map[string]string{
		"h/too-long":   "x.md: size mismatch: the listing says 3 bytes, the source sent more than 3",
		"h/short-size": "x.md: size mismatch: the listing says 2 bytes, the source sent more than 2",
		"h/flipped":    "x.md: digest mismatch",
		"h/good":       "",
	} {
		if !strings.Contains(errs[path], want) || want == "" && errs[path] != "" {
			t.Errorf("%s: error %q, want %q", path, errs[path], want)
		}
	}
	sameTree(t, readTree(t, dir), map[string][]byte{
		"good/SKILL.md": []byte(skillMD), "good/data.bin": []byte("\x00\xffbinary"), "good/a b/c.md": []byte("spaced")})
	noTempFiles(t, dir)
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "x")); !os.IsNotExist(err) {
		t.Errorf("escaped: %v", err)
	}
}

// A server without the extension is refused before any skills/ call, over
// HTTP too, where a Go server would end the session on an unknown method.
func TestServerWithoutExtension(t *testing.T) {
	srv, count := hostileServer(nil, false, false)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true}))
	defer ts.Close()
	for _, proto := range protocols {
		_, err := pull.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL}, pull.ConnectOptions{Name: "plain", ProtocolVersion: proto})
		if err == nil || !strings.Contains(err.Error(), "does not declare the io.modelcontextprotocol/skills extension") {
			t.Errorf("%q: err = %v", proto, err)
		}
	}
	if n := count.reset(); n["skills/list"] != 0 {
		t.Errorf("skills/list called: %v", n)
	}
}

func TestCursorLoop(t *testing.T) {
	srv, _ := hostileServer([]hostileSkill{{uri: "skill://a/SKILL.md", name: "a", files: []hostileFile{file("skill://a/SKILL.md", "x")}}}, true, true)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	must(t, err)
	defer ss.Close()
	_, err = pull.Connect(context.Background(), ct, pull.ConnectOptions{Name: "loop"})
	if err == nil || !strings.Contains(err.Error(), `cursor "0" came back twice`) {
		t.Fatalf("err = %v", err)
	}
}

// TestNestedSkillNotListedByOuter: a server whose outer skill does not
// list the files of the skill nested in its folder. Replacing the outer
// skill keeps the nested one's files, with --sync too.
func TestNestedSkillNotListedByOuter(t *testing.T) {
	dir := t.TempDir()
	for i, outer := range []string{"---\nname: outer\n---\nv1\n", "---\nname: outer\n---\nv2\n"} {
		srv, _ := hostileServer([]hostileSkill{
			{uri: "skill://h/outer/SKILL.md", name: "outer", files: []hostileFile{file("skill://h/outer/SKILL.md", outer)}},
			{uri: "skill://h/outer/2fa/SKILL.md", name: "2fa", files: []hostileFile{file("skill://h/outer/2fa/SKILL.md", "---\nname: 2fa\n---\n")}},
		}, true, false)
		ct, st := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(context.Background(), st, nil)
		must(t, err)
		src, err := pull.Connect(context.Background(), ct, pull.ConnectOptions{Name: "nested"})
		must(t, err)
		all, _ := src.Select(context.Background(), nil, true)
		res, err := pull.Pull(context.Background(), src, all, pull.Options{To: dir, KeepPath: true, Sync: true})
		if err != nil {
			t.Fatal(err)
		}
		// The second time only the outer SKILL.md is fetched: the nested
		// skill went into the new outer folder with it, never missing.
		if i == 1 && (res.Written != 1 || res.Skills[0].Status != "unchanged") {
			t.Errorf("second pull: %+v", res)
		}
		src.Close()
		ss.Close()
		sameTree(t, readTree(t, dir), map[string][]byte{"h/outer/SKILL.md": []byte(outer), "h/outer/2fa/SKILL.md": []byte("---\nname: 2fa\n---\n")})
		noTempFiles(t, dir)
	}
}
