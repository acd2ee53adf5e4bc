package cgroup

import "unsafe"

// psiField is what a pressure line is scanned with.
type psiFlags int

const (
	psiSome psiFlags = 1 << iota
	psiFull
)

// psiFormat is scanPressure's format for a line type: constants, not a
// concatenation every call (nor a map, which package init would build).
func psiFormat(typ string) string {
	if typ == "full" {
		return "full avg10=%f avg60=%f avg300=%f total=%llu\n"
	}
	return "some avg10=%f avg60=%f avg300=%f total=%llu\n"
}

// scanPressure is fscanf(fp, "TYPE avg10=%f avg60=%f avg300=%f total=%llu\n")
// at b[*pos:], moving *pos as far as fscanf consumes: literal bytes must
// match, a format space matches any run of white space.
func scanPressure(b string, pos *int, typ string) (p pressure) {
	format := psiFormat(typ)
	i := *pos
	count := 0
	defer func() { *pos = i; p.updated = count == 4 }()
	for f := 0; f < len(format); f++ {
		c := format[f]
		switch {
		case c == ' ' || c == '\n':
			i = skipSpace(b, i)
		case c == '%' && format[f+1] == 'f':
			v, end, ok := scanFloat(b, i)
			if !ok {
				return p
			}
			i = end
			switch count {
			case 0:
				p.avg10 = v
			case 1:
				p.avg60 = v
			case 2:
				p.avg300 = v
			}
			count++
			f++
		case c == '%':
			v, end, ok := scanULL(b, i)
			if !ok {
				return p
			}
			i = end
			p.total = v
			count++
			f += 3
		default:
			if i >= len(b) || b[i] != c {
				return p
			}
			i++
		}
	}
	return p
}

// readPressures is read_pressures: the some and full lines asked for,
// zeroed first and left so when the file cannot be read.
func (s *Source) readPressures(path string, some, full *pressure, flags psiFlags) {
	if flags&psiSome != 0 {
		*some = pressure{}
	}
	if flags&psiFull != 0 {
		*full = pressure{}
	}
	b, err := s.read(path)
	if err != nil {
		return
	}
	text := unsafe.String(unsafe.SliceData(b), len(b)) // only scanned
	pos := 0
	if flags&psiSome != 0 {
		*some = scanPressure(text, &pos, "some")
	}
	if flags&psiFull != 0 {
		*full = scanPressure(text, &pos, "full")
	}
}

// readCPUTime reads cgroup v2 cpu.stat's usage, user and system times
// (read_cpu_time); none for what is missing.
func (s *Source) readCPUTime(path string, g *cgroup2Group) {
	g.usage, g.user, g.system = none, none, none
	s.keyed(path, func(k string, v uint64) {
		switch k {
		case "usage_usec":
			g.usage = v
		case "user_usec":
			g.user = v
		case "system_usec":
			g.system = v
		}
	})
}

// readIOStat reads cgroup v2 io.stat into the per-device domain
// (read_io_stats): lines with all six counters in the kernel's order.
func (s *Source) readIOStat(path, name string) {
	b, err := s.read(path)
	if err != nil {
		return
	}
	keys := [6]string{"rbytes=", "wbytes=", "rios=", "wios=", "dbytes=", "dios="}
	piecesView(b, 4096, func(line string) bool {
		devt, i, ok := scanDevt(line)
		if !ok {
			return true
		}
		var st ioStat
		for k, key := range keys {
			i = skipSpace(line, i)
			if len(line)-i < len(key) || line[i:i+len(key)] != key {
				return true
			}
			if st.v[k], i, ok = scanULL(line, i+len(key)); !ok {
				return true
			}
		}
		dn, found := s.devt[devt]
		dev := dn.name
		if !found {
			return true
		}
		inst := s.instName(InDomCgroup2Dev, unescape(name), "::", dev)
		priv, _ := s.lookup(InDomCgroup2Dev, inst)
		d, _ := priv.(*ioStat)
		if d == nil {
			d = &ioStat{}
		}
		*d = st
		s.add(InDomCgroup2Dev, inst, d)
		return true
	})
}
