package proc

import (
	"syscall"

	"github.com/gopcp/gopcp/pcp"
)

// load reads file f of e for this fetch, once: afterwards e.ok has f's
// bit when the file gave values, else e.code[f] says what to answer.
func (r *reader) load(e *entry, f file, threads bool) {
	bit := uint32(1) << f
	if e.fetched&bit != 0 {
		return
	}
	e.fetched |= bit
	code := r.loadFile(e, f, threads)
	if code == 1 {
		e.ok |= bit
		code = 0
	} else {
		e.ok &^= bit
		if f == fStat || f == fSchedstat {
			e.cached = 0
		}
	}
	e.code[f] = code
}

// loadFile reads and parses one file, returning 1 for values, else
// the answer for the file's metrics (0: no value).
func (r *reader) loadFile(e *entry, f file, threads bool) int32 {
	switch f {
	case fFD:
		fd, en := r.open(e.pid, threads, "fd", syscall.O_DIRECTORY)
		if en != 0 {
			return mapErr(en)
		}
		if r.dirBuf == nil {
			r.dirBuf = make([]byte, 32<<10)
		}
		n, en := countDir(fd, r.dirBuf)
		syscall.Close(fd)
		if en != 0 {
			return mapErr(en)
		}
		e.fdCount = uint32(n)
		return 1
	case fCwd:
		setString(&e.cwd, r.readlink(e.pid, "cwd"))
		return 1
	case fExe:
		setString(&e.exe, r.readlink(e.pid, "exe"))
		return 1
	}
	b, code := r.read(e.pid, threads, fileNames[f])
	switch f {
	case fWchan:
		// An unreadable wchan is the empty string once it has had a
		// value, and no value before; an empty one PM_ERR_VALUE.
		if b == nil {
			if code == int32(pcp.ErrValue) {
				return code
			}
			if e.wchanSet {
				e.wchan = ""
				return 1
			}
			return 0
		}
		setString(&e.wchan, b)
		e.wchanSet = true
		return 1
	case fEnviron:
		if b == nil {
			e.environ = ""
			return 1
		}
		for i, c := range b {
			if c == 0 {
				b[i] = ' '
			}
		}
		b = b[:len(b)-1]
		setString(&e.environ, b)
		return 1
	case fMaps:
		if b == nil {
			if code == int32(pcp.ErrValue) {
				e.maps = ""
				return 1
			}
			return code
		}
		setString(&e.maps, b[:len(b)-1])
		return 1
	case fAutogroup:
		e.agID, e.agNice = 0, 0
		if b == nil {
			if code == int32(pcp.ErrValue) {
				return 1
			}
			return code
		}
		e.agID, e.agNice = parseAutogroup(b)
		return 1
	}
	if b == nil {
		return code
	}
	switch f {
	case fStat:
		if !parseStat(&e.stat, b) {
			return int32(pcp.ErrValue)
		}
		e.resign(&e.statSig, b)
	case fStatus:
		parseStatus(&e.status, b, &r.scratch)
	case fStatm:
		parseNumbers(e.statm[:], b)
	case fIO:
		parseKeyed(e.io[:], ioKeys[:], b)
	case fSchedstat:
		parseNumbers(e.sched[:], b)
		e.resign(&e.schedSig, b)
	case fSmaps:
		parseKeyed(e.smaps[:], smapsKeys[:], b)
	case fCgroup:
		r.scratch = cgroupFormat(r.scratch, b)
		setString(&e.cgroups, r.scratch)
		setString(&e.container, containerOf(b))
	case fLabel:
		setString(&e.label, b[:len(b)-1])
	case fOOM:
		v, _ := num(b, 0)
		e.oom = uint32(v)
	}
	return 1
}
