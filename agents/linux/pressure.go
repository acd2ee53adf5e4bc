package linux

import "github.com/gopcp/gopcp/pmda"

// pressureData is /proc/pressure/{cpu,memory,io,irq}: per kind, "some"
// and "full" lines of 10 s, 60 s and 300 s averages and a total stall time
// in microseconds.
type pressureData struct {
	kinds [4]struct {
		avg   [2][3]float64
		total [2]uint64
		has   [2]bool
	}
}

var pressureKinds = []string{"cpu", "memory", "io", "irq"}

func (x *Linux) bindPressure() {
	p := &x.pressure
	x.sources[srcPressure] = x.readPressure
	x.indoms[pressureInDom].set(pressureInstances)
	for k, kind := range pressureKinds {
		for l, line := range []string{"some", "full"} {
			k, l := k, l
			base := "kernel.all.pressure." + kind + "." + line
			x.bindKnown(base+".avg", srcPressure, func(inst int32) (pcpAtom, error) {
				d := &p.kinds[k]
				if !d.has[l] {
					return pcpAtom{}, pmda.ErrNoValue
				}
				switch inst {
				case 10:
					return f32(d.avg[l][0]), nil
				case 60:
					return f32(d.avg[l][1]), nil
				case 300:
					return f32(d.avg[l][2]), nil
				}
				return pcpAtom{}, noInst
			})
			x.bindKnown(base+".total", srcPressure, func(int32) (pcpAtom, error) {
				d := &p.kinds[k]
				if !d.has[l] {
					return pcpAtom{}, pmda.ErrNoValue
				}
				return u64(d.total[l]), nil
			})
		}
	}
}

func (x *Linux) readPressure() error {
	p := &x.pressure
	var firstErr error
	for k, kind := range pressureKinds {
		d := &p.kinds[k]
		d.has = [2]bool{}
		b, err := x.readProc("pressure/" + kind)
		if err != nil {
			if firstErr == nil && k == 0 {
				firstErr = err
			}
			continue
		}
		for len(b) > 0 {
			var line []byte
			line, b = nextLine(b)
			which, rest := nextField(line)
			l := 0
			if string(which) == "full" {
				l = 1
			} else if string(which) != "some" {
				continue
			}
			d.has[l] = true
			for {
				var f []byte
				f, rest = nextField(rest)
				if len(f) == 0 {
					break
				}
				switch {
				case hasPrefix(f, "avg10="):
					d.avg[l][0] = parseFloat(f[6:])
				case hasPrefix(f, "avg60="):
					d.avg[l][1] = parseFloat(f[6:])
				case hasPrefix(f, "avg300="):
					d.avg[l][2] = parseFloat(f[7:])
				case hasPrefix(f, "total="):
					d.total[l] = parseU64(f[6:])
				}
			}
		}
	}
	return firstErr
}

// pressureInstances are the averaging windows of the pressure metrics.
var pressureInstances = []pmda.Instance{{ID: 10, Name: "10 second"}, {ID: 60, Name: "1 minute"}, {ID: 300, Name: "5 minute"}}
