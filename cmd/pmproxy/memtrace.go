//go:build memtrace

package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime/metrics"
	"strings"
	"time"
)

// Built with -tags memtrace, pmproxy writes the runtime's memory figures
// to standard error every 100 ms, with its anonymous resident memory, so
// that a measurement can say what the process's memory is made of at
// each point of a churn or a burst.
func init() {
	names := []string{
		"/gc/heap/live:bytes",
		"/gc/heap/goal:bytes",
		"/gc/gomemlimit:bytes",
		"/memory/classes/heap/objects:bytes",
		"/memory/classes/heap/unused:bytes",
		"/memory/classes/heap/free:bytes",
		"/memory/classes/heap/released:bytes",
		"/memory/classes/heap/stacks:bytes",
		"/memory/classes/os-stacks:bytes",
		"/memory/classes/metadata/mspan/inuse:bytes",
		"/memory/classes/metadata/mcache/inuse:bytes",
		"/memory/classes/metadata/other:bytes",
		"/memory/classes/other:bytes",
		"/memory/classes/total:bytes",
		"/gc/cycles/total:gc-cycles",
		"/gc/heap/allocs:bytes",
		"/gc/heap/allocs:objects",
		"/sched/goroutines:goroutines",
		"/cpu/classes/gc/total:cpu-seconds",
		"/cpu/classes/scavenge/total:cpu-seconds",
		"/cpu/classes/user:cpu-seconds",
	}
	short := []string{"live", "goal", "limit", "objects", "unused", "free", "released", "stacks", "osstacks", "mspan", "mcache", "metaother", "other", "total", "gcs", "allocs", "allocobjs", "goroutines", "gccpu", "scavcpu", "usercpu"}
	s := make([]metrics.Sample, len(names))
	for i, n := range names {
		s[i].Name = n
	}
	go func() {
		var b bytes.Buffer
		for range time.Tick(100 * time.Millisecond) {
			metrics.Read(s)
			b.Reset()
			fmt.Fprintf(&b, "memtrace %d", time.Now().UnixMilli())
			for i := range s {
				switch s[i].Value.Kind() {
				case metrics.KindUint64:
					fmt.Fprintf(&b, " %s=%d", short[i], s[i].Value.Uint64())
				case metrics.KindFloat64:
					fmt.Fprintf(&b, " %s=%.4f", short[i], s[i].Value.Float64())
				}
			}
			st, _ := os.ReadFile("/proc/self/status")
			for _, l := range strings.Split(string(st), "\n") {
				if f := strings.Fields(l); len(f) >= 2 && (f[0] == "RssAnon:" || f[0] == "Threads:") {
					fmt.Fprintf(&b, " %s%s", strings.ToLower(strings.TrimSuffix(f[0], ":")), "="+f[1])
				}
			}
			b.WriteByte('\n')
			os.Stderr.Write(b.Bytes())
		}
	}()
}
