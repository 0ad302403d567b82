package serve

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestZZNotify(t *testing.T) {
	for i := 0; i < 5; i++ {
		var n atomic.Int32
		s := newServer(t, Options{}, exampleBuilt(t))
		cs := connectMem(t, s, "2025-11-25", &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { n.Add(1) }})
		res, err := cs.ListTools(context.Background(), nil)
		time.Sleep(50 * time.Millisecond)
		t.Logf("tools %d err %v notifications %d", len(res.Tools), err, n.Load())
	}
}
