package linux

// readLocks counts /proc/locks lines by kind and access.
func (x *Linux) readLocks() error {
	c := &x.conns
	c.locks = [3][3]uint64{}
	b, err := x.readProc("locks")
	c.locksOK = err == nil
	if err != nil {
		return nil
	}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		// "1: POSIX  ADVISORY  WRITE 1234 ..." ("->" marks a waiter, with
		// the fields shifted by one)
		if len(f) > 1 && string(f[1]) == "->" {
			f = f[1:]
		}
		if len(f) < 4 {
			continue
		}
		k := -1
		switch {
		case hasPrefix(f[1], "POSIX"), hasPrefix(f[1], "ACCESS"), hasPrefix(f[1], "OFDLCK"):
			k = 0
		case hasPrefix(f[1], "FLOCK"):
			k = 1
		case hasPrefix(f[1], "DELEG"), hasPrefix(f[1], "LEASE"):
			k = 2
		}
		if k < 0 {
			continue
		}
		c.locks[k][2]++
		switch {
		case hasPrefix(f[3], "READ"):
			c.locks[k][0]++
		case hasPrefix(f[3], "WRITE"):
			c.locks[k][1]++
		case hasPrefix(f[3], "RW"):
			c.locks[k][0]++
			c.locks[k][1]++
		}
	}
	return nil
}
