package series

import (
	"math"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// The aggregating functions: over each instance's samples (max, min,
// sum, avg, stdev, topk, nth_percentile and their _inst names) and over
// each sample's instances (the _sample names), as libpcp_web 6.0.3
// computes them (docs/series.md for where ours departs).

// samplesIn is the samples a function reads (libpcp_web's count, which
// rate may have lowered).
func samplesIn(ss *sset) [][]ival { return ss.samples[:min(ss.num, len(ss.samples))] }

// pickInst is max/min over time for each instance: one sample of each
// instance's extreme value, at its time. Samples with another number of
// instances than the first are passed over, as PCP passes them.
func pickInst(ss *sset, isMax bool) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) == 0 {
		return &out
	}
	nInst := len(in[0])
	res := make([]ival, nInst)
	for k := 0; k < nInst; k++ {
		best := 0
		bv := cfloat(in[0][k].data)
		for j := 1; j < len(in); j++ {
			if len(in[j]) != nInst {
				continue
			}
			v := cfloat(in[j][k].data)
			if isMax && bv < v || !isMax && bv > v {
				bv, best = v, j
			}
		}
		res[k] = in[best][k]
	}
	out.samples, out.num = [][]ival{res}, 1
	return &out
}

// pickSample is max/min across instances at each sample.
func pickSample(ss *sset, isMax bool) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		if len(smp) == 0 {
			continue // PCP reads past an empty sample's end here
		}
		best := 0
		bv := cfloat(smp[0].data)
		if len(smp) == len(in[0]) {
			for k := 1; k < len(smp); k++ {
				v := cfloat(smp[k].data)
				if isMax && bv < v || !isMax && bv > v {
					bv, best = v, k
				}
			}
		}
		out.samples[j] = []ival{smp[best]}
	}
	return &out
}

func statInst(ss *sset, avg bool) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) > 0 {
		nInst := len(in[0])
		res := make([]ival, nInst)
		for k := 0; k < nInst; k++ {
			sum := 0.0
			for j := range in {
				if len(in[j]) == nInst {
					sum += cfloat(in[j][k].data)
				}
			}
			if avg {
				sum /= float64(len(in))
			}
			res[k] = in[0][k]
			res[k].data = pcp.FormatFloat(sum, 'e', 6)
		}
		out.samples, out.num = [][]ival{res}, 1
	}
	out.desc.typ = "double"
	if avg {
		out.desc.sem = "instant"
	}
	return &out
}

func statSample(ss *sset, avg bool) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		if len(smp) == 0 {
			continue
		}
		sum := 0.0
		for _, v := range smp {
			sum += cfloat(v.data)
		}
		if avg {
			sum /= float64(len(smp))
		}
		out.samples[j] = []ival{{stamp: smp[0].stamp, ts: smp[0].ts, data: pcp.FormatFloat(sum, 'e', 6)}}
	}
	out.desc.typ = "double"
	if avg {
		out.desc.sem = "instant"
	}
	return &out
}

func stdev(vals []float64) float64 {
	mean := 0.0
	for _, v := range vals {
		mean += v
	}
	mean /= float64(len(vals))
	sd := 0.0
	for _, v := range vals {
		sd += (v - mean) * (v - mean)
	}
	return math.Sqrt(sd / float64(len(vals)))
}

func stdevInst(ss *sset) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) > 0 {
		nInst := len(in[0])
		res := make([]ival, nInst)
		for k := 0; k < nInst; k++ {
			var vals []float64
			for j := range in {
				if len(in[j]) == nInst {
					vals = append(vals, cfloat(in[j][k].data))
				}
			}
			res[k] = in[0][k]
			res[k].data = pcp.FormatFloat(stdev(vals), 'e', 6)
		}
		out.samples, out.num = [][]ival{res}, 1
	}
	out.desc.typ, out.desc.sem = "double", "instant"
	return &out
}

func stdevSample(ss *sset) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		if len(smp) == 0 {
			continue
		}
		vals := make([]float64, len(smp))
		for k, v := range smp {
			vals[k] = cfloat(v.data)
		}
		out.samples[j] = []ival{{stamp: smp[0].stamp, ts: smp[0].ts, data: pcp.FormatFloat(stdev(vals), 'e', 6)}}
	}
	out.desc.typ, out.desc.sem = "double", "instant"
	return &out
}

// topIndexes is the indexes of the k largest values, largest first, ties
// in their order: what inserting each value in turn after the last value
// not below it, keeping k, gives (as libpcp_web's walk does). A NaN is
// below and above nothing: kept only when fewer than k are held, it stays
// where it arrives and no later value passes it. So the values between
// kept NaNs are each taken largest first, stably, and the last run fills
// what room is left: O(n log n), where inserting one by one was
// quadratic (a million samples took minutes).
func topIndexes(vals []float64, k int) []int {
	desc := func(a, b int) int {
		switch {
		case vals[a] > vals[b]:
			return -1
		case vals[a] < vals[b]:
			return 1
		}
		return 0
	}
	var idx, run []int
	for i, v := range vals {
		if v == v {
			run = append(run, i)
			continue
		}
		if len(idx)+len(run) < k { // room for the NaN: the run is all kept
			slices.SortStableFunc(run, desc)
			idx = append(append(idx, run...), i)
			run = run[:0]
		}
	}
	slices.SortStableFunc(run, desc)
	room := max(k-len(idx), 0)
	return append(idx, run[:min(room, len(run))]...)
}

func topkSample(ss *sset, k int) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		vals := make([]float64, len(smp))
		for i, v := range smp {
			vals[i] = cfloat(v.data)
		}
		for _, i := range topIndexes(vals, k) {
			out.samples[j] = append(out.samples[j], smp[i])
		}
	}
	out.desc.typ, out.desc.sem = "double", "instant"
	return &out
}

// topkInst is, for each instance, its k largest values over time: one
// sample per instance holding them.
func topkInst(ss *sset, k int) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) > 0 {
		nInst := len(in[0])
		for i := 0; i < nInst; i++ {
			var vals []float64
			var from []int
			for j := range in {
				if len(in[j]) == nInst {
					vals = append(vals, cfloat(in[j][i].data))
					from = append(from, j)
				}
			}
			var smp []ival
			for _, x := range topIndexes(vals, k) {
				smp = append(smp, in[from[x]][i])
			}
			out.samples = append(out.samples, smp)
		}
		out.num = len(out.samples)
	}
	out.desc.typ, out.desc.sem = "double", "instant"
	return &out
}

// rankOf is libpcp_web's choice of the nth percentile among n values
// sorted largest first: index n-1-int(n*pct/100), or the first when that
// rank is n.
func rankOf(n, pct int) int {
	rank := int(float64(pct) / 100 * float64(n))
	if rank >= n {
		return 0
	}
	return n - 1 - rank
}

func sortedDesc(vals []float64) []int {
	return topIndexes(vals, len(vals))
}

func percentileSample(ss *sset, pct int) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		if len(smp) == 0 {
			continue
		}
		vals := make([]float64, len(smp))
		for i, v := range smp {
			vals[i] = cfloat(v.data)
		}
		order := sortedDesc(vals)
		out.samples[j] = []ival{smp[order[rankOf(len(order), pct)]]}
	}
	return &out
}

func percentileInst(ss *sset, pct int) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) > 0 {
		nInst := len(in[0])
		res := make([]ival, 0, nInst)
		for i := 0; i < nInst; i++ {
			var vals []float64
			var from []int
			for j := range in {
				if len(in[j]) == nInst {
					vals = append(vals, cfloat(in[j][i].data))
					from = append(from, j)
				}
			}
			order := sortedDesc(vals)
			res = append(res, in[from[order[rankOf(len(order), pct)]]][i])
		}
		out.samples, out.num = [][]ival{res}, 1
	}
	return &out
}
