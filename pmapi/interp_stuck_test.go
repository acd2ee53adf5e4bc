package pmapi

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/pcp"
)

// TestInterpStuckPlace checks interpolation over QA's pcp-mpstat3, whose
// second temporal index entry names an offset 20 bytes into a record:
// libpcp 6.0.3's pmSetMode to a time that entry covers leaves it there,
// and every fetch then fails with PM_ERR_LOGREC until pmSetMode places it
// elsewhere (pmval -S +0.5 and pmprobe -O +0.5 print that error; from
// the start, placed with the first entry, values come).
func TestInterpStuckPlace(t *testing.T) {
	ctx := context.Background()
	src, err := NewContext(ctx, KindArchive, clitest.QAArchive(t, "pcp-mpstat3"))
	if err != nil {
		t.Fatal(err)
	}
	c := src.(*ArchiveContext)
	defer c.Close()
	id, err := c.LookupName(ctx, "kernel.all.cpu.guest")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		offset  int64 // from the archive's start, ns
		delta   time.Duration
		wantErr error
	}{
		{"start", 0, 5e8, nil},
		{"inside the bad entry's reach", 5e8, 5e8, pcp.ErrLogRec},
		{"start again", 0, 5e8, nil},
	}
	for _, tc := range tests {
		if err := c.SetMode(ModeInterp, addNsec(c.Start(), tc.offset), tc.delta); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			var r pcp.Result
			_, err := c.Fetch(ctx, []pcp.PMID{id}, &r)
			if tc.wantErr == nil {
				if err != nil || len(r.Sets) != 1 || r.Sets[0].NumVal != 1 {
					t.Errorf("%s: fetch %d: %v, %+v, want one value", tc.name, i, err, r.Sets)
				}
			} else if !errors.Is(err, tc.wantErr) {
				t.Errorf("%s: fetch %d: %v, want %v", tc.name, i, err, tc.wantErr)
			}
		}
	}
}
