package webapi

import (
	"sync"

	"github.com/gopcp/gopcp/pcp"
)

// resultPool keeps fetch results between requests: decoding into a
// result whose sets, values and value storage have room allocates
// nothing, where a new result for each fetch grew them all again (a
// sixth of what a two-metric fetch allocated). What is answered is
// copied out of the result (encodeValue) before it goes back.
var resultPool = sync.Pool{New: func() any { return new(pcp.Result) }}

// Bounds on what a pooled result keeps: one that grew past them (a
// scrape of a large namespace) is left to the collector.
const (
	pooledSets   = 1024
	pooledValues = 4096
	pooledArena  = 64 << 10
)

func getResult() *pcp.Result {
	r := resultPool.Get().(*pcp.Result)
	r.Reset()
	return r
}

func putResult(r *pcp.Result) {
	if cap(r.Sets) > pooledSets || cap(r.Arena(0)) > pooledArena {
		return
	}
	values := 0
	for _, s := range r.Sets[:cap(r.Sets)] {
		values += cap(s.Values)
	}
	if values > pooledValues {
		return
	}
	r.Reset()
	resultPool.Put(r)
}
