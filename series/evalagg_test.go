package series

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestAggregatesGolden evaluates every aggregating function over series
// of awkward shapes (samples with other instance counts than the first,
// empty samples, NaNs, infinities, ties, text that is no number) and
// compares the sets with testdata/aggregates.golden, written by the
// functions before they were folded onto shared walks (UPDATE_GOLDEN=1
// rewrites it). The behaviour itself is PCP's, compared with PCP's
// pmseries by cmd/pmseries's TestFunctionsMatchPCP.
func TestAggregatesGolden(t *testing.T) {
	funcs := []struct {
		name string
		f    func(*sset) *sset
	}{
		{"max_inst", func(s *sset) *sset { return pickInst(s, true) }},
		{"min_inst", func(s *sset) *sset { return pickInst(s, false) }},
		{"max_sample", func(s *sset) *sset { return pickSample(s, true) }},
		{"min_sample", func(s *sset) *sset { return pickSample(s, false) }},
		{"sum_inst", func(s *sset) *sset { return statInst(s, false) }},
		{"avg_inst", func(s *sset) *sset { return statInst(s, true) }},
		{"sum_sample", func(s *sset) *sset { return statSample(s, false) }},
		{"avg_sample", func(s *sset) *sset { return statSample(s, true) }},
		{"stdev_inst", stdevInst},
		{"stdev_sample", stdevSample},
		{"topk_inst_2", func(s *sset) *sset { return topkInst(s, 2) }},
		{"topk_sample_2", func(s *sset) *sset { return topkSample(s, 2) }},
		{"nth_percentile_inst_50", func(s *sset) *sset { return percentileInst(s, 50) }},
		{"nth_percentile_sample_90", func(s *sset) *sset { return percentileSample(s, 90) }},
	}
	vals := []string{"1", "-2", "3.5e+00", "0", "inf", "-inf", "nan", "text", "7", "7", "1e300"}
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for n := 0; n < 40; n++ {
		ss := &sset{sid: "s" + strconv.Itoa(n), desc: fdesc{typ: "double", sem: "counter", units: "count"}}
		ninst := rng.IntN(4)
		for j := rng.IntN(6); j > 0; j-- {
			k := ninst
			if rng.IntN(4) == 0 {
				k = rng.IntN(5) // another instance count, or none
			}
			var smp []ival
			for i := 0; i < k; i++ {
				smp = append(smp, ival{stamp: strconv.Itoa(j) + "-0", ts: pcp.Timestamp{Sec: int64(j)},
					inst: "i" + strconv.Itoa(i), data: vals[rng.IntN(len(vals))]})
			}
			ss.samples = append(ss.samples, smp)
		}
		ss.num = len(ss.samples)
		fmt.Fprintf(&b, "series %s in %v\n", ss.sid, ss.samples)
		for _, f := range funcs {
			out := f.f(ss.clone())
			fmt.Fprintf(&b, "  %s: %d %s %s %v\n", f.name, out.num, out.desc.typ, out.desc.sem, out.samples)
		}
	}
	const golden = "testdata/aggregates.golden"
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
}
