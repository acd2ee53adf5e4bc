package cgroup

import (
	"fmt"
	"strings"
	"sync"
)

// The help texts below are this package's own words. helpFor builds a
// metric's one-line and full help from its name, so that each family's
// members say which field or operation they are.

// memHelp says what each memory.stat field counts.
var memHelp = lazyMap[string, string]{make: func() map[string]string {
	return map[string]string{
		"active_anon":            "anonymous and swap-backed memory on the active LRU list, in bytes",
		"active_file":            "file-backed memory on the active LRU list, in bytes",
		"anon":                   "memory in anonymous mappings (heap, stacks, private data), in bytes",
		"anon_thp":               "anonymous memory backed by transparent huge pages, in bytes",
		"cache":                  "page cache memory, including tmpfs and shared memory, in bytes",
		"file":                   "file-backed memory, page cache included, in bytes",
		"file_dirty":             "file-backed memory modified and not yet written back, in bytes",
		"file_mapped":            "file-backed memory mapped into processes, in bytes",
		"file_writeback":         "file-backed memory being written back now, in bytes",
		"inactive_anon":          "anonymous and swap-backed memory on the inactive LRU list, in bytes",
		"inactive_file":          "file-backed memory on the inactive LRU list, in bytes",
		"kernel_stack":           "memory holding kernel stacks of the group's tasks, in bytes",
		"mapped_file":            "page cache mapped into processes (cgroup v1), in bytes",
		"pgactivate":             "pages moved to the active LRU lists, a count",
		"pgdeactivate":           "pages moved to the inactive LRU lists, a count",
		"pgfault":                "page faults taken by the group's tasks",
		"pglazyfree":             "pages marked lazily freeable (MADV_FREE)",
		"pglazyfreed":            "lazily freeable pages actually reclaimed",
		"pgmajfault":             "major page faults (needing I/O) taken by the group's tasks",
		"pgpgin":                 "pages charged to the group (cgroup v1 page-in events)",
		"pgpgout":                "pages uncharged from the group (cgroup v1 page-out events)",
		"pgrefill":               "pages scanned on the active LRU lists",
		"pgscan":                 "pages scanned on the inactive LRU lists",
		"pgsteal":                "pages reclaimed from the group",
		"recent_rotated_anon":    "recently rotated anonymous pages, as the reclaim heuristics weigh them",
		"recent_rotated_file":    "recently rotated file pages, as the reclaim heuristics weigh them",
		"recent_scanned_anon":    "recently scanned anonymous pages, as the reclaim heuristics weigh them",
		"recent_scanned_file":    "recently scanned file pages, as the reclaim heuristics weigh them",
		"rss":                    "anonymous and swap cache memory (cgroup v1 rss), in bytes",
		"rss_huge":               "anonymous transparent huge page memory (cgroup v1), in bytes",
		"shmem":                  "shared memory and tmpfs pages, in bytes",
		"slab":                   "kernel slab memory charged to the group, in bytes",
		"slab_reclaimable":       "reclaimable kernel slab memory (dentries, inodes), in bytes",
		"slab_unreclaimable":     "kernel slab memory that cannot be reclaimed, in bytes",
		"sock":                   "memory used by network socket buffers, in bytes",
		"swap":                   "swap space used by the group (cgroup v1), in bytes",
		"thp_collapse_alloc":     "transparent huge pages made by collapsing small pages",
		"thp_fault_alloc":        "transparent huge pages allocated at page faults",
		"total_active_anon":      "active_anon of the group and all its descendants",
		"total_active_file":      "active_file of the group and all its descendants",
		"total_cache":            "cache of the group and all its descendants",
		"total_inactive_anon":    "inactive_anon of the group and all its descendants",
		"total_inactive_file":    "inactive_file of the group and all its descendants",
		"total_mapped_file":      "mapped_file of the group and all its descendants",
		"total_pgfault":          "pgfault of the group and all its descendants",
		"total_pgmajfault":       "pgmajfault of the group and all its descendants",
		"total_pgpgin":           "pgpgin of the group and all its descendants",
		"total_pgpgout":          "pgpgout of the group and all its descendants",
		"total_rss":              "rss of the group and all its descendants",
		"total_rss_huge":         "rss_huge of the group and all its descendants",
		"total_swap":             "swap of the group and all its descendants",
		"total_unevictable":      "unevictable of the group and all its descendants",
		"total_writeback":        "writeback of the group and all its descendants",
		"unevictable":            "memory that cannot be reclaimed (mlocked, ramfs), in bytes",
		"workingset_activate":    "refaulted pages that went straight to the active list",
		"workingset_nodereclaim": "times a shadow-entry node was reclaimed",
		"workingset_refault":     "evicted pages faulted back in soon after",
		"writeback":              "page cache being written back (cgroup v1), in bytes",
	}
}}

var blkioStatHelp = lazyMap[string, string]{make: func() map[string]string {
	return map[string]string{
		"io_merged":                 "requests merged into others",
		"io_queued":                 "requests queued at the moment",
		"io_service_bytes":          "bytes transferred",
		"io_serviced":               "requests completed",
		"io_service_time":           "time spent servicing requests, in nanoseconds",
		"io_wait_time":              "time requests spent waiting in queues, in nanoseconds",
		"throttle.io_service_bytes": "bytes transferred, as the throttling layer counts them",
		"throttle.io_serviced":      "requests completed, as the throttling layer counts them",
	}
}}

var opHelp = lazyMap[string, string]{make: func() map[string]string {
	return map[string]string{
		"read": "reads", "write": "writes", "sync": "synchronous requests",
		"async": "asynchronous requests", "total": "all requests",
	}
}}

var fixedHelp = lazyMap[string, [2]string]{make: func() map[string][2]string {
	return map[string][2]string{
		"subsys.hierarchy":    {"hierarchy ID of each cgroup controller", "The hierarchy ID /proc/cgroups gives each controller: 0 for cgroup v2 or a controller that is not mounted."},
		"subsys.count":        {"number of cgroup controllers the kernel knows", "The number of controllers listed in /proc/cgroups."},
		"subsys.num_cgroups":  {"number of cgroups of each controller", "How many cgroups use each controller, from /proc/cgroups."},
		"subsys.enabled":      {"whether each cgroup controller is enabled", "1 for a controller enabled in the kernel, 0 for one disabled (cgroup_disable=), from /proc/cgroups."},
		"mounts.subsys":       {"controllers of each cgroup mount", "The known controllers among a cgroup file system's mount options, joined by commas; \"?\" for a cgroup2 mount or one naming none."},
		"mounts.count":        {"number of cgroup file systems mounted", "The number of cgroup and cgroup2 file systems in /proc/mounts."},
		"cpuset.cpus":         {"CPUs the cgroup may run on", "The cgroup's cpuset.cpus: the CPUs its tasks may be scheduled on, as a list of ranges."},
		"cpuset.mems":         {"memory nodes the cgroup may allocate from", "The cgroup's cpuset.mems: the NUMA nodes its tasks may take memory from."},
		"cpuacct.stat.user":   {"CPU time of the cgroup's tasks in user mode", "User-mode CPU time of the cgroup's tasks, from cpuacct.stat, in clock ticks as the kernel reports them."},
		"cpuacct.stat.system": {"CPU time of the cgroup's tasks in kernel mode", "Kernel-mode CPU time of the cgroup's tasks, from cpuacct.stat, in clock ticks as the kernel reports them."},
		"cpuacct.usage":       {"total CPU time used by the cgroup", "All the CPU time the cgroup's tasks have used, from cpuacct.usage, in nanoseconds."},
		"cpuacct.usage_percpu": {"CPU time used by the cgroup on each CPU",
			"The CPU time the cgroup's tasks have used on each CPU, from cpuacct.usage_percpu, in nanoseconds; one instance per cgroup and CPU."},
		"cpusched.shares":         {"relative CPU weight of the cgroup", "The cgroup's cpu.shares: its weight against its siblings when CPUs are contended."},
		"cpusched.periods":        {"bandwidth enforcement periods that have passed", "How many CFS bandwidth periods have elapsed for the cgroup (nr_periods of cpu.stat)."},
		"cpusched.throttled":      {"periods in which the cgroup was throttled", "How many bandwidth periods ended with the cgroup throttled for using its quota (nr_throttled of cpu.stat)."},
		"cpusched.throttled_time": {"time the cgroup spent throttled", "The total time the cgroup's tasks were held back by bandwidth throttling (throttled_time of cpu.stat), in nanoseconds."},
		"cpusched.cfs_period":     {"length of the CFS bandwidth period", "The cgroup's cpu.cfs_period_us: the period over which its CPU quota is measured, in microseconds."},
		"cpusched.cfs_quota":      {"CPU time allowed per CFS bandwidth period", "The cgroup's cpu.cfs_quota_us: the CPU time its tasks may use in each period, in microseconds; no value when unlimited (-1)."},
		"memory.current":          {"memory used by the cgroup (cgroup v2)", "The cgroup's memory.current: all the memory charged to it and its descendants, in bytes."},
		"memory.usage":            {"memory used by the cgroup (cgroup v1)", "The cgroup's memory.usage_in_bytes, in bytes."},
		"memory.limit":            {"memory limit of the cgroup (cgroup v1)", "The cgroup's memory.limit_in_bytes: the most memory it may use, in bytes."},
		"memory.failcnt":          {"times the cgroup reached its memory limit", "The cgroup's memory.failcnt: how often a charge hit the memory limit."},
		"netclass.classid":        {"network class ID of the cgroup's packets", "The cgroup's net_cls.classid: the traffic-control class its tasks' packets are tagged with."},
		"cpu.stat.user":           {"user-mode CPU time of the cgroup (cgroup v2)", "user_usec of the cgroup's cpu.stat: CPU time its tasks spent in user mode, in microseconds."},
		"cpu.stat.system":         {"kernel-mode CPU time of the cgroup (cgroup v2)", "system_usec of the cgroup's cpu.stat: CPU time its tasks spent in the kernel, in microseconds."},
		"cpu.stat.usage":          {"CPU time used by the cgroup (cgroup v2)", "usage_usec of the cgroup's cpu.stat: all CPU time its tasks used, in microseconds."},
		"io.stat.rbytes":          {"bytes read by the cgroup from each device", "rbytes of the cgroup's io.stat for each block device; one instance per cgroup and device."},
		"io.stat.wbytes":          {"bytes written by the cgroup to each device", "wbytes of the cgroup's io.stat for each block device; one instance per cgroup and device."},
		"io.stat.rios":            {"read requests of the cgroup on each device", "rios of the cgroup's io.stat for each block device; one instance per cgroup and device."},
		"io.stat.wios":            {"write requests of the cgroup on each device", "wios of the cgroup's io.stat for each block device; one instance per cgroup and device."},
		"io.stat.dbytes":          {"bytes discarded by the cgroup on each device", "dbytes of the cgroup's io.stat for each block device; one instance per cgroup and device."},
		"io.stat.dios":            {"discard requests of the cgroup on each device", "dios of the cgroup's io.stat for each block device; one instance per cgroup and device."},
	}
}}

// helpFor returns the help texts of the cgroup metric called name.
func helpFor(name string) (one, full string) {
	rest := strings.TrimPrefix(name, "cgroup.")
	if h, ok := fixedHelp.get()[rest]; ok {
		return h[0], h[1]
	}
	if ctl, ok := strings.CutSuffix(rest, ".id.container"); ok {
		return "container ID of each " + ctl + " cgroup",
			"The container runtime's ID when the cgroup's name ends in one (docker-ID.scope, libpod-ID.scope, /docker/ID), else empty."
	}
	if key, ok := strings.CutPrefix(rest, "memory.stat."); ok {
		field := strings.ReplaceAll(key, ".", "_")
		d := memHelp.get()[field]
		return "memory.stat " + field + " of each cgroup",
			fmt.Sprintf("The %s field of the cgroup's memory.stat: %s. No value where the kernel does not give the field.", field, d)
	}
	if key, ok := strings.CutPrefix(rest, "pressure."); ok {
		f := strings.Split(key, ".")
		if len(f) == 3 {
			res, kind, stat := f[0], f[1], f[2]
			who := "at least one task"
			if kind == "full" {
				who = "all non-idle tasks at once"
			}
			what := map[string]string{"avg10sec": "over the last 10 seconds", "avg1min": "over the last minute", "avg5min": "over the last 5 minutes"}[stat]
			if stat == "total" {
				return fmt.Sprintf("total %s pressure stall time (%s) of each cgroup", res, kind),
					fmt.Sprintf("The total time %s of the cgroup stalled waiting for %s, from its %s.pressure %q line, in microseconds.", who, res, res, kind)
			}
			return fmt.Sprintf("%s pressure (%s) of each cgroup %s", res, kind, what),
				fmt.Sprintf("The share of time %s of the cgroup stalled waiting for %s %s, from its %s.pressure %q line. As pmdaproc sends it, the value is the average's whole number part carried in a float's bits.", who, res, what, res, kind)
		}
	}
	for _, scope := range []string{"dev", "all"} {
		key, ok := strings.CutPrefix(rest, "blkio."+scope+".")
		if !ok {
			continue
		}
		per := "for each cgroup and block device"
		if scope == "all" {
			per = "for each cgroup, summed over its block devices"
		}
		switch key {
		case "sectors":
			return "blkio sectors transferred " + per, "Sectors read and written " + per + ", from blkio.sectors, in kilobytes."
		case "time":
			return "blkio device time " + per, "Time the devices spent on the cgroup's requests " + per + ", from blkio.time, in milliseconds."
		}
		dot := strings.LastIndexByte(key, '.')
		if dot < 0 {
			break
		}
		stat, op := key[:dot], key[dot+1:]
		return fmt.Sprintf("blkio %s, %s, %s", stat, op, per),
			fmt.Sprintf("%s, counting %s, %s, from blkio.%s.", upper(blkioStatHelp.get()[stat]), opHelp.get()[op], per, stat)
	}
	return "", ""
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// indomHelp are the instance domains' one-line help texts.
var indomHelp = lazyMap[uint32, string]{make: func() map[uint32]string {
	return map[uint32]string{
		InDomCgroup2:    "cgroups of the cgroup2 hierarchy, by path",
		InDomCgroup2Dev: "pairs of cgroup2 cgroup and block device, as CGROUP::DEVICE",
		InDomCpuset:     "cgroups with the cpuset controller, by path",
		InDomCpuacct:    "cgroups with the cpuacct controller, by path",
		InDomPerCPU:     "pairs of cpuacct cgroup and CPU, as CGROUP::cpuN",
		InDomCpusched:   "cgroups with the cpu controller, by path",
		InDomMemory:     "cgroups with the memory controller, by path",
		InDomNetcls:     "cgroups with the net_cls controller, by path",
		InDomBlkio:      "cgroups with the blkio controller, by path",
		InDomBlkioDev:   "pairs of blkio cgroup and block device, as CGROUP::DEVICE",
		InDomSubsys:     "cgroup controllers, by name",
		InDomMounts:     "cgroup file system mounts, by mount point",
	}
}}

// lazyMap is a map made at its first use. The help tables were map
// literals, built at package init, which every tool linking the agent for
// -L paid (the init code's page of the binary and the maps).
type lazyMap[K comparable, V any] struct {
	once sync.Once
	m    map[K]V
	make func() map[K]V
}

func (l *lazyMap[K, V]) get() map[K]V {
	l.once.Do(func() { l.m = l.make() })
	return l.m
}
