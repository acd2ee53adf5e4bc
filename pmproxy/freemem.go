package pmproxy

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Web contexts come and go by the thousand and each request leaves its
// buffers behind; the runtime returns freed pages to the system slowly
// and only above its heap goal, so after a churn or a burst the process
// stayed as large as during it. A forced collection and return puts the
// resident size back near what is alive. It costs a collection, so it
// is done only when something was allocated since the last one: an idle
// pmproxy (the statistics file written each second allocates a few KiB)
// would otherwise be collected every period for nothing (measured: 12
// forced collections and 3 ticks of CPU a minute idle).

// freeAfterBytes is what must have been allocated since the last
// hand-back for the next one to be worth a collection.
const freeAfterBytes = 256 << 10

// memTrimmer hands freed memory back to the system when enough was
// allocated since it last did; its zero value is ready.
type memTrimmer struct {
	last    uint64 // cumulative bytes allocated at the last hand-back
	samples []metrics.Sample
}

// allocated is the cumulative count of bytes the heap has allocated.
func (m *memTrimmer) allocated() uint64 {
	if m.samples == nil {
		m.samples = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	}
	metrics.Read(m.samples)
	if m.samples[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return m.samples[0].Value.Uint64()
}

// trim hands memory back if enough was allocated since the last time,
// and says whether it did.
func (m *memTrimmer) trim() bool {
	if a := m.allocated(); a-m.last < freeAfterBytes && m.last != 0 {
		return false
	}
	debug.FreeOSMemory()
	// What the collection itself allocated is not counted against the
	// next period.
	m.last = m.allocated()
	return true
}

// ReturnFreedMemory hands memory the program no longer uses back to the
// system every period while allocation goes on, until ctx is done.
func ReturnFreedMemory(ctx context.Context, period time.Duration) {
	var m memTrimmer
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.trim()
		}
	}
}
