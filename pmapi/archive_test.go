package pmapi

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

// walk is testdata/harness/archwalk.c in Go: the results of count
// fetches from an archive context in a mode, in the harness's format.
func walk(t *testing.T, name, mode string, delta time.Duration, count int, metrics []string) string {
	t.Helper()
	ctx := context.Background()
	c, err := NewArchiveContext(ctx, name)
	if err != nil {
		return fmt.Sprintf("ERR %d\n", pcpCode(err))
	}
	defer c.Close()
	var pmids []pcp.PMID
	if len(metrics) > 0 {
		if pmids, err = c.LookupNames(ctx, metrics); err != nil {
			return fmt.Sprintf("ERR %d\n", pcpCode(err))
		}
	}
	m := map[string]Mode{"forw": ModeForw, "back": ModeBack, "interp": ModeInterp}[mode]
	origin := c.Start()
	if m == ModeBack || delta < 0 {
		if origin, err = c.End(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.SetMode(m, origin, delta); err != nil {
		return fmt.Sprintf("ERR %d\n", pcpCode(err))
	}
	var b strings.Builder
	var r pcp.Result
	for i := 0; i < count; i++ {
		if len(pmids) == 0 {
			err = c.FetchArchive(ctx, &r)
		} else {
			_, err = c.Fetch(ctx, pmids, &r)
		}
		if err != nil {
			fmt.Fprintf(&b, "ERR %d\n", pcpCode(err))
			break
		}
		writeResult(&b, &r)
	}
	return b.String()
}

// writeResult writes r's timestamp and every value set's values to b,
// one line a set, for comparing fetches as text.
func writeResult(b *strings.Builder, r *pcp.Result) {
	// Appended by hand, not with fmt: the lazy and libpcp walks write
	// hundreds of thousands of results, and under -race fmt's printer
	// was most of their time. The text is fmt's (writeresult_test.go).
	var buf [64]byte
	s := append(buf[:0], "T "...)
	s = strconv.AppendInt(s, r.Timestamp.Sec, 10)
	s = append(s, '.')
	s = appendNsec(s, r.Timestamp.Nsec)
	s = append(s, ' ')
	s = strconv.AppendInt(s, int64(len(r.Sets)), 10)
	s = append(s, '\n')
	b.Write(s)
	for _, vs := range r.Sets {
		s = append(buf[:0], "  "...)
		s = append(s, vs.PMID.String()...)
		s = append(s, ' ')
		s = strconv.AppendInt(s, int64(vs.NumVal), 10)
		b.Write(s)
		for _, v := range vs.Values[:max(vs.NumVal, 0)] {
			s = append(buf[:0], ' ')
			s = strconv.AppendInt(s, int64(v.Inst), 10)
			s = append(s, '=')
			if vs.ValFmt == pcp.ValInSitu {
				s = strconv.AppendInt(s, int64(v.LVal), 10)
			} else {
				s = hex.AppendEncode(s, v.Block.Data)
			}
			b.Write(s)
		}
		b.WriteByte('\n')
	}
}

// appendNsec appends n as fmt's %09d does.
func appendNsec(s []byte, n int32) []byte {
	if n < 0 || n > 999999999 {
		return fmt.Appendf(s, "%09d", n)
	}
	var d [9]byte
	for i := 8; i >= 0; i-- {
		d[i] = byte('0' + n%10)
		n /= 10
	}
	return append(s, d[:]...)
}

func pcpCode(err error) int32 {
	var pe pcp.Error
	if errors.As(err, &pe) {
		return int32(pe)
	}
	return -1
}

// TestArchiveWalksAgainstLibpcp reads QA archives through libpcp
// (testdata/harness/archwalk.c) and through ArchiveContext in every mode:
// pmFetchArchive forwards and backwards (marks, volumes, several
// archives with the <mark> between them), pmFetch forwards and
// backwards, and interpolation forwards and backwards at several steps.
func TestArchiveWalksAgainstLibpcp(t *testing.T) {
	harness := pcptest.Harness(t, "testdata/harness/archwalk.c")
	t.Setenv("PCP_DERIVED_CONFIG", "")
	qa := func(name string) string { return clitest.QAArchive(t, name) }
	sec := time.Second
	cases := []struct {
		archive, mode string
		delta         time.Duration
		count         int
		metrics       []string
	}{
		{"interpmark", "forw", 0, 400, nil},
		{"interpmark", "back", 0, 400, nil},
		{"interpmark", "forw", 0, 50, []string{"network.tcpconn.close"}},
		{"interpmark", "back", 0, 50, []string{"mem.physmem", "network.tcpconn.close"}},
		{"interpmark", "interp", 5 * sec, 200, []string{"network.tcpconn.close", "mem.physmem", "disk.dev.total"}},
		{"interpmark", "interp", -7 * sec, 200, []string{"network.tcpconn.close", "disk.dev.total"}},
		{"count-mark", "interp", 3 * sec, 100, []string{"kernel.all.pswitch"}},
		{"changeinst", "interp", 700 * time.Millisecond, 100, []string{"sample.bin", "irix.network.interface.total.packets", "hinv.ncpu"}},
		{"changeinst", "back", 0, 100, nil},
		{"dyninsts", "interp", 500 * time.Millisecond, 100, []string{"disk.dev.write", "mem.util.free"}},
		// (libpcp 6.0.3 aborts with a double free stepping back through dyninsts
		// by less than a second, so whole seconds)
		{"dyninsts", "interp", -sec, 100, []string{"disk.dev.write"}},
		{"changeinst", "interp", -sec, 100, []string{"sample.bin"}},
		{"uwrap", "interp", 600 * time.Millisecond, 100, []string{"sample.wrap.ulong"}},
		{"omnibus_v3", "interp", 250 * time.Millisecond, 100, []string{"sample.long.bin_ctr", "sample.colour", "sample.string.hullo", "sample.double.bin_ctr", "sample.longlong.bin_ctr", "sample.ulonglong.bin_ctr", "sample.float.bin_ctr", "pmcd.seqnum"}},
		{"omnibus_v3", "forw", 0, 100, nil},
		{"omnibus_v3", "back", 0, 100, nil},
		{"20041125", "interp", 10 * sec, 100, []string{"swap.pagesin", "swap.length", "filesys.mountdir", "kernel.all.load"}},
		{"gap", "interp", sec, 100, []string{"pmcd.pdu_in.error", "proc.nprocs"}},
		{"multi-xz", "forw", 0, 1000, nil},
		{"multi-xz", "back", 0, 1000, nil},
		{"multi-xz", "interp", 20 * sec, 100, []string{"disk.dev.read", "kernel.all.load"}},
		{"multi-xz", "interp", -20 * sec, 100, []string{"kernel.all.load"}},
	}
	for _, tc := range cases {
		name := fmt.Sprintf("%s %s %v %v", tc.archive, tc.mode, tc.delta, tc.metrics)
		t.Run(name, func(t *testing.T) {
			path := qa(tc.archive)
			args := append([]string{path, tc.mode, strconv.FormatInt(int64(tc.delta), 10), strconv.Itoa(tc.count)}, tc.metrics...)
			want := pcptest.Run(t, "", harness, args...)
			got := walk(t, path, tc.mode, tc.delta, tc.count, tc.metrics)
			if got != want {
				t.Errorf("archwalk %s differs\n%s", strings.Join(args, " "), clitest.Diff(want, got))
			}
		})
	}
}
