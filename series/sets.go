package series

import (
	"bytes"
	"slices"
)

// The set operations of libpcp_web's query evaluation, kept exactly
// because pmseries prints a query's series in the order they leave:
// the larger operand is sorted in place, the smaller keeps its order.

func cmpID(a, b ID) int { return bytes.Compare(a[:], b[:]) }

func has(sorted []ID, x ID) bool {
	_, ok := slices.BinarySearchFunc(sorted, x, cmpID)
	return ok
}

// unionSets is series_union: the larger set sorted, then the smaller's
// members it lacks in their order.
func unionSets(a, b []ID) []ID {
	large, small := a, b
	if len(a) < len(b) {
		large, small = b, a
	}
	slices.SortFunc(large, cmpID)
	out := large
	var extra []ID
	for _, x := range small {
		if !has(large, x) {
			extra = append(extra, x)
		}
	}
	return append(out, extra...)
}

// intersectSets is series_intersect: the smaller set's members the larger
// has, in the smaller's order.
func intersectSets(a, b []ID) []ID {
	large, small := a, b
	if len(a) < len(b) {
		large, small = b, a
	}
	slices.SortFunc(large, cmpID)
	var out []ID
	for _, x := range small {
		if has(large, x) {
			out = append(out, x)
		}
	}
	return out
}
