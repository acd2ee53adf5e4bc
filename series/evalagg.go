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

// column is instance k's values over the samples (in order) that hold
// nInst instances, and the indexes of those samples: PCP passes over the
// samples with another number of instances than the first.
func column(in [][]ival, nInst, k int) (vals []float64, from []int) {
	for j := range in {
		if len(in[j]) == nInst {
			vals = append(vals, cfloat(in[j][k].data))
			from = append(from, j)
		}
	}
	return vals, from
}

// valuesOf is a sample's values, one per instance.
func valuesOf(smp []ival) []float64 {
	vals := make([]float64, len(smp))
	for i, v := range smp {
		vals[i] = cfloat(v.data)
	}
	return vals
}

// perInst is a function over time: one sample holding, for each
// instance of the first sample, what f makes of its column; none when
// there are no samples.
func perInst(ss *sset, f func(in [][]ival, k int, vals []float64, from []int) ival) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) == 0 {
		return &out
	}
	nInst := len(in[0])
	res := make([]ival, nInst)
	for k := range nInst {
		vals, from := column(in, nInst, k)
		res[k] = f(in, k, vals, from)
	}
	out.samples, out.num = [][]ival{res}, 1
	return &out
}

// perSample is a function across instances: each sample replaced by what
// f makes of it, an empty sample left empty.
func perSample(ss *sset, f func(smp []ival) []ival) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples = make([][]ival, len(in))
	out.num = len(in)
	for j, smp := range in {
		if len(smp) > 0 {
			out.samples[j] = f(smp)
		}
	}
	return &out
}

// extreme is the index of the largest (isMax) or smallest of vals, the
// first of equals; a NaN is never passed and passes nothing.
func extreme(vals []float64, isMax bool) int {
	best := 0
	for i, v := range vals {
		if isMax && vals[best] < v || !isMax && vals[best] > v {
			best = i
		}
	}
	return best
}

// pickInst is max/min over time for each instance: one sample of each
// instance's extreme value, at its time.
func pickInst(ss *sset, isMax bool) *sset {
	return perInst(ss, func(in [][]ival, k int, vals []float64, from []int) ival {
		return in[from[extreme(vals, isMax)]][k]
	})
}

// pickSample is max/min across instances at each sample; a sample with
// another number of instances than the first gives its first.
func pickSample(ss *sset, isMax bool) *sset {
	in := samplesIn(ss)
	return perSample(ss, func(smp []ival) []ival {
		best := 0
		if len(smp) == len(in[0]) {
			best = extreme(valuesOf(smp), isMax)
		}
		return []ival{smp[best]}
	})
}

// sumOf is the sum of vals, or their average over n.
func sumOf(vals []float64, avg bool, n int) float64 {
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	if avg {
		sum /= float64(n)
	}
	return sum
}

// statDesc is the descriptor of a sum (a double) or an average (also
// instant).
func statDesc(out *sset, avg bool) *sset {
	out.desc.typ = "double"
	if avg {
		out.desc.sem = "instant"
	}
	return out
}

// statInst is sum/avg over time; the average divides by every sample,
// as PCP's does, counted or not.
func statInst(ss *sset, avg bool) *sset {
	n := len(samplesIn(ss))
	return statDesc(perInst(ss, func(in [][]ival, k int, vals []float64, _ []int) ival {
		v := in[0][k]
		v.data = pcp.FormatFloat(sumOf(vals, avg, n), 'e', 6)
		return v
	}), avg)
}

// statSample is sum/avg across instances.
func statSample(ss *sset, avg bool) *sset {
	return statDesc(perSample(ss, func(smp []ival) []ival {
		return []ival{{stamp: smp[0].stamp, ts: smp[0].ts, data: pcp.FormatFloat(sumOf(valuesOf(smp), avg, len(smp)), 'e', 6)}}
	}), avg)
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

// instantDouble gives a set the descriptor of a computed statistic.
func instantDouble(out *sset) *sset {
	out.desc.typ, out.desc.sem = "double", "instant"
	return out
}

func stdevInst(ss *sset) *sset {
	return instantDouble(perInst(ss, func(in [][]ival, k int, vals []float64, _ []int) ival {
		v := in[0][k]
		v.data = pcp.FormatFloat(stdev(vals), 'e', 6)
		return v
	}))
}

func stdevSample(ss *sset) *sset {
	return instantDouble(perSample(ss, func(smp []ival) []ival {
		return []ival{{stamp: smp[0].stamp, ts: smp[0].ts, data: pcp.FormatFloat(stdev(valuesOf(smp)), 'e', 6)}}
	}))
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
	return instantDouble(perSample(ss, func(smp []ival) []ival {
		var top []ival
		for _, i := range topIndexes(valuesOf(smp), k) {
			top = append(top, smp[i])
		}
		return top
	}))
}

// topkInst is, for each instance, its k largest values over time: one
// sample per instance holding them.
func topkInst(ss *sset, k int) *sset {
	in := samplesIn(ss)
	out := *ss
	out.samples, out.num = nil, 0
	if len(in) > 0 {
		nInst := len(in[0])
		for i := range nInst {
			vals, from := column(in, nInst, i)
			var smp []ival
			for _, x := range topIndexes(vals, k) {
				smp = append(smp, in[from[x]][i])
			}
			out.samples = append(out.samples, smp)
		}
		out.num = len(out.samples)
	}
	return instantDouble(&out)
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

// percentile is the index in vals of their nth percentile.
func percentile(vals []float64, pct int) int {
	order := topIndexes(vals, len(vals))
	return order[rankOf(len(order), pct)]
}

func percentileSample(ss *sset, pct int) *sset {
	return perSample(ss, func(smp []ival) []ival {
		return []ival{smp[percentile(valuesOf(smp), pct)]}
	})
}

func percentileInst(ss *sset, pct int) *sset {
	return perInst(ss, func(in [][]ival, k int, vals []float64, from []int) ival {
		return in[from[percentile(vals, pct)]][k]
	})
}
