package linux

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// fixtureOptions read the agent's sources from testdata/fixture.
var fixtureOptions = Options{
	ProcRoot: "testdata/fixture/proc", SysRoot: "testdata/fixture/sys",
	EtcRoot: "testdata/fixture/etc", UtmpPath: "testdata/fixture/utmp",
	InterfacesConf: "testdata/fixture/nonexistent", NoCache: true,
}

// fixture builds the agent over testdata/fixture, a small /proc and /sys
// with known contents.
func fixture(t *testing.T) *Linux {
	t.Helper()
	x, err := newLinux(fixtureOptions)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.agent(Domain); err != nil {
		t.Fatal(err)
	}
	return x
}

// value fetches one metric instance (inst "" for none) as the agent would.
func (x *Linux) value(t *testing.T, name, inst string) (pcp.Atom, error) {
	t.Helper()
	d := findDesc(name)
	if d == nil {
		t.Fatalf("%s: no such metric", name)
	}
	desc := d.desc(Domain)
	if err := x.Refresh(context.Background(), []pcp.PMID{desc.PMID}); err != nil {
		return pcp.Atom{}, err
	}
	id := pcp.InstNull
	if d.InDom >= 0 {
		id = -1
		for _, in := range x.indoms[d.InDom].list() {
			if in.Name == inst {
				id = in.ID
			}
		}
		if id == -1 {
			return pcp.Atom{}, pcp.ErrInst
		}
	}
	return x.Fetch(context.Background(), &pmda.Metric{Desc: desc}, id)
}

func TestFixtureValues(t *testing.T) {
	x := fixture(t)
	hz := float64(x.hz) // the ticks of the fixture are converted with this host's rate
	ms := func(ticks float64) float64 { return math.Trunc(1000 * ticks / hz) }
	page := float64(x.pageSize) / 1024
	cases := []struct {
		name, inst string
		want       any // float64, string, or error
	}{
		{"kernel.all.cpu.user", "", ms(1000)},
		{"kernel.all.cpu.intr", "", ms(13)},
		{"kernel.all.cpu.vuser", "", ms(991)},
		{"kernel.all.cpu.vnice", "", ms(10)},
		{"kernel.all.cpu.wait.total", "", ms(50)},
		{"kernel.percpu.cpu.sys", "cpu1", ms(100)},
		{"kernel.percpu.cpu.user", "cpu2", pcp.ErrInst},
		{"kernel.all.intr", "", 123456.0},
		{"kernel.all.pswitch", "", 987654.0},
		{"kernel.all.sysfork", "", 4321.0},
		{"kernel.all.running", "", 3.0},
		{"kernel.all.blocked", "", 1.0},
		{"kernel.all.boottime", "", 1700000000.0},
		{"hinv.ncpu", "", 2.0},
		{"mem.physmem", "", 8000000.0},
		{"mem.util.used", "", 6000000.0},
		{"mem.util.other", "", 2900000.0},
		{"mem.util.cache_clean", "", 2998800.0},
		{"mem.util.highTotal", "", pmda.ErrNoValue},
		{"mem.util.available", "", 5000000.0},
		{"mem.util.hugepagesTotalBytes", "", 4 * 2048 * 1024.0},
		{"hinv.physmem", "", 7812.0},
		{"hinv.hugepagesize", "", 2048 * 1024.0},
		{"swap.used", "", 524288 * 1024.0},
		{"swap.in", "", pcp.ErrAppVersion},
		{"kernel.all.load", "5 minute", 1.25},
		{"kernel.all.runnable", "", 3.0},
		{"kernel.all.nprocs", "", 456.0},
		{"kernel.all.lastpid", "", 7890.0},
		{"kernel.all.uptime", "", 12345.67},
		{"kernel.all.idletime", "", 23456.78},
		{"mem.vmstat.pgsteal_total", "", 12.0},
		{"mem.vmstat.pgscan_kswapd_total", "", 100.0},
		{"mem.vmstat.nr_slab", "", 42.0},
		{"mem.vmstat.pgpgout", "", pmda.ErrNoValue},
		{"swap.pagesin", "", 11.0},
		{"disk.dev.read", "sda", 100.0},
		{"disk.dev.read", "loop0", pcp.ErrInst},
		{"disk.dev.read", "sda1", pcp.ErrInst},
		{"disk.dev.read", "nvme0n1", 1000.0},
		{"disk.dev.read_bytes", "sda", 1000.0},
		{"disk.dev.total_rawactive", "sda", 110.0},
		{"disk.dev.avactive", "sda", 70.0},
		{"disk.dev.aveq", "sda", 110.0},
		{"disk.dev.discard", "sda", 3.0},
		{"disk.dev.flush_rawactive", "sda", 9.0},
		{"disk.dev.inflight", "sda", 1.0},
		{"disk.dev.capacity", "sda", 976762584.0},
		{"disk.dev.capacity", "nvme0n1", pmda.ErrNoValue}, // not in /proc/partitions
		{"disk.partitions.capacity", "sda1", 976761560.0},
		{"disk.dev.scheduler", "sda", "none"},
		{"hinv.map.scsi_id", "sda", "35000c500a1b2c3d4"},
		{"hinv.map.scsi_id", "nvme0n1", "unknown"},
		{"disk.dev.scheduler", "nvme0n1", "unknown"},
		{"disk.all.read", "", 1100.0},
		{"disk.partitions.read", "sda1", 90.0},
		{"disk.dm.read", "vg-root", 5.0},
		{"hinv.map.dmname", "vg-root", "dm-0"},
		{"hinv.ndisk", "", 2.0},
		{"network.interface.in.bytes", "eth0", 50000.0},
		{"network.interface.collisions", "eth0", 10.0},
		{"network.interface.out.carrier", "eth0", 11.0},
		{"network.interface.total.bytes", "eth0", 80000.0},
		{"network.interface.total.mcasts", "eth0", 6.0},
		{"network.all.in.bytes", "", 50000.0},
		{"hinv.ninterface", "", 2.0},
		{"network.ip.inreceives", "", 1234.0},
		{"network.tcp.currestab", "", 5.0},
		{"network.tcp.timewaited", "", 9.0},
		{"network.tcp.fastopenactivefail", "", 2.0},
		{"network.tcp.tcpfastopenactivefail", "", 2.0},
		{"network.tcp.activeopens", "", 77.0},
		{"network.tcp.synretrans", "", pmda.ErrNoValue},
		{"network.ip.inoctets", "", 5000.0},
		{"network.udp.recvbuferrors", "", 3.0},
		{"network.ip6.inreceives", "", 321.0},
		{"network.icmp6.inmsgs", "", 4.0},
		{"network.udp6.indatagrams", "", 8.0},
		{"network.sockstat.total", "", 19.0},
		{"network.sockstat.tcp.tw", "", 12.0},
		{"network.sockstat.udp.mem", "", 5.0},
		{"network.softnet.processed", "", 30.0},
		{"network.softnet.percpu.processed", "cpu1", 20.0},
		{"network.softnet.cpu_collision", "", 3.0},
		{"kernel.all.interrupts.total", "24", 3.0},
		{"kernel.percpu.interrupts", "NMI::cpu1", 4.0},
		{"kernel.all.interrupts.errors", "", 7.0},
		{"kernel.all.interrupts.missed", "", 8.0},
		{"kernel.percpu.intr", "cpu0", 14.0},
		{"kernel.all.softirqs.total", "TIMER", 300.0},
		{"kernel.percpu.sirq", "cpu1", 202.0},
		{"kernel.all.pressure.memory.full.avg", "1 minute", 0.25},
		{"kernel.all.pressure.memory.full.total", "", 678.0},
		{"kernel.all.pressure.cpu.some.total", "", 999.0},
		{"kernel.all.pressure.io.some.total", "", 4242.0},
		{"kernel.all.pressure.irq.full.total", "", pmda.ErrNoValue}, // no file
		{"mem.buddyinfo.pages", "Normal::order2::node0", 30.0},
		{"mem.buddyinfo.total", "Normal::order2::node0", 30 * 4 * page},
		{"swapdev.length", "/dev/sdb2", 1048576.0},
		{"swapdev.free", "/dev/sdb2", 524288.0},
		{"swapdev.priority", "/dev/sdb2", -2.0},
		{"mem.zoneinfo.free", "DMA::node0", 3840 * page},
		{"mem.zoneinfo.present", "DMA::node0", 3998 * page},
		{"mem.zoneinfo.nr_free_pages", "DMA::node0", pmda.ErrNoValue},
		{"mem.zoneinfo.nr_inactive_anon", "node0", 100 * page},
		{"mem.zoneinfo.workingset_active_file", "node0", 7 * page},
		{"mem.zoneinfo.free", "Movable::node0", pcp.ErrInst},
		{"mem.zoneinfo.protection", "DMA::node0::lowmem_reserved1", 3018 * page},
		{"filesys.mountdir", "/dev/sda1", "/"},
		{"kernel.uname.distro", "", "?"},
		{"kernel.all.nusers", "", 0.0},
		{"vfs.files.count", "", 1500.0},
		{"vfs.locks.posix.count", "", 2.0},
		{"vfs.locks.posix.write", "", 2.0},
		{"vfs.locks.posix.read", "", 1.0},
		{"vfs.locks.flock.read", "", 1.0},
		{"vfs.locks.lease.count", "", 1.0},
		{"kernel.all.nptys", "", 0.0},
		{"kernel.all.pid_max", "", 32768.0},
		{"kernel.pernode.cpu.user", "node0", ms(1000)}, // no NUMA: one node
		{"hinv.cpu.vendor", "cpu0", "unknown"},
		{"network.sockstat.tcp6.inuse", "", 9.0},
		{"network.sockstat.raw.inuse", "", 0.0}, // not in the file: zero, as PCP
		{"network.unix.stream.listen", "", 3.0},
		{"network.unix.stream.established", "", 2.0},
		{"network.unix.stream.count", "", 5.0},
		{"network.rawconn.count", "", 0.0}, // no file: zero, as PCP
	}
	for _, c := range cases {
		a, err := x.value(t, c.name, c.inst)
		d := findDesc(c.name)
		switch want := c.want.(type) {
		case error:
			if !errors.Is(err, want) {
				t.Errorf("%s[%s]: error %v, want %v", c.name, c.inst, err, want)
			}
		case string:
			if err != nil || a.CP != want {
				t.Errorf("%s[%s] = %q, %v; want %q", c.name, c.inst, a.CP, err, want)
			}
		case float64:
			got, cerr := pcp.Float64(d.Type, a)
			if err != nil || cerr != nil || math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
				t.Errorf("%s[%s] = %v, %v, %v; want %v", c.name, c.inst, got, err, cerr, want)
			}
		}
	}
}

// TestFixtureInstances checks the instance domains the fixture yields.
func TestFixtureInstances(t *testing.T) {
	x := fixture(t)
	names := func(serial int) []string {
		var out []string
		x.firstUse(serial) // as an instance request does
		for _, in := range x.indoms[serial].list() {
			out = append(out, in.Name)
		}
		return out
	}
	cases := []struct {
		serial int
		want   []string
	}{
		{cpuInDom, []string{"cpu0", "cpu1"}},
		{diskInDom, []string{"sda", "nvme0n1"}},
		{partitionsInDom, []string{"sda1"}},
		{dmInDom, []string{"vg-root"}},
		{netDevInDom, []string{"lo", "eth0"}},
		{loadavgInDom, []string{"1 minute", "5 minute", "15 minute"}},
		{interruptInDom, []string{"0", "24", "NMI"}},
		{softirqInDom, []string{"HI", "TIMER"}},
		{zoneInDom, []string{"node0", "DMA::node0"}},
		{swapdevInDom, []string{"/dev/sdb2"}},
		{filesysInDom, []string{"/dev/sda1"}},
	}
	for _, c := range cases {
		got := names(c.serial)
		if len(got) != len(c.want) {
			t.Errorf("indom %d: %q, want %q", c.serial, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("indom %d: %q, want %q", c.serial, got, c.want)
				break
			}
		}
	}
}
