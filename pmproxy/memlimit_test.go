package pmproxy

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// runtimeLimitGoal is the heap goal Go 1.26's pacer derives from a memory
// limit (mgcpacer.go, memoryLimitHeapGoal), written out here so that
// followLimit is checked against it rather than against itself.
func runtimeLimitGoal(limit uint64, m memFigures) uint64 {
	ready := m.total - m.released
	nonHeap := ready - m.free - m.objects
	var overage uint64
	if ready > limit {
		overage = ready - limit
	}
	if nonHeap+overage >= limit {
		return m.live
	}
	goal := limit - (nonHeap + overage)
	headroom := max(goal/100*3, 1<<20)
	if goal < headroom || goal-headroom < headroom {
		goal = headroom
	} else {
		goal -= headroom
	}
	return max(goal, m.live)
}

// TestFollowLimitGoal: the limit's heap goal is the live heap plus the
// larger of half of it and the margin, small heaps and large, whatever
// the runtime maps outside the heap (a goal under 1 MiB is the runtime's
// own floor under a limit, and 1 MiB is what it then takes).
func TestFollowLimitGoal(t *testing.T) {
	const margin = 512 << 10
	cases := []struct {
		name string
		m    memFigures
		want uint64
	}{
		{"idle", memFigures{total: 6 << 20, released: 1 << 20, free: 256 << 10, objects: 700 << 10, live: 400 << 10}, 1 << 20},
		{"churn", memFigures{total: 8 << 20, released: 512 << 10, free: 1 << 20, objects: 1800 << 10, live: 900 << 10}, 900<<10 + margin},
		{"large", memFigures{total: 90 << 20, released: 4 << 20, free: 8 << 20, objects: 60 << 20, live: 40 << 20}, 60 << 20},
		{"huge", memFigures{total: 3 << 30, released: 0, free: 0, objects: 2 << 30, live: 1 << 30}, 3 << 29},
		{"nothing free", memFigures{total: 5 << 20, released: 0, free: 0, objects: 2 << 20, live: 2 << 20}, 3 << 20},
	}
	for _, c := range cases {
		l := followLimit(c.m, 50, margin)
		got := runtimeLimitGoal(uint64(l), c.m)
		// The limit is rounded up to 64 KiB steps of room.
		if got < c.want || got > c.want+64<<10+c.want/30 {
			t.Errorf("%s: limit %d gives goal %d, want %d", c.name, l, got, c.want)
		}
	}
}

// TestFollowLiveHeap: after a collection the limit is set (the goal
// follows the live heap, below the 2 MiB minimum GOGC=50 alone keeps for
// a small heap), again after the next, and put back when done.
func TestFollowLiveHeap(t *testing.T) {
	prevGC := debug.SetGCPercent(50)
	defer debug.SetGCPercent(prevGC)
	before := debug.SetMemoryLimit(-1)
	ctx, cancel := context.WithCancel(context.Background())
	updates := make(chan int64, 16)
	done := make(chan struct{})
	go func() {
		FollowLiveHeap(ctx, 50, 512<<10, time.Nanosecond, func(l int64) { updates <- l })
		close(done)
	}()
	// collect collects until the follower has set the limit after a
	// collection: it may not have armed its notice before the first.
	collect := func() {
		for i := 0; i < 1000; i++ {
			runtime.GC()
			select {
			case <-updates:
				return
			default:
				runtime.Gosched()
			}
		}
		t.Fatal("no limit set after 1,000 collections")
	}
	goal := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/gc/heap/live:bytes"}}
	for i := 0; i < 2; i++ {
		collect()
		if got := debug.SetMemoryLimit(-1); got == math.MaxInt64 {
			t.Errorf("collection %d: no limit set", i+1)
		}
	}
	// The next cycle's goal is computed with the limit in force.
	collect()
	metrics.Read(goal)
	g, live := goal[0].Value.Uint64(), goal[1].Value.Uint64()
	t.Logf("live %d KiB, goal %d KiB", live>>10, g>>10)
	if want := max(live+live/2, live+512<<10, 1<<20) + 256<<10; g > want {
		t.Errorf("goal %d with %d live, want at most %d", g, live, want)
	}
	cancel()
	<-done
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit after: %d, want %d as before", got, before)
	}
}

// TestMarginFor: the margin is the least one until allocation in a
// window outgrows it.
func TestMarginFor(t *testing.T) {
	const least = 512 << 10
	cases := []struct {
		allocated uint64
		elapsed   time.Duration
		want      uint64
	}{
		{0, time.Second, least},
		{1 << 20, time.Second, least},              // 1 MiB/s: 100 KiB a window
		{2 << 20, 100 * time.Millisecond, 2 << 20}, // 20 MiB/s
		{40 << 20, 2 * time.Second, 2 << 20},       // the same rate
		{10 << 20, 0, least},                       // no interval to judge by
		{6 << 20, time.Second, 629145},             // 614 KiB
	}
	for _, c := range cases {
		if got := marginFor(c.allocated, c.elapsed, 100*time.Millisecond, least); got != c.want {
			t.Errorf("marginFor(%d, %v) = %d, want %d", c.allocated, c.elapsed, got, c.want)
		}
	}
}
