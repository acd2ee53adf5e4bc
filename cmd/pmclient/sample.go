package main

import (
	"fmt"

	"github.com/gopcp/gopcp/cmd/internal/guide"
	"github.com/gopcp/gopcp/pcp"
)

var mbyte = pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceMByte}

// sample fetches the report's metrics and, from the second fetch on,
// computes a report line from this fetch and the one before, in C's
// float arithmetic as PCP's client does.
func (c *client) sample() {
	first := c.pmids == nil
	if first {
		c.setup()
	}
	cur := &pcp.Result{}
	if _, err := c.r.Src.Fetch(c.ctx, c.pmids, cur); err != nil {
		c.fail("pmFetch: %s\n", pcp.TextOf(err))
	}
	if first {
		c.profile()
	}
	if prev := c.prev; prev != nil {
		c.compute(cur, prev)
	}
	c.info.stamp = cur.Timestamp
	c.prev = cur
}

// usecs is a result's time as the client's timeval holds it.
func usecs(t pcp.Timestamp) (int64, int64) { return t.Sec, int64(t.Nsec / 1000) }

func (c *client) compute(cur, prev *pcp.Result) {
	ip := &c.info
	cs, cu := usecs(cur.Timestamp)
	ps, pu := usecs(prev.Timestamp)
	dt := float64(cs-ps) + float64(cu-pu)/1e6
	value := func(r *pcp.Result, m, i int, out pcp.Type) pcp.Atom {
		vs := &r.Sets[m]
		if i >= len(vs.Values) {
			// PCP's client reads past the values it got; not copied
			return pcp.Atom{}
		}
		a, _ := pcp.ExtractValue(vs.ValFmt, &vs.Values[i], c.descs[m].Type, out)
		return a
	}
	have := func(m int) bool { return prev.Sets[m].NumVal > 0 && cur.Sets[m].NumVal > 0 }

	if !have(cpuUsr) || !have(cpuSys) {
		ip.cpuUtil, ip.peakCPU, ip.peakCPUUtil = -1, -1, -1
	} else {
		ip.cpuUtil, ip.peakCPUUtil = 0, -1
		for i := range int(c.ncpu) {
			u := value(cur, cpuUsr, i, pcp.TypeFloat).F
			u -= value(prev, cpuUsr, i, pcp.TypeFloat).F
			u += value(cur, cpuSys, i, pcp.TypeFloat).F
			u -= value(prev, cpuSys, i, pcp.TypeFloat).F
			// the times are milliseconds
			u = float32(float64(u) / (1000 * dt))
			if u > 1.0 {
				u = 1.0
			}
			ip.cpuUtil += u
			if u > ip.peakCPUUtil {
				ip.peakCPUUtil, ip.peakCPU = u, int32(i)
			}
		}
		ip.cpuUtil /= float32(c.ncpu)
	}

	if !have(freeMem) {
		ip.freeMem = -1
	} else {
		a, err := pcp.ConvScale(pcp.TypeFloat, value(cur, freeMem, 0, pcp.TypeFloat), c.descs[freeMem].Units, mbyte)
		ip.freeMem = a.F
		if err != nil {
			ip.freeMem = 0
		}
	}

	if !have(dkIOPS) {
		ip.dkIOPS = -1
	} else {
		d := int32(value(cur, dkIOPS, 0, pcp.TypeU32).UL)
		d -= int32(value(prev, dkIOPS, 0, pcp.TypeU32).UL)
		ip.dkIOPS = pcp.CastInt32((float64(float32(d)) + 0.5) / dt)
	}

	ip.load1, ip.load15 = -1, -1
	vs := &cur.Sets[loadAv]
	for i := range vs.Values {
		f := value(cur, loadAv, i, pcp.TypeFloat).F
		switch vs.Values[i].Inst {
		case c.inst1:
			ip.load1 = f
		case c.inst15:
			ip.load15 = f
		}
	}
}

// print writes the report line, "?" for what could not be had.
func (c *client) print() {
	ip, w := &c.info, c.r.Stdout
	line := ""
	num := func(ok bool, prefix string, width, prec int, v float64) {
		if ok {
			line += prefix + guide.F(width, prec, v)
		} else {
			line += prefix + fmt.Sprintf("%*s", width, "?")
		}
	}
	num(ip.cpuUtil >= 0, "", 5, 2, float64(ip.cpuUtil))
	if c.ncpu > 1 {
		if ip.peakCPU >= 0 {
			line += fmt.Sprintf("   %3d", ip.peakCPU)
		} else {
			line += fmt.Sprintf("   %3s", "?")
		}
		num(ip.peakCPUUtil >= 0, "   ", 5, 2, float64(ip.peakCPUUtil))
	}
	num(ip.freeMem >= 0, " ", 9, 3, float64(ip.freeMem))
	if ip.dkIOPS >= 0 {
		line += fmt.Sprintf(" %6d", ip.dkIOPS)
	} else {
		line += fmt.Sprintf(" %6s", "?")
	}
	num(ip.load1 >= 0, "  ", 7, 2, float64(ip.load1))
	num(ip.load15 >= 0, "  ", 7, 2, float64(ip.load15))
	fmt.Fprintln(w, line)
}
