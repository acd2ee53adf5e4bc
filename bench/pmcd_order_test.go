package bench

import (
	"fmt"
	"slices"
)

// serviceOrder is how evenly a daemon served its clients over a load,
// counted rather than timed, so that the machine's load changes it less
// than it changes latencies: PCP's pmcd serves the clients select()
// reports ready in descriptor order, each once a turn, so that with n
// clients a request waits for at most about 2(n-1) others' answers
// (the rest of the turn it came in, and the next); a daemon that serves
// some clients several times while others wait shows more.
type serviceOrder struct {
	// others are, sorted, the answers other clients received while each
	// request waited for its own (from its send to its answer, as the
	// bench's clients saw them).
	others []int32
	// minShare and maxShare are the fewest and most fetches one client
	// made over the load, each as a share of the clients' mean.
	minShare, maxShare float64
}

// orderOf is the service order of per-client counts of others' answers
// during each request.
func orderOf(others [][]int32) serviceOrder {
	var o serviceOrder
	total := 0
	for _, l := range others {
		total += len(l)
		o.others = append(o.others, l...)
	}
	slices.Sort(o.others)
	if total == 0 {
		return o
	}
	mean := float64(total) / float64(len(others))
	o.minShare, o.maxShare = 2, 0
	for _, l := range others {
		f := float64(len(l)) / mean
		o.minShare, o.maxShare = min(o.minShare, f), max(o.maxShare, f)
	}
	return o
}

// String is "p50/p99/p99.9/max of others' answers, min-max share": the
// service order of one run.
func (o serviceOrder) String() string {
	q := func(f float64) int32 {
		if len(o.others) == 0 {
			return 0
		}
		return o.others[min(len(o.others)-1, int(f*float64(len(o.others))))]
	}
	return fmt.Sprintf("%d/%d/%d/%d %.2f-%.2f", q(0.5), q(0.99), q(0.999), q(1), o.minShare, o.maxShare)
}
