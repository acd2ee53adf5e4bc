package linux

// ksmFiles are the /sys/kernel/mm/ksm files behind mem.ksm metrics.
var ksmFiles = []struct{ metric, file string }{
	{"full_scans", "full_scans"}, {"merge_across_nodes", "merge_across_nodes"},
	{"pages_shared", "pages_shared"}, {"pages_sharing", "pages_sharing"},
	{"pages_to_scan", "pages_to_scan"}, {"pages_unshared", "pages_unshared"},
	{"pages_volatile", "pages_volatile"}, {"run_state", "run"},
	{"sleep_time", "sleep_millisecs"},
}

func (x *Linux) bindKSM() {
	k := &x.ksm
	type ksmFile struct {
		path string
		slot int
	}
	var files []ksmFile
	for _, f := range ksmFiles {
		files = append(files, ksmFile{"kernel/mm/ksm/" + f.file, k.slot(f.file)})
	}
	x.sources[srcKSM] = func() error {
		k.reset()
		// A missing file reads as zero, as PCP's agent has it.
		for _, f := range files {
			k.vals[f.slot], k.seen[f.slot] = 0, true
			if b, err := x.readSys(f.path); err == nil {
				k.vals[f.slot] = parseU64(b)
			}
		}
		return nil
	}
	for _, f := range ksmFiles {
		x.bind("mem.ksm."+f.metric, srcKSM, k.getter(k.slot(f.file)))
	}
}
