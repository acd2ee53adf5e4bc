package pmval

import (
	"context"
	"io"
	"runtime"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestSampleAllocs: once running, pmval allocates nothing a sample while
// replaying an archive: two runs that differ only in their number of
// samples (at a step so short that both stay between the same two
// records) allocate the same, for counters of every type as rates and
// raw, and for a metric of many instances.
func TestSampleAllocs(t *testing.T) {
	archive := clitest.QAArchive(t, "omnibus_v3")
	for _, args := range [][]string{
		{"-t", "0.00001", "sample.ulonglong.bin_ctr"},
		{"-t", "0.00001", "sample.double.bin_ctr"},
		{"-t", "0.00001", "sample.float.bin_ctr"},
		{"-t", "0.00001", "sample.long.bin_ctr"},
		{"-t", "0.00001", "-r", "sample.longlong.bin_ctr"},
		{"-t", "0.00001", "sample.colour"},
		{"-t", "0.00001", "-X", "sample.long.bin_ctr"},
	} {
		mallocs := func(samples string) uint64 {
			argv := append([]string{"pmval", "-a", archive, "-s", samples}, args...)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if code := run(context.Background(), argv, io.Discard, io.Discard); code != 0 {
				t.Fatalf("%v: exit %d", argv, code)
			}
			runtime.ReadMemStats(&after)
			return after.Mallocs - before.Mallocs
		}
		// The counts are the whole process's: a goroutine an earlier
		// test left (a timer, a daemon being torn down) or the race
		// runtime can allocate meanwhile, only ever adding to a count.
		// The least of three runs is the tool's own.
		least := func(samples string) uint64 {
			n := mallocs(samples)
			for range 2 {
				n = min(n, mallocs(samples))
			}
			return n
		}
		short, long := least("100"), least("2100")
		if long > short+20 {
			t.Errorf("%v: %d allocations for 100 samples, %d for 2100", args, short, long)
		}
	}
}
