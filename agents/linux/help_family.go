package linux

import (
	"strings"
)

// familyHelp writes help for the metrics of regular families (per-mode
// CPU times, disk counters, kernel counter tables), from what each field
// measures and where the agent reads it.
func familyHelp(name string) (string, string) {
	loadHelp()
	for _, f := range families {
		if strings.HasPrefix(name, f.prefix) {
			if one, full, ok := f.help(name[len(f.prefix):]); ok {
				return one, full
			}
		}
	}
	return "", ""
}

// families maps name prefixes to the help writer of their family.
var families []helpFamily

type helpFamily = struct {
	prefix string
	help   func(rest string) (string, string, bool)
}

func makeFamilies() []helpFamily {
	return []helpFamily{
		{"kernel.all.cpu.", cpuHelp("summed over all CPUs", "the first \"cpu\" line of /proc/stat")},
		{"kernel.percpu.cpu.", cpuHelp("for each CPU", "the CPU's \"cpuN\" line of /proc/stat")},
		{"kernel.pernode.cpu.", cpuHelp("summed over the CPUs of each NUMA node", "/proc/stat, with CPUs assigned to nodes by /sys/devices/system/node")},
		{"disk.dev.", diskHelp("each disk", "/proc/diskstats")},
		{"disk.all.", diskHelp("all disks together (partitions, device-mapper and md devices are not added in)", "/proc/diskstats")},
		{"disk.partitions.", diskHelp("each disk partition", "/proc/diskstats")},
		{"disk.dm.", diskHelp("each device-mapper device (named by its mapping)", "/proc/diskstats")},
		{"disk.md.", diskHelp("each software RAID (md) device", "/proc/diskstats")},
		{"disk.wwid.", diskHelp("each multipath device, by WWID, summed over the disks that are its paths", "/proc/diskstats and the disks' sysfs wwid")},
		{"network.interface.", netHelp},
		{"mem.vmstat.", vmstatHelp},
		{"network.sockstat.", sockstatHelp},
		{"network.softnet.", softnetHelp},
		{"network.", snmpHelp},
		{"mem.util.", meminfoHelp},
		{"kernel.all.pressure.", pressureHelp},
	}
}

var cpuModeText map[string]string

func makeCpuModeText() map[string]string {
	return map[string]string{
		"user":       "running user-mode code, time in guests included",
		"nice":       "running user-mode code of niced (lowered priority) processes, niced guest time included",
		"sys":        "running kernel code on behalf of processes",
		"idle":       "with nothing to run",
		"intr":       "servicing hardware and software interrupts (the sum of irq.hard and irq.soft)",
		"steal":      "in which a hypervisor ran another virtual machine while this one wanted the CPU",
		"guest":      "running the virtual CPUs of guest machines",
		"vuser":      "running user-mode code, time in guests excluded (user less guest)",
		"guest_nice": "running the virtual CPUs of niced guest machines",
		"vnice":      "running niced user-mode code, niced guest time excluded (nice less guest_nice)",
		"wait.total": "idle while disk I/O the CPU started was outstanding",
		"irq.soft":   "running deferred interrupt work (softirqs)",
		"irq.hard":   "servicing hardware interrupts",
	}
}

func cpuHelp(scope, source string) func(string) (string, string, bool) {
	return func(mode string) (string, string, bool) {
		what, ok := cpuModeText[mode]
		if !ok {
			return "", "", false
		}
		one := "CPU time " + what + ", " + scope
		full := "Milliseconds of CPU time spent " + what + ", " + scope + ".\n" +
			"Read from " + source + ", where the kernel counts clock ticks; the\n" +
			"agent converts ticks to milliseconds with kernel.all.hz. A counter: rates\n" +
			"divided by 1000 give the fraction of a CPU busy this way."
		return one, full, true
	}
}

var diskFieldText map[string][2]string

func makeDiskFieldText() map[string][2]string {
	return map[string][2]string{
		"read":              {"read requests completed", "Count of read requests the device completed."},
		"write":             {"write requests completed", "Count of write requests the device completed."},
		"total":             {"read and write requests completed", "Count of read plus write requests the device completed."},
		"blkread":           {"512-byte sectors read", "Count of 512-byte sectors read, whatever the device's real block size."},
		"blkwrite":          {"512-byte sectors written", "Count of 512-byte sectors written, whatever the device's real block size."},
		"blktotal":          {"512-byte sectors read and written", "Count of 512-byte sectors read plus written."},
		"read_bytes":        {"Kbytes read", "Kilobytes read (sectors read halved)."},
		"write_bytes":       {"Kbytes written", "Kilobytes written (sectors written halved)."},
		"total_bytes":       {"Kbytes read and written", "Kilobytes read plus written."},
		"read_merge":        {"read requests merged with adjacent ones", "Count of read requests the block layer merged into a request already queued."},
		"write_merge":       {"write requests merged with adjacent ones", "Count of write requests the block layer merged into a request already queued."},
		"avactive":          {"time the device had I/O in progress", "Milliseconds during which the device had at least one request in progress; its rate is the device's utilisation."},
		"aveq":              {"time-weighted count of requests in progress", "Milliseconds spent by requests in progress, summed over requests (the io_ticks weighted by queue length); its rate is the average queue length."},
		"read_rawactive":    {"time read requests took, summed", "Milliseconds spent on read requests from issue to completion, summed over all reads; divided by the reads completed it gives the average read latency."},
		"write_rawactive":   {"time write requests took, summed", "Milliseconds spent on write requests from issue to completion, summed over all writes; divided by the writes completed it gives the average write latency."},
		"total_rawactive":   {"time read and write requests took, summed", "Milliseconds spent on reads and writes from issue to completion, summed over all requests."},
		"capacity":          {"size of the device", "Size of the device in Kbytes, from its size in /sys/class/block."},
		"discard":           {"discard requests completed", "Count of discard (trim) requests the device completed."},
		"blkdiscard":        {"512-byte sectors discarded", "Count of 512-byte sectors discarded."},
		"discard_bytes":     {"Kbytes discarded", "Kilobytes discarded (sectors discarded halved)."},
		"discard_merge":     {"discard requests merged with adjacent ones", "Count of discard requests merged into a request already queued."},
		"discard_rawactive": {"time discard requests took, summed", "Milliseconds spent on discard requests from issue to completion, summed."},
		"flush":             {"flush requests completed", "Count of cache flush requests the device completed."},
		"flush_rawactive":   {"time flush requests took, summed", "Milliseconds spent on flush requests from issue to completion, summed."},
		"inflight":          {"requests in progress now", "Number of requests issued to the device and not yet completed, at the time of the fetch."},
		"scheduler":         {"I/O scheduler of the disk", "Name of the I/O scheduler the block layer uses for the disk (the selected entry of queue/scheduler in sysfs), \"none\" for a device without one."},
		"status":            {"state of the md device", "State of the software RAID device as mdadm reports it."},
		"scsi_paths":        {"disks that are paths to the device", "The names of the disks reporting the device's WWID, space separated."},
	}
}

func diskHelp(scope, source string) func(string) (string, string, bool) {
	return func(field string) (string, string, bool) {
		t, ok := diskFieldText[field]
		if !ok {
			return "", "", false
		}
		one := strings.ToUpper(t[0][:1]) + t[0][1:] + ", for " + scope
		full := t[1] + "\nFor " + scope + ", from " + source + "."
		return one, full, true
	}
}

var netFieldText map[string][2]string

func makeNetFieldText() map[string][2]string {
	return map[string][2]string{
		"in.bytes":       {"bytes received", "Bytes received on the interface."},
		"in.packets":     {"packets received", "Packets received on the interface."},
		"in.errors":      {"receive errors", "Packets received with errors the driver detected."},
		"in.drops":       {"received packets dropped", "Received packets dropped, such as for lack of buffer space."},
		"in.fifo":        {"receive FIFO overruns", "Receive FIFO buffer errors."},
		"in.frame":       {"receive framing errors", "Packets received with framing errors."},
		"in.compressed":  {"compressed packets received", "Compressed packets received (for drivers that compress, such as CSLIP and PPP)."},
		"in.mcasts":      {"multicast packets received", "Multicast frames received."},
		"out.bytes":      {"bytes sent", "Bytes transmitted on the interface."},
		"out.packets":    {"packets sent", "Packets transmitted on the interface."},
		"out.errors":     {"transmit errors", "Packets that failed to transmit."},
		"out.drops":      {"outgoing packets dropped", "Outgoing packets dropped before transmission."},
		"out.fifo":       {"transmit FIFO overruns", "Transmit FIFO buffer errors."},
		"collisions":     {"collisions while transmitting", "Collisions detected on the medium while transmitting."},
		"out.carrier":    {"transmit carrier losses", "Transmissions that failed for loss of carrier."},
		"out.compressed": {"compressed packets sent", "Compressed packets transmitted."},
		"total.bytes":    {"bytes received and sent", "Bytes received plus bytes transmitted."},
		"total.packets":  {"packets received and sent", "Packets received plus packets transmitted."},
		"total.errors":   {"receive and transmit errors", "Receive errors plus transmit errors."},
		"total.drops":    {"received and outgoing packets dropped", "Received plus outgoing packets dropped."},
		"total.mcasts":   {"multicast packets", "Multicast frames; the kernel counts only received ones, so this equals in.mcasts."},
		"mtu":            {"maximum transmission unit", "Largest packet the interface sends, in bytes."},
		"speed":          {"link speed in Mbytes per second", "Link speed in Mbytes (2^20 bytes) per second, from the driver's speed in Mbit/s; no value when the driver does not report one."},
		"baudrate":       {"link speed in bytes per second", "Link speed in bytes per second, from the driver's speed in Mbit/s; no value when the driver does not report one."},
		"duplex":         {"link duplex: 1 half, 2 full", "Duplex mode of the link: 1 for half duplex, 2 for full; no value when unknown."},
		"up":             {"1 if the interface is up", "1 if the interface is administratively up (IFF_UP), else 0."},
		"running":        {"1 if the interface is running", "1 if the interface is operational, with resources allocated and a carrier (IFF_RUNNING), else 0."},
		"wireless":       {"1 for a wireless interface", "1 if the interface is a wireless one, else 0."},
		"type":           {"1 for a wired interface with ethtool support", "1 when the interface answers ethtool's settings query (a wired Ethernet-like device), 0 for wireless ones; otherwise the ARP hardware type sysfs reports, or 0."},
		"virtual":        {"1 for a virtual (software) interface", "1 if the interface is a software device with no hardware behind it, as /sys/devices/virtual/net lists them, else 0."},
		"inet_addr":      {"IPv4 address", "The interface's IPv4 address in dotted-quad form; aliases (eth0:1) are instances of their own."},
		"ipv6_addr":      {"IPv6 address and prefix length", "An IPv6 address of the interface with its prefix length, as in fd00::2/64 (the last one /proc/net/if_inet6 lists)."},
		"ipv6_scope":     {"scope of the IPv6 address", "Scope of the address in ipv6_addr: Global, Link, Site, Host or Compat."},
		"hw_addr":        {"hardware (MAC) address", "The interface's link-level address, as sysfs prints it."},
	}
}

func netHelp(field string) (string, string, bool) {
	t, ok := netFieldText[field]
	if !ok {
		return "", "", false
	}
	src := "/proc/net/dev"
	switch field {
	case "mtu", "speed", "baudrate", "duplex", "up", "running", "wireless", "type", "virtual":
		src = "/sys/class/net or interface ioctls"
	case "inet_addr", "ipv6_addr", "ipv6_scope", "hw_addr":
		src = "interface ioctls, /proc/net/if_inet6 and /sys/class/net"
	}
	one := strings.ToUpper(t[0][:1]) + t[0][1:] + ", per network interface"
	return one, t[1] + "\nOne value per network interface, read from " + src + ".", true
}

func vmstatHelp(field string) (string, string, bool) {
	phrase, ok := vmPhraseFor(field)
	if !ok {
		return "", "", false
	}
	var when string
	switch {
	case field == "thp_split":
		when = "The thp_split line of /proc/vmstat; kernels without it (4.5 and later)\nget the sum of thp_split_page and thp_split_page_failed, as from PCP's agent."
	case field == "nr_slab":
		when = "The nr_slab line of /proc/vmstat; kernels without it (2.6.18 and later)\nget the sum of nr_slab_reclaimable and nr_slab_unreclaimable."
	case strings.HasSuffix(field, "_total"):
		when = "Computed by the agent from other /proc/vmstat lines, as PCP's agent does."
	case isCounter("mem.vmstat." + field):
		when = "A count since boot from the " + field + " line of /proc/vmstat."
	default:
		when = "The current value of the " + field + " line of /proc/vmstat."
	}
	one := capitalize(phrase)
	full := one + ".\n" + when + "\nKernels without the line leave this metric without a value."
	return one, full, true
}

func snmpHelp(rest string) (string, string, bool) {
	group, field, ok := strings.Cut(rest, ".")
	if !ok || strings.Contains(field, ".") {
		return "", "", false
	}
	phrase, proto, ok := snmpPhraseFor(group, field)
	if !ok {
		return "", "", false
	}
	file := "/proc/net/snmp or /proc/net/netstat"
	switch group {
	case "ip6", "icmp6", "udp6", "udplite6":
		file = "/proc/net/snmp6"
	case "mptcp":
		file = "/proc/net/netstat (MPTcpExt)"
	}
	var when string
	if isCounter("network." + rest) {
		when = "A count since boot of the kernel's " + proto + " statistic " + field + ", from " + file + "."
	} else {
		when = "The kernel's " + proto + " setting or state " + field + ", from " + file + "."
	}
	one := capitalize(phrase)
	return one, one + ".\n" + when + "\nStatistics this kernel lacks have no value.", true
}

func sockstatHelp(rest string) (string, string, bool) {
	if rest == "total" {
		return "Sockets in use, all protocols", "Number of sockets of all kinds in use, the \"sockets: used\" figure of /proc/net/sockstat.", true
	}
	proto, field, ok := strings.Cut(rest, ".")
	if !ok {
		return "", "", false
	}
	what := map[string]string{
		"inuse":  "sockets in use",
		"orphan": "sockets no longer attached to a process",
		"tw":     "sockets in TIME_WAIT",
		"alloc":  "sockets allocated",
		"mem":    "pages of memory used for socket buffers",
		"memory": "bytes of memory used for fragment reassembly",
	}[field]
	if what == "" {
		return "", "", false
	}
	if proto == "frag" || proto == "frag6" {
		if field == "inuse" {
			what = "fragment reassembly queues in use"
		}
	}
	p := strings.ToUpper(proto)
	return p + " " + what, "The " + p + " line's " + field + " figure from /proc/net/sockstat or /proc/net/sockstat6: " + what + ".", true
}

var softnetText map[string]string

func makeSoftnetText() map[string]string {
	return map[string]string{
		"processed":        "packets taken off the backlog queues and processed",
		"dropped":          "packets dropped because a backlog queue was full",
		"time_squeeze":     "times the receive softirq ran out of budget or time with work left",
		"cpu_collision":    "times a transmit lock was found held by another CPU",
		"received_rps":     "times a CPU was woken to process packets steered to it (RPS)",
		"flow_limit_count": "packets dropped by the per-flow limit",
	}
}

func softnetHelp(rest string) (string, string, bool) {
	scope := "summed over all CPUs"
	if strings.HasPrefix(rest, "percpu.") {
		rest, scope = rest[len("percpu."):], "for each CPU"
	}
	t, ok := softnetText[rest]
	if !ok {
		return "", "", false
	}
	return "Network " + t + ", " + scope, "Count of " + t + ", " + scope + ", from /proc/net/softnet_stat.", true
}

func meminfoHelp(rest string) (string, string, bool) {
	for _, e := range meminfoDirect {
		if e.metric == "mem.util."+rest {
			unit := "Kbytes"
			if strings.HasPrefix(rest, "hugepages") {
				unit = "huge pages"
			}
			one := "The " + e.key + " figure of /proc/meminfo"
			full := "The kernel's " + e.key + " figure from /proc/meminfo, in " + unit + ".\n" +
				"Kernels that do not report it leave this metric without a value."
			return one, full, true
		}
	}
	return "", "", false
}

func pressureHelp(rest string) (string, string, bool) {
	parts := strings.Split(rest, ".")
	if len(parts) != 3 {
		return "", "", false
	}
	res, line, kind := parts[0], parts[1], parts[2]
	who := "some runnable tasks"
	if line == "full" {
		who = "all non-idle tasks at once"
	}
	if kind == "avg" {
		return "Percentage of time " + who + " stalled on " + res + ", averaged",
			"Share of wall time, in percent, during which " + who + " were stalled waiting for " + res +
				",\naveraged over the last 10 seconds, 1 minute and 5 minutes (the instances).\nFrom /proc/pressure/" + res + " (pressure stall information).", true
	}
	return "Total time " + who + " stalled on " + res,
		"Microseconds during which " + who + " were stalled waiting for " + res + ",\nsince boot, from /proc/pressure/" + res + ".", true
}
