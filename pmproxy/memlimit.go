package pmproxy

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The collector lets the heap grow to a goal between collections, and
// at GOGC=50 that goal is never below 2 MiB however little is live
// (the runtime's minimum heap, 4 MiB scaled by GOGC). pmproxy's live
// heap is 0.4-0.9 MiB idle and under churn, so most of its heap pages
// were garbage waiting for the goal. The runtime has no setting for the
// minimum alone; a soft memory limit is the one way to a lower goal.
// FollowLiveHeap sets that limit, after each collection, to what the
// process holds outside its heap plus its live heap and a margin, so
// that the goal is the live heap plus the larger of half of it (GOGC=50,
// unchanged for a large heap) and the margin, and the runtime also
// returns free pages above it promptly.
//
// Each collection costs CPU whatever the heap's size (measured on 2
// CPUs: 1.4 ms a cycle for a 1 MiB heap, most of it the other
// processor's idle mark worker), so a caller may ask for the margin to
// be never less than what the program allocates in a window: collections
// then come at most about every window while the limit holds, and when
// requests come fast the margin outgrows GOGC's minimum and the limit
// has no effect, so throughput is not traded for memory. cmd/pmproxy
// asks for no window: the heap a burst of requests grew to was resident
// when the burst ended, and it takes the collections' CPU instead.

// Runtime figures FollowLiveHeap reads (runtime/metrics names).
var limitMetrics = []string{
	"/memory/classes/total:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/free:bytes",
	"/memory/classes/heap/objects:bytes",
	"/gc/heap/live:bytes",
	"/gc/heap/allocs:bytes",
}

// memFigures are the runtime's figures a limit is computed from.
type memFigures struct {
	total    uint64 // everything the runtime has mapped
	released uint64 // heap pages handed back to the system
	free     uint64 // free heap pages not handed back
	objects  uint64 // heap object bytes, dead and not yet swept included
	live     uint64 // heap marked live by the last collection
	allocs   uint64 // bytes allocated since the program started
}

// limitHeadroom is what the runtime keeps between a memory limit's heap
// goal and the limit (its memoryLimitMinHeapGoalHeadroom, or 3% of the
// room when that is more; Go 1.26's mgcpacer.go).
func limitHeadroom(room uint64) uint64 {
	return max(1<<20, room/100*3)
}

// followLimit is the memory limit whose heap goal is the live heap plus
// the larger of gcPercent of it and margin: the runtime takes its goal
// under a limit as the limit less what is mapped outside the heap's
// objects and free pages, less its headroom.
func followLimit(m memFigures, gcPercent int, margin uint64) int64 {
	ready := m.total - m.released
	nonHeap := ready - min(ready, m.free+m.objects)
	want := m.live + max(m.live*uint64(max(gcPercent, 0))/100, margin)
	// The headroom is a share of the room it is taken from: solve
	// room = want + headroom(room) from below, rounding up.
	room := want + limitHeadroom(want)
	for room-limitHeadroom(room) < want {
		room += 64 << 10
	}
	l := nonHeap + room
	if l < ready {
		// Mapped past the limit (free pages not yet returned, objects
		// not yet swept), the runtime takes the excess off the goal
		// too; the limit that still gives the goal wanted is halfway.
		l = (ready + l) / 2
	}
	if l > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(l)
}

// readFigures reads the runtime's figures into m through s.
func readFigures(s []metrics.Sample) memFigures {
	metrics.Read(s)
	v := func(i int) uint64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return s[i].Value.Uint64()
	}
	return memFigures{total: v(0), released: v(1), free: v(2), objects: v(3), live: v(4), allocs: v(5)}
}

// gcNotify arranges a send on c (without waiting) after the next
// collection, and again after each one after it until stop is closed:
// a finalizer runs once the collector has found its object unreachable.
func gcNotify(c chan<- struct{}, stop <-chan struct{}) {
	// A pointer keeps the object out of the tiny allocator, whose
	// objects share a block and may never be finalized.
	s := &struct{ p *int }{}
	runtime.SetFinalizer(s, func(*struct{ p *int }) {
		select {
		case <-stop:
			return
		default:
		}
		select {
		case c <- struct{}{}:
		default:
		}
		gcNotify(c, stop)
	})
}

// marginFor is the heap's margin past its live bytes: at least least,
// and at least what allocating allocated bytes in elapsed would allocate
// in window.
func marginFor(allocated uint64, elapsed, window time.Duration, least uint64) uint64 {
	if elapsed <= 0 {
		return least
	}
	rate := float64(allocated) / elapsed.Seconds()
	return max(least, uint64(rate*window.Seconds()))
}

// FollowLiveHeap keeps the runtime's memory limit at what the process
// maps outside its heap plus its live heap and the larger of gcPercent
// of it and a margin (at least least, and at least what the program
// allocated in window at the rate of the last collection's interval),
// set after each collection, until ctx is done; then
// the limit is put back as it was. updated, if not nil, is called after
// each setting (tests wait on it).
func FollowLiveHeap(ctx context.Context, gcPercent int, least uint64, window time.Duration, updated func(limit int64)) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	s := make([]metrics.Sample, len(limitMetrics))
	for i, n := range limitMetrics {
		s[i].Name = n
	}
	gcs := make(chan struct{}, 1)
	stop := make(chan struct{})
	defer close(stop)
	gcNotify(gcs, stop)
	var lastAllocs uint64
	var last time.Time
	set := func() {
		m, now := readFigures(s), time.Now()
		margin := least
		if !last.IsZero() {
			margin = marginFor(m.allocs-lastAllocs, now.Sub(last), window, least)
		}
		lastAllocs, last = m.allocs, now
		l := followLimit(m, gcPercent, margin)
		debug.SetMemoryLimit(l)
		if updated != nil {
			updated(l)
		}
	}
	// Not at once: the limit starts with the first collection, so that
	// starting up (a megabyte or so allocated and mostly dropped) is
	// not collected at a 1 MiB goal; those early collections left
	// 0.5 MiB more of the runtime's own structures resident idle.
	for {
		select {
		case <-ctx.Done():
			return
		case <-gcs:
			set()
		}
	}
}
