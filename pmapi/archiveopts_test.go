package pmapi

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/pcp"
)

// TestIgnoreMarkRecordsWarning: a bad PCP_IGNORE_MARK_RECORDS setting,
// given as an option, is a warning to the writer the caller gives, once,
// at the fetch whose reading meets the first <mark> (interpmark's
// sixth at 5s steps, where PCP's pmval prints it: cmd/internal/pmval's
// TestOutputOrderAgainstPCP), not a line on the program's stderr; the
// variable itself is not read here.
func TestIgnoreMarkRecordsWarning(t *testing.T) {
	t.Setenv("PCP_IGNORE_MARK_RECORDS", "not read by the library")
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opts func(w *bytes.Buffer) []Option
		want string
	}{
		{"bad value", func(w *bytes.Buffer) []Option {
			return []Option{WithIgnoreMarkRecords("5 fortnights"), WithWarnings(w)}
		}, "Warning: bad $PCP_IGNORE_MARK_RECORDS: not in pmParseInterval(3) format:\n"},
		{"good value", func(w *bytes.Buffer) []Option {
			return []Option{WithIgnoreMarkRecords("1m"), WithWarnings(w)}
		}, ""},
		{"unset", func(w *bytes.Buffer) []Option { return []Option{WithWarnings(w)} }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var warn bytes.Buffer
			c, err := NewArchiveContext(ctx, clitest.QAArchive(t, "interpmark"), tc.opts(&warn)...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			id, err := c.LookupName(ctx, "network.tcpconn.close")
			if err != nil {
				t.Fatal(err)
			}
			if err := c.SetMode(ModeInterp, c.logs[0].Label.Start, 5e9); err != nil {
				t.Fatal(err)
			}
			var r pcp.Result
			for i := 1; i <= 10; i++ {
				if _, err := c.Fetch(ctx, []pcp.PMID{id}, &r); err != nil {
					t.Fatal(err)
				}
				if i < 6 && warn.Len() != 0 {
					t.Fatalf("warning at fetch %d, before the <mark> was read: %q", i, warn.String())
				}
			}
			if tc.want == "" && warn.Len() != 0 || !strings.HasPrefix(warn.String(), tc.want) ||
				strings.Count(warn.String(), "Warning") > 1 {
				t.Errorf("warnings %q, want %q once", warn.String(), tc.want)
			}
		})
	}
}
