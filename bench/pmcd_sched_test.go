package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// schedStat is what the scheduler counted for a set of threads
// (/proc/PID/task/TID/schedstat): time on a CPU, time runnable but
// waiting for one, and the number of times a thread was put on a CPU.
// The wait is the scheduler's share of a round trip's latency, which
// the CPU time does not show: on a machine others load, a daemon that
// is cheap per fetch can still wait long for its turn.
type schedStat struct {
	run, wait time.Duration
	slices    int64
}

func (s schedStat) sub(o schedStat) schedStat {
	return schedStat{run: s.run - o.run, wait: s.wait - o.wait, slices: s.slices - o.slices}
}

// treeSched sums schedStat over every thread of the processes in pids
// (threads that ended in between are lost: pmcd's and the bench's
// threads live through a load).
func treeSched(pids []int) schedStat {
	var s schedStat
	for _, p := range pids {
		dir := filepath.Join("/proc", strconv.Itoa(p), "task")
		tasks, _ := os.ReadDir(dir)
		for _, task := range tasks {
			b, err := os.ReadFile(filepath.Join(dir, task.Name(), "schedstat"))
			if err != nil {
				continue
			}
			f := strings.Fields(string(b))
			if len(f) < 3 {
				continue
			}
			run, _ := strconv.ParseInt(f[0], 10, 64)
			wait, _ := strconv.ParseInt(f[1], 10, 64)
			n, _ := strconv.ParseInt(f[2], 10, 64)
			s.run += time.Duration(run)
			s.wait += time.Duration(wait)
			s.slices += n
		}
	}
	return s
}
