package archive

import (
	"runtime"
	"time"
)

// A goroutine that runs 10 ms without passing through the scheduler is
// preempted by a signal from the runtime's monitor, whose handler looks
// up the interrupted function's tables in the binary's .gopclntab, and
// the kernel maps each page of those it touches 64 KB around
// (fault-around): resident memory that a replay pays for each preemption
// at a fresh place. pminfo -a 20180415.09.16 -f, which reads the archive
// on one goroutine for 85-130 ms of CPU at load 8 (the monitor counts
// time off CPU too), ended with 0.97-1.67 MB of its read-only data
// resident, 0.74 MB with GODEBUG=asyncpreemptoff=1, and its peak went
// with it. A reader yields instead, well inside those 10 ms: the
// scheduler's pass restarts the monitor's count and no signal is sent
// (0.74-1.23 MB: a thread kept off CPU for 10 ms by the load is still
// preempted).
//
// On this machine's guest a yield with nothing else to run costs about
// 0.23 us and a read of the clock 0.15-0.23 us, as much as decoding a
// small record, so the clock is read every yieldReads records.

const (
	// yieldEvery is how long a reader's goroutine reads before it
	// yields.
	yieldEvery = 2 * time.Millisecond
	// yieldReads is how many records are read between looks at the
	// clock: 16 records of the 100 MB archive's 41 KB take about 0.3 ms.
	yieldReads = 16
)

// yield counts a record read and gives way to the scheduler when
// yieldEvery has passed since the reader last did (or first looked).
func (r *Reader) yield() {
	if r.reads++; r.reads%yieldReads != 0 {
		return
	}
	now := time.Now()
	if r.yieldAt.IsZero() {
		r.yieldAt = now
		return
	}
	if now.Sub(r.yieldAt) >= yieldEvery {
		r.yieldAt = now
		runtime.Gosched()
	}
}
