package linux

import "strings"

func addHelp3() {
	for _, v := range []struct{ group, file string }{{"tcpconn", "/proc/net/tcp"}, {"tcpconn6", "/proc/net/tcp6"}} {
		for _, s := range tcpStates {
			metricHelp["network."+v.group+"."+s] = [2]string{"TCP connections in state " + s + " (" + v.file + ")",
				"Number of TCP sockets in the " + s + " state, counted from " + v.file + "."}
		}
	}
	for _, v := range []struct{ group, file string }{{"udpconn", "/proc/net/udp"}, {"udpconn6", "/proc/net/udp6"}} {
		metricHelp["network."+v.group+".established"] = [2]string{"Connected UDP sockets (" + v.file + ")", "Number of UDP sockets connected to a peer, from " + v.file + "."}
		metricHelp["network."+v.group+".listen"] = [2]string{"Unconnected UDP sockets (" + v.file + ")", "Number of UDP sockets bound and waiting for datagrams, from " + v.file + "."}
	}
	metricHelp["network.rawconn.count"] = [2]string{"Raw IPv4 sockets", "Number of raw IPv4 sockets, from /proc/net/raw."}
	metricHelp["network.rawconn6.count"] = [2]string{"Raw IPv6 sockets", "Number of raw IPv6 sockets, from /proc/net/raw6."}
	metricHelp["network.unix.datagram.count"] = [2]string{"Unix domain datagram sockets", "Number of Unix domain datagram sockets, from /proc/net/unix."}
	metricHelp["network.unix.stream.established"] = [2]string{"Connected Unix domain stream sockets", "Number of Unix domain stream sockets that are connected."}
	metricHelp["network.unix.stream.listen"] = [2]string{"Listening Unix domain stream sockets", "Number of Unix domain stream sockets listening for connections."}
	metricHelp["network.unix.stream.count"] = [2]string{"Unix domain stream sockets", "Number of Unix domain stream sockets in any state."}
	for _, k := range []struct{ kind, what string }{{"posix", "POSIX (fcntl) record locks, open file description locks included"}, {"flock", "flock(2) locks"}, {"lease", "file leases and delegations"}} {
		metricHelp["vfs.locks."+k.kind+".count"] = [2]string{"Held " + k.kind + " locks", "Number of " + k.what + " in /proc/locks."}
		metricHelp["vfs.locks."+k.kind+".read"] = [2]string{"Held " + k.kind + " read locks", "Number of " + k.what + " held for reading (read-write ones counted here too)."}
		metricHelp["vfs.locks."+k.kind+".write"] = [2]string{"Held " + k.kind + " write locks", "Number of " + k.what + " held for writing (read-write ones counted here too)."}
	}
	metricHelp["network.icmpmsg.intype"] = [2]string{"ICMP messages received per type", "For each ICMP message type (instances Type0 to Type255), the messages of\nthat type received, from the IcmpMsg lines of /proc/net/snmp; types the\nkernel has not seen have no value."}
	metricHelp["network.icmpmsg.outtype"] = [2]string{"ICMP messages sent per type", "For each ICMP message type, the messages of that type sent, from the\nIcmpMsg lines of /proc/net/snmp."}
	metricHelp["sysfs.kernel.uevent_seqnum"] = [2]string{"Kernel uevents sent", "The sequence number of the last uevent the kernel sent to udev, from\n/sys/kernel/uevent_seqnum."}
	for n, t := range map[string][2]string{
		"capacity":  {"Size of each tmpfs", "Total size of each tmpfs filesystem in Kbytes, from statfs."},
		"used":      {"Space used on each tmpfs", "Kbytes in use on each tmpfs filesystem."},
		"free":      {"Free space on each tmpfs", "Kbytes free on each tmpfs filesystem."},
		"maxfiles":  {"Inodes on each tmpfs", "Number of inodes each tmpfs filesystem can hold."},
		"usedfiles": {"Inodes in use on each tmpfs", "Number of inodes in use on each tmpfs filesystem."},
		"freefiles": {"Free inodes on each tmpfs", "Number of inodes free on each tmpfs filesystem."},
		"full":      {"Percentage of each tmpfs in use", "Space used as a percentage of the space available on each tmpfs."},
	} {
		metricHelp["tmpfs."+n] = t
	}
	for _, f := range fchostFields {
		metricHelp["fchost."+f.metric] = [2]string{"Fibre Channel " + f.metric + " per host adapter",
			"The " + f.file + " statistic of each Fibre Channel host, from\n/sys/class/fc_host/HOST/statistics (words converted to bytes)."}
	}
	for n, t := range map[string]string{
		"total": "NFS server threads", "pools": "NFS server thread pools",
		"requests": "requests that arrived at the NFS server's pools", "enqueued": "requests queued because no thread was free",
		"processed": "times an NFS server thread was woken to process a request", "timedout": "times an idle NFS server thread timed out",
	} {
		metricHelp["nfs.server.threads."+n] = [2]string{strings.ToUpper(t[:1]) + t[1:], "The count of " + t + ", from /proc/fs/nfsd (pool_threads and, summed\nover pools, pool_stats); no value when the NFS server is not loaded."}
	}
	metricHelp["sysfs.kernel.debug.extfrag_unusable"] = [2]string{"External fragmentation of each NUMA node's Normal zone",
		"For each NUMA node, the Normal zone's unusable free space indices (one per\nallocation order, from debugfs's extfrag/unusable_index) added up; higher\nmeans free memory is in blocks too small for larger allocations. No value\nwithout debugfs."}
	indomHelps[wwidInDom] = [2]string{"Multipath devices", "One instance per WWID that disks report in sysfs, named by the WWID."}
	indomHelps[fchostInDom] = [2]string{"Fibre Channel hosts", "One instance per Fibre Channel host adapter in /sys/class/fc_host."}
	indomHelps[icmpmsgInDom] = [2]string{"ICMP message types", "The 256 ICMP message types, named TypeN."}
	indomHelps[tmpfsInDom] = [2]string{"Mounted tmpfs filesystems", "One instance per mounted tmpfs, named by its mount point."}
}
