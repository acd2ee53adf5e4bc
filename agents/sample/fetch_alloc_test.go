//go:build !race

package sample

import (
	"context"
	"testing"

	"github.com/gopcp/gopcp/pdu"
)

// TestHandleFetchAllocs: the bench's fetch through Handle allocates
// nothing once steady, in-process or not.
func TestHandleFetchAllocs(t *testing.T) {
	for _, dso := range []bool{true, false} {
		a, err := New(Domain, Options{PMDAsDir: t.TempDir(), DSO: dso})
		if err != nil {
			t.Fatal(err)
		}
		req := &pdu.Fetch{}
		for _, item := range benchItems {
			req.PMIDs = append(req.PMIDs, pmid(item))
		}
		var msg pdu.Message = req
		ctx := context.Background()
		if _, err := a.Handle(ctx, 0, msg); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() {
			if _, err := a.Handle(ctx, 0, msg); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("dso %v: %v allocations a fetch, want 0", dso, n)
		}
	}
}
