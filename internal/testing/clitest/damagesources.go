package clitest

// DamageSource is a QA archive the damaged-archive sweeps spoil, with
// metrics of each semantics it holds and steps to interpolate at.
type DamageSource struct {
	Name    string
	Metrics []string
	Steps   []string
}

// DamageSources are the archives of the tools' damaged-archive sweeps:
// versions 2 and 3, one volume and several, marks, changing instances.
var DamageSources = []DamageSource{
	{"20041125", []string{"swap.pagesin", "kernel.all.load", "filesys.mountdir"}, []string{"10", "37", "2min"}},
	{"interpmark", []string{"network.tcpconn.close", "disk.dev.total"}, []string{"5", "13"}},
	{"changeinst", []string{"sample.bin", "irix.network.interface.total.packets"}, []string{"1", "0.7"}},
	{"dyninsts", []string{"disk.dev.write"}, []string{"0.5", "1.5"}},
	{"gap", []string{"pmcd.pdu_in.error", "proc.nprocs"}, []string{"1", "2.5"}},
	{"omnibus_v3", []string{"sample.long.bin_ctr", "sample.colour", "pmcd.seqnum"}, []string{"0.5", "0.25"}},
	{"uwrap", []string{"sample.wrap.ulong"}, []string{"1", "7"}},
	{"ok-mv-bar", []string{"sampledso.milliseconds", "sampledso.bin"}, []string{"0.2", "0.5"}},
	{"540117-short", []string{"kernel.all.load"}, []string{"10", "33"}},
	{"rattle", []string{"irix.kernel.all.load"}, []string{"7m", "20m"}},
}
