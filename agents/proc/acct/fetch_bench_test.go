package acct

import (
	"fmt"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// benchSource is a Source over 50 processes that ended lately, and what
// the proc agent's fetch of every acct.* metric asks of it: one Refresh,
// then each metric's value for each process (or the control value).
func benchSource(tb testing.TB) (step func() int) {
	b := newBed(tb)
	var rs []rec
	for i := range 50 {
		rs = append(rs, rec{pid: uint32(100 + i), ppid: 1, uid: 0, gid: 0, btime: uint32(b.now.Unix()) - 2,
			etime: 100, utime: 7, stime: 3, mem: 512, comm: fmt.Sprintf("cmd%d", i)})
	}
	b.append(rs...)
	// Names as the proc agent gives them, from its caches (the
	// package's own default asks the system every time).
	b.s.opts.UserName = func(uint32) string { return "root" }
	b.s.opts.GroupName = func(uint32) string { return "root" }
	b.s.opts.TTYName = func(uint32) string { return "?" }
	var insts []pmda.Instance
	return func() int {
		b.s.Refresh()
		n := 0
		for i := range b.s.metrics {
			m := &b.s.metrics[i]
			if m.Desc.InDom == pcp.InDomNull {
				if _, err := b.s.Fetch(m, pcp.InstNull); err == nil {
					n++
				}
				continue
			}
			insts = b.s.AppendInstances(insts[:0])
			for _, in := range insts {
				if _, err := b.s.Fetch(m, in.ID); err == nil {
					n++
				}
			}
		}
		return n
	}
}

// TestBenchSourceValues: the benchmark's fetch has a value for every
// metric of every process (23 per process, and 6 control values).
func TestBenchSourceValues(t *testing.T) {
	step := benchSource(t)
	if n := step(); n != 50*23+6 {
		t.Fatalf("%d values, want %d", n, 50*23+6)
	}
}

// BenchmarkRefreshFetch is the acct part of one proc agent fetch of every
// acct.* metric over 50 processes (1156 values).
func BenchmarkRefreshFetch(b *testing.B) {
	step := benchSource(b)
	step()
	b.ReportAllocs()
	for b.Loop() {
		step()
	}
}
