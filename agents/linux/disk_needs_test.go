package linux

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestDiskSysfsReadWhatIsAsked: a refresh of the disk statistics reads a
// disk's scheduler and a zram device's statistics files only when the
// fetch asks for a metric made from them.
func TestDiskSysfsReadWhatIsAsked(t *testing.T) {
	x := fixture(t)
	var sched, zram int
	readHook = func(path string) ([]byte, error) {
		switch {
		case strings.HasSuffix(path, "/queue/scheduler"):
			sched++
		case strings.HasSuffix(path, "/zram0/io_stat"), strings.HasSuffix(path, "/zram0/mm_stat"), strings.HasSuffix(path, "/zram0/bd_stat"):
			zram++
		}
		b, err := os.ReadFile(path)
		if strings.HasSuffix(path, "/proc/diskstats") {
			b = append(b, " 252       0 zram0 5 0 40 0 1 0 8 0 0 0 0 0 0 0 0 0 0\n"...)
		}
		return b, err
	}
	defer func() { readHook = nil }()
	for _, tt := range []struct {
		metric      string
		sched, zram bool
	}{
		{"disk.dev.read", false, false},
		{"disk.dev.scheduler", true, false},
		{"disk.wwid.scheduler", true, false},
		{"zram.read", false, false},
		{"zram.io_stat.invalid", false, true},
		{"zram.mm_stat.mem.used_total", false, true},
	} {
		sched, zram = 0, 0
		if err := x.Refresh(context.Background(), []pcp.PMID{findDesc(tt.metric).desc(Domain).PMID}); err != nil {
			t.Fatal(err)
		}
		if (sched > 0) != tt.sched || (zram > 0) != tt.zram {
			t.Errorf("%s: %d scheduler and %d zram statistics reads; want them: %v, %v", tt.metric, sched, zram, tt.sched, tt.zram)
		}
	}
}
