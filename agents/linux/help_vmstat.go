package linux

import (
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// vmPhrase says what each /proc/vmstat (and /proc/zoneinfo) figure
// counts, for the one-line help; per-zone variants (name_dma, _normal,
// ...) share their base's phrase, the zone named after it.
var vmPhrase map[string]string

func makeVmPhrase() map[string]string {
	return map[string]string{
		"allocstall":                     "times an allocation had to reclaim memory itself (direct reclaim)",
		"balloon_deflate":                "pages handed back to the guest by the balloon driver",
		"balloon_inflate":                "pages taken from the guest by the balloon driver",
		"balloon_migrate":                "balloon pages moved by migration",
		"compact_blocks_moved":           "blocks moved by memory compaction (older kernels)",
		"compact_daemon_free_scanned":    "pages kcompactd scanned for free pages",
		"compact_daemon_migrate_scanned": "pages kcompactd scanned for pages to move",
		"compact_daemon_wake":            "times the kcompactd thread woke up",
		"compact_fail":                   "compaction attempts that did not free a large enough block",
		"compact_free_scanned":           "pages compaction scanned looking for free pages",
		"compact_isolated":               "pages compaction isolated to move",
		"compact_migrate_scanned":        "pages compaction scanned looking for pages to move",
		"compact_pagemigrate_failed":     "pages compaction failed to move (older kernels)",
		"compact_pages_moved":            "pages moved by compaction (older kernels)",
		"compact_stall":                  "times an allocation stalled to compact memory itself",
		"compact_success":                "compaction attempts that freed a large enough block",
		"drop_pagecache":                 "writes to drop_caches that dropped the page cache",
		"drop_slab":                      "writes to drop_caches that dropped reclaimable slab objects",
		"htlb_buddy_alloc_fail":          "huge page pool growths that the page allocator refused",
		"htlb_buddy_alloc_success":       "huge page pool growths satisfied by the page allocator",
		"kswapd_high_wmark_hit_quickly":  "times kswapd found a zone above its high watermark at once",
		"kswapd_inodesteal":              "page cache pages kswapd freed by reclaiming inodes",
		"kswapd_low_wmark_hit_quickly":   "times kswapd found a zone above its low watermark at once",
		"kswapd_skip_congestion_wait":    "times kswapd did not wait for congested writeback (older kernels)",
		"kswapd_steal":                   "pages kswapd reclaimed (older kernels)",
		"nr_active_anon":                 "anonymous pages on the active list",
		"nr_active_file":                 "file-backed pages on the active list",
		"nr_alloc_batch":                 "pages left in the zone's fair allocation batch (older kernels)",
		"nr_anon_pages":                  "anonymous pages mapped into user space",
		"nr_anon_transparent_hugepages":  "anonymous transparent huge pages in use",
		"nr_bounce":                      "bounce buffer pages for I/O to devices that cannot reach all memory",
		"nr_dirtied":                     "pages made dirty since boot",
		"nr_dirty":                       "dirty pages waiting to be written back",
		"nr_dirty_background_threshold":  "dirty page count at which background writeback starts",
		"nr_dirty_threshold":             "dirty page count at which writers are throttled",
		"nr_file_hugepages":              "file-backed transparent huge pages",
		"nr_file_pages":                  "pages in the page cache, swap cache included",
		"nr_file_pmdmapped":              "file-backed huge pages mapped whole (by PMD)",
		"nr_foll_pin_acquired":           "pages pinned by FOLL_PIN (get_user_pages with pinning)",
		"nr_foll_pin_released":           "pages unpinned after FOLL_PIN",
		"nr_free_cma":                    "free pages in the contiguous memory allocator's areas",
		"nr_free_pages":                  "free pages",
		"nr_inactive_anon":               "anonymous pages on the inactive list",
		"nr_inactive_file":               "file-backed pages on the inactive list",
		"nr_isolated_anon":               "anonymous pages taken off the LRU lists for reclaim or migration",
		"nr_isolated_file":               "file-backed pages taken off the LRU lists for reclaim or migration",
		"nr_kernel_misc_reclaimable":     "other reclaimable kernel memory, in pages",
		"nr_kernel_stack":                "memory used for kernel stacks (pages, or Kbytes on newer kernels)",
		"nr_mapped":                      "page cache pages mapped into processes",
		"nr_mlock":                       "pages locked in memory by mlock",
		"nr_page_table_pages":            "pages holding page tables",
		"nr_pages_scanned":               "pages scanned since the zone's last reclaim (older kernels)",
		"nr_shmem":                       "shared memory and tmpfs pages",
		"nr_shmem_hugepages":             "shared memory and tmpfs pages in transparent huge pages",
		"nr_shmem_pmdmapped":             "shared memory huge pages mapped whole (by PMD)",
		"nr_slab":                        "slab allocator pages",
		"nr_slab_reclaimable":            "slab pages the kernel can reclaim, such as dentry and inode caches",
		"nr_slab_unreclaimable":          "slab pages the kernel cannot reclaim",
		"nr_swapcached":                  "pages in the swap cache",
		"nr_unevictable":                 "pages reclaim may not evict (mlocked, ramfs, ...)",
		"nr_unstable":                    "NFS pages written but not yet committed by the server",
		"nr_vmscan_immediate_reclaim":    "pages marked to be reclaimed as soon as their writeback ends",
		"nr_vmscan_write":                "pages written out by reclaim",
		"nr_writeback":                   "pages being written back now",
		"nr_writeback_temp":              "pages in writeback through temporary buffers (FUSE)",
		"nr_written":                     "pages written back since boot",
		"nr_zone_active_anon":            "anonymous pages on the zone's active list",
		"nr_zone_active_file":            "file-backed pages on the zone's active list",
		"nr_zone_inactive_anon":          "anonymous pages on the zone's inactive list",
		"nr_zone_inactive_file":          "file-backed pages on the zone's inactive list",
		"nr_zone_unevictable":            "unevictable pages in the zone",
		"nr_zone_write_pending":          "dirty or writeback pages in the zone",
		"nr_zspages":                     "pages used by the zsmalloc allocator (zram, zswap)",
		"numa_foreign":                   "allocations meant for this node that another node served",
		"numa_hint_faults":               "NUMA hinting faults taken by automatic NUMA balancing",
		"numa_hint_faults_local":         "NUMA hinting faults on pages already on the faulting CPU's node",
		"numa_hit":                       "allocations served from the node they were meant for",
		"numa_huge_pte_updates":          "huge page table entries marked for NUMA hinting faults",
		"numa_interleave":                "interleave-policy allocations served from the node they were meant for",
		"numa_local":                     "allocations served from the local node of the allocating CPU",
		"numa_miss":                      "allocations served by this node though meant for another",
		"numa_other":                     "allocations served by this node for a CPU on another node",
		"numa_pages_migrated":            "pages moved between nodes by automatic NUMA balancing",
		"numa_pte_updates":               "page table entries marked for NUMA hinting faults",
		"oom_kill":                       "processes killed by the out-of-memory killer",
		"pageoutrun":                     "kswapd reclaim passes",
		"pgactivate":                     "pages moved from the inactive to the active list",
		"pgalloc":                        "pages allocated",
		"pgdeactivate":                   "pages moved from the active to the inactive list",
		"pgfault":                        "page faults, minor and major",
		"pgfree":                         "pages freed",
		"pginodesteal":                   "page cache pages freed by reclaiming inodes outside kswapd",
		"pglazyfreed":                    "pages freed lazily after MADV_FREE",
		"pgmajfault":                     "major page faults, those that had to read from disk",
		"pgmigrate_fail":                 "pages that failed to migrate",
		"pgmigrate_success":              "pages migrated",
		"pgpgin":                         "data read in from block devices, in Kbytes",
		"pgpgout":                        "data written out to block devices, in Kbytes",
		"pgrefill":                       "active-list pages scanned for deactivation",
		"pgrotated":                      "pages moved to the tail of the inactive list after writeback",
		"pgscan_direct":                  "pages scanned by direct reclaim",
		"pgscan_direct_throttle":         "times direct reclaim was throttled",
		"pgscan_direct_total":            "pages scanned by direct reclaim, summed over zones",
		"pgscan_kswapd":                  "pages scanned by kswapd",
		"pgscan_kswapd_total":            "pages scanned by kswapd, summed over zones",
		"pgsteal":                        "pages reclaimed",
		"pgsteal_direct":                 "pages reclaimed by direct reclaim",
		"pgsteal_file":                   "file-backed pages reclaimed",
		"pgsteal_kswapd":                 "pages reclaimed by kswapd",
		"pgsteal_total":                  "pages reclaimed, summed over every pgsteal line",
		"pswpin":                         "pages swapped in",
		"pswpout":                        "pages swapped out",
		"slabs_scanned":                  "slab objects scanned by shrinkers",
		"swap_ra":                        "pages read ahead from swap",
		"swap_ra_hit":                    "swap read-ahead pages that were then used",
		"thp_collapse_alloc":             "huge pages khugepaged allocated to collapse small pages into",
		"thp_collapse_alloc_failed":      "huge page allocations by khugepaged that failed",
		"thp_deferred_split_page":        "huge pages queued to be split later",
		"thp_fault_alloc":                "huge pages allocated to satisfy a page fault",
		"thp_fault_fallback":             "page faults that fell back to small pages, no huge page being free",
		"thp_fault_fallback_charge":      "page faults that fell back to small pages, the memory cgroup being full",
		"thp_file_alloc":                 "file-backed huge pages allocated",
		"thp_file_mapped":                "file-backed huge pages mapped",
		"thp_split":                      "huge pages split into small pages (attempts, failed or not)",
		"thp_split_page":                 "huge pages split into small pages",
		"thp_split_page_failed":          "huge page splits that failed",
		"thp_split_pmd":                  "huge page mappings split into small page mappings",
		"thp_split_pud":                  "gigantic page (PUD) mappings split",
		"thp_swpout":                     "huge pages swapped out whole",
		"thp_swpout_fallback":            "huge pages split before being swapped out",
		"thp_zero_page_alloc":            "huge zero pages allocated",
		"thp_zero_page_alloc_failed":     "huge zero page allocations that failed",
		"unevictable_pgs_cleared":        "unevictable pages cleared when their mapping was truncated",
		"unevictable_pgs_culled":         "pages reclaim found unevictable and set aside",
		"unevictable_pgs_mlocked":        "pages locked by mlock",
		"unevictable_pgs_mlockfreed":     "mlocked pages freed (older kernels)",
		"unevictable_pgs_munlocked":      "pages unlocked by munlock",
		"unevictable_pgs_rescued":        "unevictable pages made evictable again",
		"unevictable_pgs_scanned":        "unevictable pages scanned to see if they can be rescued",
		"unevictable_pgs_stranded":       "pages left unevictable after munlock failed to return them",
		"workingset_activate":            "refaulted pages activated at once, having been recently evicted",
		"workingset_active_anon":         "refaulted anonymous pages activated at once",
		"workingset_active_file":         "refaulted file pages activated at once",
		"workingset_nodereclaim":         "shadow entry nodes reclaimed from the page cache",
		"workingset_nodes":               "page cache tree nodes holding only shadow entries",
		"workingset_refault":             "evicted pages faulted in again",
		"workingset_refault_anon":        "evicted anonymous pages faulted in again",
		"workingset_refault_file":        "evicted file pages faulted in again",
		"workingset_restore":             "refaulted pages that had been part of the working set",
		"workingset_restore_anon":        "refaulted anonymous pages that had been part of the working set",
		"workingset_restore_file":        "refaulted file pages that had been part of the working set",
		"zone_reclaim_failed":            "node-local reclaims that freed nothing",
		// /proc/zoneinfo's own lines.
		"cma":     "pages in the contiguous memory allocator's areas",
		"free":    "free pages, from the zone's pages free line",
		"high":    "the high watermark, at which kswapd stops reclaiming",
		"low":     "the low watermark, at which kswapd starts reclaiming",
		"min":     "the minimum watermark, below which allocations reclaim themselves",
		"managed": "pages the page allocator manages",
		"present": "pages physically present",
		"spanned": "pages spanned, holes included",
		"scanned": "pages scanned by reclaim (older kernels)",
	}
}

// zoneNames are the zone suffixes of per-zone /proc/vmstat lines.
var zoneNames = [...]struct{ suffix, name string }{
	{"_dma32", "DMA32"}, {"_dma", "DMA"}, {"_normal", "Normal"}, {"_high", "HighMem"}, {"_movable", "Movable"},
}

// vmPhraseFor returns field's phrase, naming the zone of a per-zone line.
func vmPhraseFor(field string) (string, bool) {
	loadHelp()
	if p, ok := vmPhrase[field]; ok {
		return p, true
	}
	for _, z := range zoneNames {
		if base, ok := strings.CutSuffix(field, z.suffix); ok {
			if p, ok := vmPhrase[base]; ok {
				return p + ", " + z.name + " zone", true
			}
		}
	}
	return "", false
}

// capitalize makes a phrase a sentence start.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// counters maps metric names to whether PCP's descriptor makes them
// counters, for help that says "since boot" or "current".
var counters map[string]bool

func makeCounters() map[string]bool {
	m := make(map[string]bool, len(pcpDescs))
	for i := range pcpDescs {
		m[pcpDescs[i].name] = pcpDescs[i].sem == pcp.SemCounter
	}
	return m
}

func isCounter(name string) bool {
	loadHelp()
	return counters[name]
}
