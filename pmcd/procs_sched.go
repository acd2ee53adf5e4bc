package pmcd

import (
	"bytes"
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
