package pmcd

import (
	"bytes"
	"math"
	"os"
	"strconv"
	"time"
)

// ThreadsSched is what the kernel counted for the process's threads
// alive now (/proc/self/task/*/schedstat): time on a CPU and time
// runnable but waiting for one, summed; ok is false where the kernel
// does not count them (no schedstat, or not Linux, or sched_info off,
// where every thread's line is "0 0 0": a process that is running has
// run for some time). A Server's
// ProcsSched, for cmd/pmcd: the scaler reads it once a busy window.
func ThreadsSched() (run, wait time.Duration, ok bool) {
	return threadsSched("/proc/self/task")
}

// threadsSched is ThreadsSched for the task directory dir.
func threadsSched(dir string) (run, wait time.Duration, ok bool) {
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, false
	}
	// A schedstat line is three numbers: well under this.
	var buf [128]byte
	for _, t := range tasks {
		f, err := os.Open(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			// A thread that ended meanwhile; its time is lost, which
			// the scaler allows for (a window's counts never go back).
			continue
		}
		n, _ := f.Read(buf[:])
		f.Close()
		r, w, good := parseSchedstat(buf[:n])
		if !good {
			continue
		}
		run += r
		wait += w
		ok = true
	}
	if run == 0 {
		return 0, 0, false
	}
	return run, wait, ok
}

// parseSchedstat reads a schedstat line, "run wait slices" with the
// times in nanoseconds.
func parseSchedstat(b []byte) (run, wait time.Duration, ok bool) {
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0, 0, false
	}
	r, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil || r < 0 {
		return 0, 0, false
	}
	w, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil || w < 0 {
		return 0, 0, false
	}
	return time.Duration(r), time.Duration(w), true
}

// MachineIdle is the time the machine's CPUs have been idle, all
// together (/proc/stat's first line, idle and iowait); ok is false where
// it cannot be read. A Server's ProcsIdle, for cmd/pmcd.
//
// It is not monotonic: the kernel documents that iowait can go back
// (the time a CPU spent idle is moved between iowait and idle as tasks
// waiting for I/O come and go), so a later reading can be smaller than
// an earlier one. A reader takes such a window as unknown (IdleWindow).
func MachineIdle() (idle time.Duration, ok bool) {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	// The first line, "cpu" and ten numbers, fits: the rest is not read.
	var buf [256]byte
	n, _ := f.Read(buf[:])
	return parseStatIdle(buf[:n])
}

// userHZ is the unit of /proc/stat's times, USER_HZ: 100 on every Linux
// (the kernel reports in it whatever its own tick).
const userHZ = 100

// parseStatIdle reads the idle and iowait times from the start of
// /proc/stat.
func parseStatIdle(b []byte) (time.Duration, bool) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 6 || string(f[0]) != "cpu" {
		return 0, false
	}
	// Beyond what a Duration holds (292 years of one CPU's idle time)
	// the count is not used.
	const most = math.MaxInt64 / int64(time.Second/userHZ)
	var ticks int64
	for _, v := range f[4:6] {
		t, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || t < 0 || t > most-ticks {
			return 0, false
		}
		ticks += t
	}
	return time.Duration(ticks) * (time.Second / userHZ), true
}

// IdleWindow is the idle time between two readings of MachineIdle,
// from then to now; ok is false where now is smaller, which the kernel
// allows (see MachineIdle): that window's idle time is unknown, not
// negative.
func IdleWindow(then, now time.Duration) (time.Duration, bool) {
	if now < then {
		return 0, false
	}
	return now - then, true
}
