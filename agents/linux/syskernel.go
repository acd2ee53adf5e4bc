package linux

// sysKernelData holds single numbers from /proc/sys/kernel.
type sysKernelData struct {
	pidMax, nptys, entropy, poolsize uint64
	has                              [4]bool
}

func (x *Linux) bindSysKernel() {
	s := &x.sysk
	files := []string{"sys/kernel/pid_max", "sys/kernel/pty/nr", "sys/kernel/random/entropy_avail", "sys/kernel/random/poolsize"}
	vals := []*uint64{&s.pidMax, &s.nptys, &s.entropy, &s.poolsize}
	// Without its file, pid_max is the kernel's largest (1<<22) and the
	// others zero, as PCP's agent reports them.
	defaults := []uint64{1 << 22, 0, 0, 0}
	x.sources[srcSysKernel] = func() error {
		for i, f := range files {
			b, err := x.readProc(f)
			*vals[i] = defaults[i]
			if err == nil {
				*vals[i] = parseU64(b)
			}
		}
		return nil
	}
	for i, name := range []string{"kernel.all.pid_max", "kernel.all.nptys", "kernel.all.entropy.avail", "kernel.all.entropy.poolsize"} {
		x.bind(name, srcSysKernel, func(int32) (pcpAtom, error) { return u32(*vals[i]), nil })
	}
}
