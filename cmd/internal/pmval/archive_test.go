package pmval

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestArchivesAgainstPCP compares pmval -a with PCP's pmval on QA
// archives: interpolation of counters (rates and -r), instantaneous and
// discrete metrics at several steps, time windows (-S -T -O -A in each
// of PCP's forms), instance domains that change, <mark> records, -U's
// records as logged, time zones, -X stamps, version 2 and 3 archives,
// compressed multi-volume archives and contexts of several archives (a
// directory, a list).
func TestArchivesAgainstPCP(t *testing.T) {
	qa := func(name string) string { return clitest.QAArchive(t, name) }
	a := func(name string, args ...string) []string {
		return append([]string{"-a", qa(name)}, args...)
	}
	cases := []clitest.Case{
		// version 2, counters, instants and strings
		{Name: "v2 counter rate", Args: a("20041125", "-t", "10", "-s", "12", "swap.pagesin")},
		{Name: "v2 counter raw", Args: a("20041125", "-t", "7.5", "-s", "12", "-r", "swap.pagesin")},
		{Name: "v2 instant", Args: a("20041125", "-t", "3", "-s", "10", "swap.length")},
		{Name: "v2 discrete string", Args: a("20041125", "-t", "60", "filesys.mountdir")},
		{Name: "v2 window", Args: a("20041125", "-t", "2", "-S", "+30", "-T", "+1min", "kernel.all.load")},
		{Name: "v2 window from end", Args: a("20041125", "-t", "5", "-S", "-2min", "-T", "-1min", "kernel.all.load")},
		{Name: "v2 origin", Args: a("20041125", "-t", "4", "-O", "+45", "-s", "6", "swap.pagesin")},
		{Name: "v2 align", Args: a("20041125", "-t", "10", "-A", "1min", "-s", "5", "swap.length")},
		{Name: "v2 ctime start", Args: a("20041125", "-t", "10", "-S", "@Thu Nov 25 05:01:00 2004", "-s", "4", "swap.length")},
		{Name: "v2 bad window", Args: a("20041125", "-S", "@notatime", "swap.length")},
		{Name: "v2 uninterpolated", Args: a("20041125", "-U", qa("20041125"), "-s", "8", "swap.pagesin")},
		{Name: "v2 stamps X", Args: a("20041125", "-t", "10", "-s", "3", "-X", "swap.length")},
		{Name: "v2 stamps XX", Args: a("20041125", "-t", "10", "-s", "3", "-XX", "swap.length")},
		{Name: "v2 host zone", Args: a("20041125", "-t", "10", "-s", "3", "-z", "swap.length")},
		{Name: "v2 named zone", Args: a("20041125", "-t", "10", "-s", "3", "-Z", "EST-10", "swap.length")},
		// version 3
		{Name: "v3 counter indom", Args: a("omnibus_v3", "-t", "0.5", "sample.long.bin_ctr")},
		{Name: "v3 instant indom", Args: a("omnibus_v3", "-t", "0.25", "sample.colour")},
		{Name: "v3 discrete", Args: a("omnibus_v3", "-t", "1", "pmcd.seqnum")},
		{Name: "v3 instances", Args: a("omnibus_v3", "-t", "0.5", "-i", "bin-200,bin-400", "sample.long.bin_ctr")},
		{Name: "v3 fixed", Args: a("omnibus_v3", "-t", "0.5", "-f", "2", "sample.colour")},
		{Name: "v3 events", Args: a("omnibus_v3", "sample.event.records")},
		{Name: "v3 anonymous", Args: a("omnibus_v3", "-t", "1", "event.flags")},
		// <mark> records
		{Name: "mark counter", Args: a("interpmark", "-t", "5", "-s", "40", "network.tcpconn.close")},
		{Name: "mark counter total", Args: a("interpmark", "-t", "13", "-s", "30", "disk.dev.total")},
		{Name: "mark uninterpolated", Args: a("interpmark", "-U", qa("interpmark"), "-s", "30", "mem.physmem")},
		{Name: "marks ignored", Args: a("interpmark", "-t", "5", "-s", "60", "network.tcpconn.close"), Env: []string{"PCP_IGNORE_MARK_RECORDS="}},
		{Name: "marks in short gaps ignored", Args: a("interpmark", "-t", "5", "-s", "60", "disk.dev.total"), Env: []string{"PCP_IGNORE_MARK_RECORDS=1m"}},
		{Name: "count mark", Args: a("count-mark", "-t", "2", "-s", "40", "kernel.all.pswitch")},
		{Name: "mark bug", Args: a("mark-bug", "-t", "1", "irix.kernel.all.cpu.idle")},
		// instance domains that change
		{Name: "changing instances", Args: a("changeinst", "-t", "1", "sample.bin")},
		{Name: "changing instances counter", Args: a("changeinst", "-t", "0.7", "irix.network.interface.total.packets")},
		{Name: "dynamic instances", Args: a("dyninsts", "-t", "0.5", "disk.dev.write")},
		{Name: "dynamic instances raw", Args: a("dyninsts", "-t", "1.5", "-r", "disk.dev.write")},
		// counters that wrap, gaps, late records
		{Name: "wrap", Args: a("uwrap", "-t", "1", "sample.wrap.ulong")},
		{Name: "wrap raw", Args: a("uwrap", "-t", "0.6", "-r", "sample.wrap.ulong")},
		{Name: "gap", Args: a("gap", "-t", "1", "pmcd.pdu_in.error")},
		{Name: "gap instant", Args: a("gap", "-t", "2.5", "proc.nprocs")},
		{Name: "late", Args: a("late", "-t", "0.5", "sampledso.milliseconds")},
		{Name: "rattle", Args: a("rattle", "-t", "0.3", "-s", "300", "irix.kernel.all.load")},
		{Name: "rattle hours", Args: a("rattle", "-t", "1h", "irix.kernel.all.load")},
		{Name: "bug1057", Args: a("bug1057", "-t", "20", "-s", "20", "disk.dev.read")},
		// several archives as one
		{Name: "directory of xz archives", Args: a("multi-xz", "-t", "30", "disk.dev.read")},
		{Name: "directory window", Args: a("multi-xz", "-t", "7", "-S", "+100", "-T", "+5m", "proc.nprocs")},
		{Name: "directory records", Args: a("multi-xz", "-U", qa("multi-xz"), "-s", "10", "kernel.all.load")},
	}
	// a comma-separated list, out of time order
	list := qa("multi-vm02") + "," + qa("multi-vm00") + "," + qa("multi-vm01")
	cases = append(cases,
		clitest.Case{Name: "list of archives", Args: []string{"-a", list, "-t", "20", "kernel.all.load"}},
		clitest.Case{Name: "list of archives records", Args: []string{"-a", list, "-U", list, "kernel.all.load"}},
		clitest.Case{Name: "errors unknown metric", Args: a("omnibus_v3", "no.such.metric")},
		clitest.Case{Name: "errors no archive", Args: []string{"-a", "/nonexistent/archive", "sample.colour"}},
	)
	clitest.CompareLocal(t, "pmval", run, cases)
}
