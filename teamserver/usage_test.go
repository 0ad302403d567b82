package teamserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/skills-mcp/skills-mcp/internal/servetest"
	"github.com/skills-mcp/skills-mcp/serve"
	"github.com/skills-mcp/skills-mcp/serve/usage"
)

// scrapeWith reads /metrics with a token, through Prometheus' text parser.
func scrapeWith(t *testing.T, url, token string) map[string]*dto.MetricFamily {
	t.Helper()
	req, _ := http.NewRequest("GET", url+MetricsPath, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// uses returns skills_mcp_skill_uses_total by "skill kind".
func uses(fams map[string]*dto.MetricFamily) map[string]float64 {
	out := map[string]float64{}
	if f := fams["skills_mcp_skill_uses_total"]; f != nil {
		for _, m := range f.Metric {
			l := map[string]string{}
			for _, p := range m.Label {
				l[p.GetName()] = p.GetValue()
			}
			out[l["skill"]+" "+l["kind"]] = m.Counter.GetValue()
		}
	}
	return out
}

// TestSkillUses: skills/get, resources/read of a skill's files, its prompt
// and the get_skill and read_skill_file tools each count one use of the
// skill, by kind, at both protocol revisions, in skills_mcp_skill_uses_total
// (read with Prometheus' parser) and as one line of the usage log in
// OpenTelemetry's field names, with the caller's token name (never the
// token), the catalog id and the revision; a call that fails counts
// nothing.
func TestSkillUses(t *testing.T) {
	b, _ := memBundle(t, exampleFixture())
	s := newServer(t, serve.Options{}, b)
	a, err := NewAuthorizer(context.Background(), AuthOptions{TokenFile: servetest.WriteTokens(t, filepath.Join(t.TempDir(), "tokens"), map[string]string{"alice": "*"})})
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "usage.jsonl")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ul := usage.NewLog(f, servetest.Logger(t), "skills-mcp", "test")
	m := NewMetrics()
	ts := httptest.NewServer(Handler(s, Options{Auth: a, Metrics: m, Usage: []usage.Observer{ul}}))
	defer ts.Close()
	ctx := context.Background()
	const pdf = "skill://acme/pdf-processing/SKILL.md"
	for _, version := range []string{"2025-11-25", ""} {
		cs, err := connectBearer(t, ts.URL, "tok-alice", version)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if _, err := getSkill(ctx, cs, pdf); err != nil {
				t.Fatal(err)
			}
		}
		// The same read again and again: answered from kept answers
		// (serve's answers.go), counted all the same.
		for _, uri := range []string{pdf, "skill://acme/pdf-processing/references/FORMS.md", "skill://community/git-workflow/SKILL.md", pdf, pdf, pdf} {
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://acme/pdf-processing/nope.md"}); err == nil {
			t.Fatal("a file that does not exist was read")
		}
		if _, err := getSkill(ctx, cs, "skill://acme/nope/SKILL.md"); err == nil {
			t.Fatal("a skill that does not exist was got")
		}
		prompts, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var prompt string
		for _, p := range prompts.Prompts {
			if strings.Contains(p.Name, "pdf-processing") {
				prompt = p.Name
			}
		}
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: prompt}); err != nil {
			t.Fatal(err)
		}
		for _, call := range []struct {
			tool string
			args map[string]any
		}{
			{"skills_mcp_get_skill", map[string]any{"skill": "acme/pdf-processing"}},
			{"skills_mcp_read_skill_file", map[string]any{"skill": "acme/pdf-processing", "path": "references/FORMS.md"}},
		} {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: call.tool, Arguments: call.args})
			if err != nil || res.IsError {
				t.Fatalf("%s: %v %+v", call.tool, err, res)
			}
		}
	}
	// The 2026-07-28 client keeps a read's result for its ttlMs and does not
	// ask again: its three repeated reads never reach the server.
	want := map[string]float64{
		"acme/pdf-processing get": 6, "acme/pdf-processing read": 5 + 2, "community/git-workflow read": 2,
		"acme/pdf-processing prompt": 2, "acme/pdf-processing tool": 4,
	}
	got := uses(scrapeWith(t, ts.URL, "tok-alice"))
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("skills_mcp_skill_uses_total %v, want %v", got, want)
	}

	ul.Close(time.Second)
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "tok-alice") {
		t.Error("the usage log holds the token")
	}
	lines := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		var rec struct {
			Timestamp, ObservedTimestamp, SeverityText, EventName, Body string
			SeverityNumber                                              int
			Resource, Attributes                                        map[string]string
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		at := rec.Attributes
		var ns int64
		if _, err := fmt.Sscan(rec.Timestamp, &ns); err != nil || time.Since(time.Unix(0, ns)) > time.Minute {
			t.Errorf("Timestamp %q", rec.Timestamp)
		}
		if rec.SeverityText != "INFO" || rec.SeverityNumber != 9 || rec.EventName != "skills_mcp.skill.used" || rec.Resource["service.name"] != "skills-mcp" {
			t.Errorf("record %s", sc.Bytes())
		}
		if at["user.id"] != "alice" || at["skills_mcp.catalog.id"] != s.Snapshot().ID().String() ||
			(at["mcp.protocol.version"] != "2025-11-25" && at["mcp.protocol.version"] != "2026-07-28") || at["mcp.method.name"] == "" {
			t.Errorf("attributes %v", at)
		}
		lines[at["skills_mcp.skill"]+" "+at["skills_mcp.use.kind"]]++
	}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("usage log %v, want %v", lines, want)
	}
}

// TestSkillUsesCap: past MaxUsageSkills skills, uses count under the skill
// "other", so the label set stays bounded whatever the catalogs.
func TestSkillUsesCap(t *testing.T) {
	m := NewMetrics()
	for i := range MaxUsageSkills + 5 {
		for range 2 {
			m.SkillUsed(&usage.Use{Skill: fmt.Sprintf("ns/s%04d", i), Kind: usage.Read})
		}
	}
	ts := httptest.NewServer(m.Handler())
	defer ts.Close()
	got := uses(scrapeWith(t, ts.URL, ""))
	if len(got) != MaxUsageSkills+1 || got["other read"] != 10 || got["ns/s0000 read"] != 2 || got[fmt.Sprintf("ns/s%04d read", MaxUsageSkills-1)] != 2 {
		t.Errorf("%d series; other %v", len(got), got["other read"])
	}
}
