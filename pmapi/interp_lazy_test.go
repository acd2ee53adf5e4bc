package pmapi

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// lazyArchives are QA archives with what a reader that stops early could
// get wrong: <mark>s (interpmark, gap, gap2, mark-bug, 20180102's 120,
// count-mark's counters across one), instances that come and go
// (changeinst, 20180102's processes, dyninsts), counters near their
// wrap (20041125) and both label versions (omnibus_v2, omnibus_v3).
var lazyArchives = []string{"interpmark", "gap", "gap2", "mark-bug", "20180102", "count-mark",
	"changeinst", "dyninsts", "20041125", "omnibus_v2", "omnibus_v3", "pmiostat_mark"}

// TestLazyInterpMatchesWhole: interpolation that reads records only as
// far as its fetches need gives, fetch by fetch, what it gives after
// reading every record first (the walk the libpcp comparisons check),
// for every metric of each archive at once and a few one by one, from
// the start, a third of the way in and near the end (where the walk
// starts at an index entry before the first fetch: interp_window.go), at steps shorter and longer than
// the records' spacing, stopping after 1, 4 or 600 fetches.
func TestLazyInterpMatchesWhole(t *testing.T) {
	t.Setenv("PCP_DERIVED_CONFIG", "")
	for _, name := range lazyArchives {
		t.Run(name, func(t *testing.T) {
			base := clitest.QAArchive(t, name)
			ctx := context.Background()
			c, err := NewArchiveContext(ctx, base)
			if err != nil {
				t.Fatal(err)
			}
			open := sharedMeta(t, c)
			names, err := c.Traverse(ctx, "")
			end, endErr := c.End()
			start := c.Start()
			c.Close()
			if err != nil || endErr != nil {
				t.Fatalf("names %v, end %v", err, endErr)
			}
			span := end.Sub(start)
			var spans [][]string
			if len(names) <= 200 {
				// every metric at once (20180102's thousands
				// took a minute)
				spans = append(spans, names)
			}
			for i, n := range names {
				if i%max(len(names)/6, 1) == 0 {
					spans = append(spans, []string{n})
				}
			}
			compared := 0
			for _, metrics := range spans {
				for _, from := range []float64{0, span / 3, span * 0.9} {
					for _, step := range []float64{span / 500, span / 37, 1} {
						// Reading every record first, a walk's fetches do not depend
						// on where it stops: one walk of the most fetches gives the
						// expected answers of the shorter ones (it used to be walked
						// again for each count, most of the test's time under -race).
						var whole []string
						for _, count := range []int{1, 4, 600} {
							if from > span/2 && (count == 1 || step == span/37) {
								// near the end: fewer cases, so the
								// package stays within go test's
								// time limit under -race on a busy
								// machine
								continue
							}
							args := fmt.Sprintf("%s from %.3f step %.3f count %d", strings.Join(metrics[:min(len(metrics), 3)], ","), from, step, count)
							if whole == nil {
								whole = lazyWalk(t, open, metrics, from, step, 600, false)
							}
							want := strings.Join(whole[:min(count, len(whole))], "")
							lazy := strings.Join(lazyWalk(t, open, metrics, from, step, count, true), "")
							if want != lazy {
								t.Fatalf("%s: read lazily differs\n%s", args, clitest.Diff(want, lazy))
							}
							compared++
						}
					}
				}
			}
			t.Logf("%d walks compared", compared)
		})
	}
}

// sharedMeta gives contexts on the archive of c, which NewArchiveContext
// opened, as NewArchiveContext opens them but with c's metadata, loaded
// once rather than for each walk: loading 20180102's thousands of
// metrics again for each of the ~210 walks was over half of
// TestLazyInterpMatchesWhole's CPU under -race. The first context is
// checked equal to a fresh NewArchiveContext's, so a field that
// NewArchiveContext comes to set fails here rather than being left out.
func sharedMeta(t *testing.T, c *ArchiveContext) func() *ArchiveContext {
	t.Helper()
	if len(c.logs) != 1 {
		t.Fatalf("%s: %d archives, not one", c.name, len(c.logs))
	}
	open := func() *ArchiveContext {
		t.Helper()
		a, err := archive.Open(c.name, archive.Options{Meta: c.logs[0].Meta})
		if err != nil {
			t.Fatal(err)
		}
		s := &ArchiveContext{name: c.name, mode: ModeForw, logs: []*archive.Archive{a}, origin: a.Label.Start}
		s.profile.Reset(pdu.ProfileInclude)
		return s
	}
	fresh, err := NewArchiveContext(context.Background(), c.name)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	s := open()
	// The archives are compared by what they hold: a fresh one keeps
	// its metadata loader's read window for its first volume, which one
	// on shared metadata never had.
	sl, fl := s.logs, fresh.logs
	s.logs, fresh.logs = nil, nil
	same := reflect.DeepEqual(s, fresh)
	s.logs, fresh.logs = sl, fl
	if !same || len(sl) != len(fl) {
		t.Fatalf("%s: a context on shared metadata is not NewArchiveContext's:\n%+v\n%+v", c.name, s, fresh)
	}
	for i, a := range sl {
		f := fl[i]
		if a.Base != f.Base || a.Label != f.Label || !reflect.DeepEqual(a.Index, f.Index) || a.MinVol != f.MinVol || a.MaxVol != f.MaxVol ||
			a.MetaPath() != f.MetaPath() || !reflect.DeepEqual(a.Meta, f.Meta) {
			t.Fatalf("%s: an archive on shared metadata is not NewArchiveContext's:\n%+v\n%+v", c.name, a, f)
		}
	}
	return open
}

// lazyWalk is walk in ModeInterp from from seconds after the archive's
// start, with lazy reading on or off: what each fetch gave, in order.
func lazyWalk(t *testing.T, open func() *ArchiveContext, metrics []string, from, step float64, count int, lazy bool) []string {
	t.Helper()
	noLazy = !lazy
	defer func() { noLazy = false }()
	ctx := context.Background()
	c := open()
	defer c.Close()
	pmids, err := c.LookupNames(ctx, metrics)
	if err != nil {
		return []string{fmt.Sprintf("ERR %d\n", pcpCode(err))}
	}
	origin := addNsec(c.Start(), int64(from*1e9))
	if err := c.SetMode(ModeInterp, origin, time.Duration(step*1e9)); err != nil {
		t.Fatal(err)
	}
	var fetches []string
	var r pcp.Result
	for range count {
		var b strings.Builder
		if _, err := c.Fetch(ctx, pmids, &r); err != nil {
			fmt.Fprintf(&b, "ERR %d\n", pcpCode(err))
			fetches = append(fetches, b.String())
			if pcpCode(err) == int32(pcp.ErrEOL) {
				break
			}
			continue
		}
		writeResult(&b, &r)
		fetches = append(fetches, b.String())
	}
	return fetches
}

// TestLazyReadsLess: a fetch at an archive's start reads the records
// around it, not the archive, and the walk ends at the last fetch that
// needs it; a second archive (several archives are read whole) and
// PCP_IGNORE_MARK_RECORDS turn it off.
func TestLazyReadsLess(t *testing.T) {
	ctx := context.Background()
	base := clitest.QAArchive(t, "20041125")
	c, err := NewArchiveContext(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pmids, err := c.LookupNames(ctx, []string{"kernel.all.load"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetMode(ModeInterp, c.Start(), time.Second); err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	if _, err := c.Fetch(ctx, pmids, &r); err != nil {
		t.Fatal(err)
	}
	if c.interp.lazy == nil || c.interp.scanned {
		t.Fatal("the first fetch read the whole archive")
	}
	var err2 error
	for err2 == nil {
		_, err2 = c.Fetch(ctx, pmids, &r)
	}
	if c.interp.lazy != nil || !c.interp.scanned {
		t.Errorf("after the last fetch (%v) the walk is not over", err2)
	}

	list, err := NewArchiveContext(ctx, clitest.QAArchive(t, "multi"))
	if err != nil {
		t.Fatal(err)
	}
	defer list.Close()
	if len(list.logs) < 2 {
		t.Fatalf("%d archives in multi", len(list.logs))
	}
	if list.interp = newInterpolator(list); list.interp.lazyOK() {
		t.Error("lazy over several archives")
	}
	ign, err := NewArchiveContext(ctx, base, WithIgnoreMarkRecords("10s"))
	if err != nil {
		t.Fatal(err)
	}
	defer ign.Close()
	if ign.interp = newInterpolator(ign); ign.interp.lazyOK() {
		t.Error("lazy with PCP_IGNORE_MARK_RECORDS")
	}
}

// TestWindowReadsLess: a first fetch near an archive's end reads from a
// temporal index entry before it, not from the start, and a metric
// whose values do not all lie after that entry (a wider instance
// domain's) still gets every prior bound by a walk started further back.
func TestWindowReadsLess(t *testing.T) {
	ctx := context.Background()
	base := clitest.QAArchive(t, "20180102")
	first, err := NewArchiveContext(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	open := sharedMeta(t, first)
	for _, tc := range []struct {
		metric string
		from   float64 // share of the archive's span
	}{
		{"kernel.all.load", 0.9},
		{"kernel.all.load", 0.5},
		{"proc.memory.rss", 0.9},
		{"proc.psinfo.maj_flt", 0.7},
		{"disk.dev.read", 0.95},
	} {
		c := open()
		defer c.Close()
		pmids, err := c.LookupNames(ctx, []string{tc.metric})
		if err != nil {
			t.Fatal(err)
		}
		end, err := c.End()
		if err != nil {
			t.Fatal(err)
		}
		span := end.Sub(c.Start())
		origin := addNsec(c.Start(), int64(tc.from*span*1e9))
		if err := c.SetMode(ModeInterp, origin, time.Second); err != nil {
			t.Fatal(err)
		}
		var r pcp.Result
		if _, err := c.Fetch(ctx, pmids, &r); err != nil {
			t.Fatal(err)
		}
		ip := c.interp
		m := ip.metrics[pmids[0]]
		first := math.Inf(1)
		for _, is := range m.insts {
			if is.len() > 0 {
				first = min(first, is.time(0))
			}
		}
		if tc.metric == "kernel.all.load" && (ip.from == nil || first < tc.from*span/2) {
			t.Errorf("%s from %.0f%%: the walk started at %v, its first value at %.1f of %.1f s", tc.metric, tc.from*100, ip.from, first, span)
		}
		if !ip.priorsRead(pmids, ip.rel(origin)) && ip.from != nil {
			t.Errorf("%s from %.0f%%: answered from a window without every prior bound", tc.metric, tc.from*100)
		}
		t.Logf("%s from %.0f%%: first value read at %.1f of %.1f s (windowed %v)", tc.metric, tc.from*100, first, span, ip.from != nil)
		whole := strings.Join(lazyWalk(t, open, []string{tc.metric}, tc.from*span, span/300, 40, false), "")
		if lazy := strings.Join(lazyWalk(t, open, []string{tc.metric}, tc.from*span, span/300, 40, true), ""); lazy != whole {
			t.Errorf("%s from %.0f%%: read from a window differs\n%s", tc.metric, tc.from*100, clitest.Diff(whole, lazy))
		}
	}
}
