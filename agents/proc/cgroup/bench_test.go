package cgroup

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// BenchmarkRefreshAll: one refresh of every cgroup cluster on a
// cgroup2-only tree of 1,000 cgroups with the usual files.
func BenchmarkRefreshAll(b *testing.B) {
	root := benchTree(b, map[string]string{
		"cpu.stat":        "usage_usec 100\nuser_usec 60\nsystem_usec 40\nnr_periods 0\n",
		"memory.stat":     "anon 1\nfile 2\nkernel_stack 3\nsock 4\nshmem 5\nfile_mapped 6\npgfault 7\npgmajfault 8\n",
		"io.stat":         "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=5 dios=6\n",
		"cpu.pressure":    "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
		"io.pressure":     "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
		"memory.pressure": "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	})
	s := New(Options{Root: root})
	var all []pcp.PMID
	for _, m := range s.metrics {
		all = append(all, m.Desc.PMID)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Refresh(all)
	}
	b.ReportMetric(float64(s.caches[InDomCgroup2].SizeActive()), "cgroups")
}

// benchTree writes a cgroup2-only tree of 1,000 cgroups (20 groups of 50)
// below a new directory, each cgroup with files (name to contents), and
// returns its root.
func benchTree(b *testing.B, files map[string]string) string {
	root := b.TempDir()
	write := func(p, s string) {
		p = filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("proc/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n")
	write("proc/diskstats", "8 0 sda 1 2 3 4\n")
	for i := range 1000 {
		dir := fmt.Sprintf("sys/fs/cgroup/s%d/g%d", i/50, i)
		for f, body := range files {
			write(dir+"/"+f, body)
		}
	}
	return root
}
