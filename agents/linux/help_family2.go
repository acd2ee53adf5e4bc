package linux

import "strings"

func addFamilyHelp2() {
	families = append(families,
		struct {
			prefix string
			help   func(rest string) (string, string, bool)
		}{"mem.numa.", numaHelp},
		struct {
			prefix string
			help   func(rest string) (string, string, bool)
		}{"mem.zoneinfo.", zoneinfoHelp},
		struct {
			prefix string
			help   func(rest string) (string, string, bool)
		}{"mem.slabinfo.", slabHelp},
		struct {
			prefix string
			help   func(rest string) (string, string, bool)
		}{"hinv.cpu.frequency_scaling.", freqHelp},
	)
	metricHelp["mem.numa.max_bandwidth"] = [2]string{"Maximum memory bandwidth of each NUMA node", "The most memory bandwidth each node can deliver, in Mbytes per second,\nas the administrator states it in the agent's bandwidth.conf; no value\nwithout that file."}
	metricHelp["hinv.ntape"] = [2]string{"Number of tape drives", "Number of SCSI tape drives in /sys/class/scsi_tape."}
	metricHelp["hinv.nfchost"] = [2]string{"Number of Fibre Channel host adapters", "Number of Fibre Channel hosts in /sys/class/fc_host."}
	indomHelps[zoneProtInDom] = [2]string{"Memory zone protection levels", "One instance per zone, node and lower zone of the lowmem reserve, named ZONE::nodeN::lowmem_reservedK."}
	indomHelps[slabInDom] = [2]string{"Slab caches", "One instance per kernel slab cache in /proc/slabinfo."}
	indomHelps[zoneInDom] = [2]string{"Memory zones and nodes", "One instance per populated memory zone of each node (ZONE::nodeN) and one per node (nodeN) for the node-wide figures."}
}

func numaHelp(rest string) (string, string, bool) {
	if rest == "max_bandwidth" {
		return "", "", false
	}
	if f, ok := strings.CutPrefix(rest, "alloc."); ok {
		for _, e := range numastatFields {
			if e.metric == f {
				return "The " + e.label + " allocation counter of each NUMA node",
					"Count of page allocations in the kernel's " + e.label + " category for each node, from\n/sys/devices/system/node/nodeN/numastat.", true
			}
		}
		return "", "", false
	}
	f, ok := strings.CutPrefix(rest, "util.")
	if !ok {
		return "", "", false
	}
	bytes := strings.HasSuffix(f, "Bytes")
	f = strings.TrimSuffix(f, "Bytes")
	for _, e := range numaMeminfoFields {
		if e.metric != f {
			continue
		}
		label := strings.TrimSuffix(e.label, ":")
		if bytes {
			return "The " + label + " huge page count of each NUMA node, in bytes",
				"The node's " + label + " figure times the huge page size, for each NUMA node.", true
		}
		return "The " + label + " figure of each NUMA node's meminfo",
			"The " + label + " figure of /sys/devices/system/node/nodeN/meminfo for each NUMA node\n(Kbytes, or huge pages for the huge page counts).", true
	}
	return "", "", false
}

func zoneinfoHelp(rest string) (string, string, bool) {
	if rest == "protection" {
		return "Pages each zone keeps back from allocations meant for higher zones, in Kbytes",
			"The lowmem reserve of each zone against allocations that could have been\nsatisfied by each higher zone, converted to Kbytes, from the protection\nline of /proc/zoneinfo.", true
	}
	phrase, ok := vmPhraseFor(rest)
	if !ok {
		phrase = "the " + rest + " figure"
	}
	one := capitalize(phrase) + ", per zone (as Kbytes)"
	return one, one + ".\nThe " + rest + " figure of /proc/zoneinfo for each populated zone of each node\n" +
		"(node-wide figures repeated for each of the node's zones), converted from\n" +
		"pages to Kbytes as PCP's agent reports it; event counts are converted too.", true
}

var slabText map[string]string

func makeSlabText() map[string]string {
	return map[string]string{
		"objects.active":         "objects in use",
		"objects.total":          "objects allocated, in use or not",
		"objects.size":           "size of one object in bytes",
		"slabs.active":           "slabs holding objects in use",
		"slabs.total":            "slabs allocated",
		"slabs.pages_per_slab":   "pages per slab",
		"slabs.objects_per_slab": "objects per slab",
		"slabs.total_size":       "bytes the cache's objects in use take, with their share of slab space",
	}
}

func slabHelp(rest string) (string, string, bool) {
	t, ok := slabText[rest]
	if !ok {
		return "", "", false
	}
	return "Slab cache " + t, "For each kernel slab cache, " + t + ", from /proc/slabinfo (readable\nby root only).", true
}

func freqHelp(rest string) (string, string, bool) {
	t := map[string][2]string{
		"count": {"CPU frequency summed over time slices, or current frequency", "Sum over the cpufreq statistics' time slices of frequency (MHz) times\nslices, or without statistics the current frequency in MHz."},
		"time":  {"Time slices counted by the cpufreq statistics", "Number of time slices the cpufreq statistics have counted."},
		"max":   {"Highest CPU frequency in MHz", "Highest frequency the CPU runs at, in MHz, from cpufreq."},
		"min":   {"Lowest CPU frequency in MHz", "Lowest frequency the CPU runs at, in MHz, from cpufreq."},
	}[rest]
	if t[0] == "" {
		return "", "", false
	}
	return t[0], t[1] + "\nNo value where the kernel has no cpufreq driver.", true
}
