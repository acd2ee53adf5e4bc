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
// with it. Readers and the metadata loader yield instead, well inside
// those 10 ms: the scheduler's pass restarts the monitor's count and no
// signal is sent (0.74-1.23 MB: a thread kept off CPU for 10 ms by the
// load is still preempted). The loader yields as it ends too, so that
// what a tool does between opening and reading has the 10 ms to itself:
// pmval's preemptions (perf record of its page faults) fell in the
// metadata load and in the derived metrics' set-up after it.
//
// On this machine's guest a yield with nothing else to run costs about
// 0.23 us and a read of the clock 0.15-0.23 us, as much as decoding a
// small record, so the clock is read every yieldReads records.

const (
	// yieldEvery is how long a reading goroutine goes before it yields.
	yieldEvery = 2 * time.Millisecond
	// yieldReads is how many records are read between looks at the
	// clock: 16 records of the 100 MB archive's 41 KB take about 0.3 ms.
	yieldReads = 16
)

// yielder counts the records a goroutine reads and has it yield every
// yieldEvery or so.
type yielder struct {
	at    time.Time // when it last yielded, or first looked
	count uint32    // the records counted
}

// tick counts a record read and gives way to the scheduler when
// yieldEvery has passed since the last yield (or the first look).
func (y *yielder) tick() {
	if y.count++; y.count%yieldReads != 0 {
		return
	}
	now := time.Now()
	if y.at.IsZero() {
		y.at = now
		return
	}
	if now.Sub(y.at) >= yieldEvery {
		y.at = now
		runtime.Gosched()
	}
}
