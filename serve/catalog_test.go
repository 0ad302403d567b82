package serve

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/manifest"
)

// TestTruncatedBundle truncates a served, memory-mapped bundle file: reads
// then fail with a clean -32603 and the server keeps answering.
func TestTruncatedBundle(t *testing.T) {
	b, path := fileBundle(t, exampleFixture())
	s := newServer(t, Options{}, b)
	cs := connectMem(t, s, "2025-11-25", nil) // no client-side cache
	ctx := context.Background()
	const uri = "skill://acme/pdf-processing/references/FORMS.md"
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 16<<10); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{uri, "skill://acme/pdf-processing/SKILL.md", uri} {
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: u})
		wantRPCError(t, err, jsonrpc.CodeInternalError, u, "truncated or overwritten")
	}
	// The manifest and indexes are read in place from the map too: listing
	// and skills/get fail the same way, and the server keeps running.
	_, err := listSkills(ctx, cs, "")
	wantRPCError(t, err, jsonrpc.CodeInternalError, "skills/list", "truncated or overwritten")
	_, err = getSkill(ctx, cs, "skill://acme/pdf-processing/SKILL.md")
	wantRPCError(t, err, jsonrpc.CodeInternalError, "skills/get", "truncated or overwritten")
}

func TestSeveralBundles(t *testing.T) {
	fx := exampleFixture()
	a, b := fixture{}, fixture{}
	for sp, files := range fx {
		if strings.HasPrefix(sp, "acme/") {
			a[sp] = files
		} else {
			b[sp] = files
		}
	}
	ba, _ := memBundle(t, a)
	bb, _ := memBundle(t, b)
	whole, _ := memBundle(t, fx)
	s := newServer(t, Options{ShowDisabled: true}, bb, ba)
	eachClient(t, s, func(t *testing.T, cs *mcp.ClientSession) {
		var want []string
		for i := range whole.NumSkills() {
			want = append(want, whole.SkillURI(i))
		}
		if got := entryURIs(t, allSkills(t, cs)); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("listed %v\nwant %v", got, want)
		}
		ctx := context.Background()
		for _, uri := range []string{"skill://tools/secret-helper/run.sh", "skill://acme/billing/refunds/partial/SKILL.md"} {
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
				t.Errorf("%s: %v", uri, err)
			}
		}
		res, err := readDir(ctx, cs, "skill://community", "")
		if err != nil || len(res.Resources) != 1 {
			t.Errorf("skill://community: %v %v", err, res)
		}
	})

	t.Run("same skill twice", func(t *testing.T) {
		dup, _ := memBundle(t, fixture{"community/git-workflow": fx["community/git-workflow"]})
		_, err := New([]*manifest.Bundle{bb, dup}, Options{})
		if err == nil || !strings.Contains(err.Error(), "skill://community/git-workflow/SKILL.md is served by two bundles") ||
			!strings.Contains(err.Error(), bb.ID().String()) || !strings.Contains(err.Error(), dup.ID().String()) {
			t.Errorf("got %v, want an error naming the uri and both bundles", err)
		}
	})
	t.Run("nested across bundles", func(t *testing.T) {
		nested, _ := memBundle(t, fixture{"acme/pdf-processing/extra": {"SKILL.md": "---\nname: extra\ndescription: x\n---\n"}})
		_, err := New([]*manifest.Bundle{ba, nested}, Options{})
		if err == nil || !strings.Contains(err.Error(), "skill://acme/pdf-processing/extra/SKILL.md of bundle "+nested.ID().String()+
			" lies inside skill skill://acme/pdf-processing/SKILL.md of bundle "+ba.ID().String()) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("nil bundle", func(t *testing.T) {
		if _, err := New([]*manifest.Bundle{ba, nil}, Options{}); err == nil {
			t.Error("a nil bundle was accepted")
		}
	})
}

// TestSwap replaces the catalog under connected clients: they are told the
// list changed, a subscribed resource whose bytes changed is reported, and a
// snapshot taken before the swap keeps answering as it did.
func TestSwap(t *testing.T) {
	fx := exampleFixture()
	old, _ := memBundle(t, fx)
	fx2 := exampleFixture()
	fx2["acme/pdf-processing"]["references/FORMS.md"] = "# Forms, second edition\n"
	delete(fx2, "community/git-workflow")
	next, _ := memBundle(t, fx2)
	s := newServer(t, Options{}, old)
	const changed = "skill://acme/pdf-processing/references/FORMS.md"

	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			if err := s.Swap([]*manifest.Bundle{old}); err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var events []string
			note := func(e string) { mu.Lock(); events = append(events, e); mu.Unlock() }
			cs := connectMem(t, s, p.version, &mcp.ClientOptions{
				ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { note("list_changed") },
				ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
					note("updated " + r.Params.URI)
				},
			})
			ctx := context.Background()
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: changed}); err != nil {
				t.Fatal(err)
			}
			before := s.Snapshot()
			// Under 2026-07-28 Subscribe returns before the server has
			// registered the subscription stream; swap again until it has.
			deadline := time.Now().Add(5 * time.Second)
			for attempt := 0; ; attempt++ {
				if attempt > 0 {
					if err := s.Swap([]*manifest.Bundle{old}); err != nil {
						t.Fatal(err)
					}
				}
				if err := s.Swap([]*manifest.Bundle{next}); err != nil {
					t.Fatal(err)
				}
				wait := time.Now().Add(300 * time.Millisecond)
				var got string
				for time.Now().Before(wait) {
					mu.Lock()
					got = strings.Join(events, ", ")
					mu.Unlock()
					if strings.Contains(got, "list_changed") && strings.Contains(got, "updated "+changed) {
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
				if strings.Contains(got, "list_changed") && strings.Contains(got, "updated "+changed) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("notifications: %q", got)
				}
			}
			if k, ok := before.Find("skill://community/git-workflow/SKILL.md"); !ok || before.Listed(k) != true {
				t.Error("the old snapshot changed")
			}
			_, err := getSkill(ctx, cs, "skill://community/git-workflow/SKILL.md")
			wantRPCError(t, err, jsonrpc.CodeInvalidParams, "no skill is served at")
		})
	}

	t.Run("refused swap changes nothing", func(t *testing.T) {
		cur := s.Snapshot()
		if err := s.Swap([]*manifest.Bundle{old, old}); err == nil {
			t.Fatal("swapping in the same bundle twice was accepted")
		}
		if s.Snapshot() != cur {
			t.Error("a refused swap replaced the snapshot")
		}
	})
	t.Run("subscribe to unknown", func(t *testing.T) {
		cs := connectMem(t, s, "2025-11-25", nil)
		err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "skill://acme/none/SKILL.md"})
		wantRPCError(t, err, jsonrpc.CodeInvalidParams, "no resource is served at")
	})
}
