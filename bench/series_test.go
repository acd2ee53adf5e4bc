package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// redisCPU is a Redis server's own CPU time so far.
func redisCPU(t *testing.T, c *redis.Client) time.Duration {
	info, err := c.Info(context.Background(), "cpu").Result()
	if err != nil {
		t.Fatal(err)
	}
	var total float64
	for _, line := range strings.Split(info, "\r\n") {
		k, v, _ := strings.Cut(line, ":")
		if k == "used_cpu_sys" || k == "used_cpu_user" {
			f, _ := strconv.ParseFloat(v, 64)
			total += f
		}
	}
	return time.Duration(total * float64(time.Second))
}

// TestSeriesLoadSideBySide loads QA archives into Redis with PCP's
// pmseries --load and with ours, each into its own private redis-server
// emptied before every round, ROUNDS times, and reports the median wall
// time of each load, the loader's peak resident memory, the Redis
// server's CPU for the load, and the ratio of the wall times.
//
//	GOPCP_BENCH=1 go test -run TestSeriesLoadSideBySide -v ./bench/
func TestSeriesLoadSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("set GOPCP_BENCH=1 to run the side-by-side benchmarks")
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	pcpBin := pcptest.NeedTool(t, "pmseries")
	dir := t.TempDir()
	ours := filepath.Join(dir, "gopcp-pmseries")
	if b, err := exec.Command("go", "build", "-o", ours, "github.com/gopcp/gopcp/cmd/pmseries").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	conf := filepath.Join(dir, "pmseries.conf")
	if err := os.WriteFile(conf, []byte("[pmseries]\nenabled = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer c.Close()
	for _, a := range []string{"20180102", "bozo-20170904", "pcp-zeroconf"} {
		path := filepath.Join("/var/lib/pcp/testsuite/archives", a)
		var wall, cpu, self [2][]time.Duration
		var rss [2]int64
		for r := 0; r < rounds; r++ {
			for side, bin := range []string{pcpBin, ours} {
				if err := c.FlushAll(context.Background()).Err(); err != nil {
					t.Fatal(err)
				}
				before := redisCPU(t, c)
				cmd := exec.Command(bin, "-c", conf, "-p", strconv.Itoa(srv.Port), "--load", path)
				start := time.Now()
				out, err := cmd.CombinedOutput()
				w := time.Since(start)
				if err != nil {
					t.Fatalf("%s --load %s: %v\n%s", bin, a, err, out)
				}
				wall[side] = append(wall[side], w)
				cpu[side] = append(cpu[side], redisCPU(t, c)-before)
				self[side] = append(self[side], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					rss[side] = max(rss[side], ru.Maxrss)
				}
			}
		}
		med := func(d []time.Duration) time.Duration { slices.Sort(d); return d[len(d)/2] }
		vols, _ := filepath.Glob(path + ".[0-9]*")
		size := int64(0)
		for _, v := range vols {
			if st, err := os.Stat(v); err == nil {
				size += st.Size()
			}
		}
		pw, ow := med(wall[0]), med(wall[1])
		pc, oc := med(self[0])+med(cpu[0]), med(self[1])+med(cpu[1])
		t.Logf("%s (%d bytes of data volumes as stored): PCP's pmseries --load %v wall, CPU %v + Redis %v, peak RSS %d KB; "+
			"ours %v wall, CPU %v + Redis %v, peak RSS %d KB; ours %.1fx faster in wall time, %.1fx in CPU (loader and Redis)",
			a, size, pw, med(self[0]), med(cpu[0]), rss[0], ow, med(self[1]), med(cpu[1]), rss[1],
			float64(pw)/float64(ow), float64(pc)/float64(oc))
	}
}
