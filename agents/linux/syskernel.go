package linux

import (
	"errors"
	"io/fs"
)

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
	// A file that is there but cannot be read is not the kernel's answer:
	// the default is served as for a missing one, and the failure is
	// reported, once until it changes (a comparison with PCP's agent once
	// saw pid_max at its default for no known reason).
	var reported [4]string
	x.sources[srcSysKernel] = func() error {
		for i, f := range files {
			b, err := x.readProc(f)
			v := defaults[i]
			switch {
			case err == nil:
				v, reported[i] = parseU64(b), ""
			case !errors.Is(err, fs.ErrNotExist) && reported[i] != err.Error():
				reported[i] = err.Error()
				x.log.Printf("%s: %v", f, err)
			}
			// one store of the value read: a fetch never sees the
			// default in passing
			*vals[i] = v
		}
		return nil
	}
	for i, name := range []string{"kernel.all.pid_max", "kernel.all.nptys", "kernel.all.entropy.avail", "kernel.all.entropy.poolsize"} {
		x.bind(name, srcSysKernel, func(int32) (pcpAtom, error) { return u32(*vals[i]), nil })
	}
}
