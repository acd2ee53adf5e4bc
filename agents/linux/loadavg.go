package linux

import "github.com/gopcp/gopcp/pmda"

// loadData is /proc/loadavg: "0.52 0.58 0.59 2/1234 5678".
type loadData struct {
	avg      [3]float64
	runnable uint64
	nprocs   uint64
	lastpid  uint64
}

// uptimeData is /proc/uptime: seconds up and seconds idle summed over CPUs.
type uptimeData struct {
	up, idle float64
}

func (x *Linux) bindLoadavg() {
	l := &x.load
	x.sources[srcLoadavg] = x.readLoadavg
	x.indoms[loadavgInDom].set([]pmda.Instance{{ID: 1, Name: "1 minute"}, {ID: 5, Name: "5 minute"}, {ID: 15, Name: "15 minute"}})
	x.bind("kernel.all.load", srcLoadavg, func(inst int32) (pcpAtom, error) {
		switch inst {
		case 1:
			return f32(l.avg[0]), nil
		case 5:
			return f32(l.avg[1]), nil
		case 15:
			return f32(l.avg[2]), nil
		}
		return pcpAtom{}, noInst
	})
	x.bind("kernel.all.runnable", srcLoadavg, func(int32) (pcpAtom, error) { return u32(l.runnable), nil })
	x.bind("kernel.all.nprocs", srcLoadavg, func(int32) (pcpAtom, error) { return u32(l.nprocs), nil })
	x.bind("kernel.all.lastpid", srcLoadavg, func(int32) (pcpAtom, error) { return u32(l.lastpid), nil })
}

func (x *Linux) readLoadavg() error {
	b, err := x.readProc("loadavg")
	if err != nil {
		return err
	}
	l := &x.load
	var f []byte
	for i := range l.avg {
		f, b = nextField(b)
		l.avg[i] = parseFloat(f)
	}
	f, b = nextField(b)
	for i, c := range f {
		if c == '/' {
			l.runnable = parseU64(f[:i])
			l.nprocs = parseU64(f[i+1:])
		}
	}
	f, _ = nextField(b)
	l.lastpid = parseU64(f)
	return nil
}

func (x *Linux) bindUptime() {
	u := &x.uptime
	x.sources[srcUptime] = func() error {
		b, err := x.readProc("uptime")
		if err != nil {
			return err
		}
		f, rest := nextField(b)
		u.up = parseFloat(f)
		f, _ = nextField(rest)
		u.idle = parseFloat(f)
		return nil
	}
	x.bind("kernel.all.uptime", srcUptime, func(int32) (pcpAtom, error) { return f64(u.up), nil })
	x.bind("kernel.all.idletime", srcUptime, func(int32) (pcpAtom, error) { return f64(u.idle), nil })
}
