package cgroup

// The per-cgroup records kept as the private data of the cache entries.
// A record outlives its entry's inactive spells, so values a later read
// cannot refresh stay as pmdaproc leaves them.

type cpusetGroup struct{ cpus, mems, container string }

type cpuacctStat struct{ user, system uint64 }

type cpuacctGroup struct {
	stat      cpuacctStat
	usage     uint64
	container string
}

type percpuGroup struct{ usage uint64 }

type cpuschedGroup struct {
	periods, throttled, throttledTime uint64
	shares, cfsPeriod                 uint64
	cfsQuota                          int64
	container                         string
}

type memoryGroup struct {
	stat                           [len(memFields)]uint64
	current, limit, usage, failcnt uint64
	container                      string
}

type netclsGroup struct {
	classid   uint64
	container string
}

// blkio statistics, in the order of the files read (blkioFiles).
const (
	bioMerged = iota
	bioQueued
	bioServiceBytes
	bioServiced
	bioServiceTime
	bioWaitTime
	bioThrottleServiceBytes
	bioThrottleServiced
	nBlkioOps
)

// blkiops are one statistic's operations: read, write, sync, async, total.
type blkiops [5]uint64

var blkioOpNames = [5]string{"Read", "Write", "Sync", "Async", "Total"}

type blkioStats struct {
	ops           [nBlkioOps]blkiops
	sectors, time uint64
}

type blkioGroup struct {
	total     blkioStats
	container string
}

type blkioDev struct{ stats blkioStats }

type pressure struct {
	avg10, avg60, avg300 float32
	total                uint64
	updated              bool
}

type cgroup2Group struct {
	cpuSome, memSome, memFull, ioSome, ioFull, irqFull pressure
	usage, user, system                                uint64
	container                                          string
}

type ioStat struct{ v [6]uint64 } // rbytes wbytes rios wios dbytes dios

// memFields are the memory.stat keys pmdaproc reads.
var memFields = [...]string{
	"active_anon", "active_file", "anon", "anon_thp", "cache", "file", "file_dirty",
	"file_mapped", "file_writeback", "inactive_anon", "inactive_file", "kernel_stack",
	"mapped_file", "pgactivate", "pgdeactivate", "pgfault", "pglazyfree", "pglazyfreed",
	"pgmajfault", "pgpgin", "pgpgout", "pgrefill", "pgscan", "pgsteal",
	"recent_rotated_anon", "recent_rotated_file", "recent_scanned_anon", "recent_scanned_file",
	"rss", "rss_huge", "shmem", "slab", "slab_reclaimable", "slab_unreclaimable", "sock",
	"swap", "thp_collapse_alloc", "thp_fault_alloc", "total_cache", "total_rss",
	"total_rss_huge", "total_mapped_file", "total_writeback", "total_swap", "total_pgpgin",
	"total_pgpgout", "total_pgfault", "total_pgmajfault", "total_inactive_anon",
	"total_active_anon", "total_inactive_file", "total_active_file", "total_unevictable",
	"unevictable", "workingset_activate", "workingset_nodereclaim", "workingset_refault",
	"writeback",
}

func memField(key string) int {
	for i, f := range memFields {
		if f == key {
			return i
		}
	}
	return -1
}
