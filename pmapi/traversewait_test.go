package pmapi

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// TestTraverseTimeout: a zero traversal wait fails every Traverse with
// pcp.ErrTimeout without closing the connection, and the next request
// still gets its own reply (the replies left unread are skipped); a
// traversal wait that is not zero answers as without it.
func TestTraverseTimeout(t *testing.T) {
	bed := startBed(t)
	ctx := testContext(t)
	for _, tc := range []struct {
		wait     time.Duration
		timesOut bool
	}{{0, true}, {time.Minute, false}} {
		c := dial(t, bed, WithTraverseTimeout(tc.wait))
		for range 2 {
			names, err := c.Traverse(ctx, "sample.long.one")
			switch {
			case tc.timesOut && !errors.Is(err, pcp.ErrTimeout):
				t.Errorf("wait %v: Traverse: %v, %v; want %v", tc.wait, names, err, pcp.ErrTimeout)
			case !tc.timesOut && (err != nil || !slices.Equal(names, []string{"sample.long.one"})):
				t.Errorf("wait %v: Traverse: %v, %v", tc.wait, names, err)
			}
		}
		if _, err := c.LookupName(ctx, "sample.long.ten"); err != nil {
			t.Fatalf("wait %v: LookupName after Traverse: %v", tc.wait, err)
		}
		if kids, err := c.Children(ctx, "sample.long"); err != nil || !slices.Contains(kids, "ten") {
			t.Errorf("wait %v: Children after Traverse: %v, %v", tc.wait, kids, err)
		}
	}
}
