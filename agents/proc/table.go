package proc

import (
	"slices"
	"strconv"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// file names one per-process file (or directory, or link) the agent
// reads; each is read at most once per fetch, and only when a fetched
// metric needs it for an instance the fetch asks for.
type file uint8

const (
	fStat file = iota
	fStatus
	fStatm
	fIO
	fSchedstat
	fSmaps
	fFD
	fCgroup
	fLabel
	fOOM
	fCwd
	fExe
	fAutogroup
	fWchan
	fEnviron
	fMaps
	numFiles
)

// fileNames are the files' names under /proc/PID.
var fileNames = [numFiles]string{"stat", "status", "statm", "io", "schedstat", "smaps_rollup", "fd",
	"cgroup", "attr/current", "oom_score", "cwd", "exe", "autogroup", "wchan", "environ", "maps"}

// entry is one process (or thread) of a listing, kept while it lives.
type entry struct {
	pid    int32
	inst   string // "000123 cmd", PCP's instance name
	psargs string
	seen   uint64 // the listing it was last in

	fetched uint32          // files read (or known unchanged) this fetch
	ok      uint32          // files whose last read gave values
	code    [numFiles]int32 // a failed read's answer: 0 no value, else a PCP error

	// What can be kept from one fetch to the next (see quiet.go).
	statSig, schedSig uint64 // hashes of stat and schedstat when last read
	affSig            uint64 // hash of the CPU affinity when status was kept
	cached            uint32 // files kept while the signatures hold
	readAs            uint64 // the credentials (and thread setting) they were read with

	stat       statData
	status     statusData
	statm      [7]uint64
	io         [7]uint64
	sched      [3]uint64
	smaps      [20]uint64
	fdCount    uint32
	oom        uint32
	agID       uint32
	agNice     int32
	cgroups    string
	container  string
	label      string
	cwd, exe   string
	wchan      string
	wchanSet   bool // wchan has been read with a value at least once
	environ    string
	environSet bool
	maps       string
}

// maxPIDs bounds a listing: Linux's largest pid_max.
const maxPIDs = 1 << 22

// table is the processes of one instance domain (all processes, or the
// hot ones), numbered by pid.
type table struct {
	byPID map[int32]*entry
	pids  []int32 // the current listing, ascending
	insts []pmda.Instance
	gen   uint64
	dirty bool // insts needs rebuilding
}

func newTable() *table { return &table{byPID: make(map[int32]*entry)} }

// reader holds the buffers the agent reads files with.
type reader struct {
	root    string // PCP's PROC_STATSPATH: a prefix of /proc
	path    []byte
	buf     []byte
	dirBuf  []byte
	scratch []byte
	name    [4096]byte
}

// pathOf builds root/proc/PID/[task/PID/]name NUL-terminated.
func (r *reader) pathOf(pid int32, task bool, name string) []byte {
	p := append(r.path[:0], r.root...)
	p = append(p, "/proc/"...)
	p = strconv.AppendInt(p, int64(pid), 10)
	p = append(p, '/')
	if task {
		p = append(p, "task/"...)
		p = strconv.AppendInt(p, int64(pid), 10)
		p = append(p, '/')
	}
	p = append(p, name...)
	p = append(p, 0)
	r.path = p
	return p
}

// mapErr is PCP's answer to a failed open or read: permission and
// invalid argument give no value, a missing file PM_ERR_APPVERSION.
func mapErr(e syscall.Errno) int32 {
	switch e {
	case syscall.EACCES, syscall.EINVAL:
		return 0
	case syscall.ENOENT:
		return int32(pcp.ErrAppVersion)
	case syscall.ENODATA:
		return int32(pcp.ErrValue)
	}
	return -int32(e)
}

// open opens a file of pid: the thread's own copy under task/ first when
// threads are listed, as PCP's agent does.
func (r *reader) open(pid int32, threads bool, name string, flags int) (int, syscall.Errno) {
	if threads {
		if fd, e := openPath(r.pathOf(pid, true, name), flags); e == 0 {
			return fd, 0
		}
	}
	return openPath(r.pathOf(pid, false, name), flags)
}

// read reads a whole file of pid. code is the answer when b is nil.
func (r *reader) read(pid int32, threads bool, name string) (b []byte, code int32) {
	fd, e := r.open(pid, threads, name, 0)
	if e != 0 {
		return nil, mapErr(e)
	}
	b, e = readAll(fd, &r.buf, name != "maps")
	syscall.Close(fd)
	if e != 0 {
		return nil, mapErr(e)
	}
	if len(b) == 0 {
		return nil, int32(pcp.ErrValue)
	}
	return b, 0
}

// readlink reads a link of pid; a link that cannot be read is the empty
// string (kernel threads have no exe), as in PCP's agent.
func (r *reader) readlink(pid int32, name string) []byte {
	if cap(r.buf) < 4096 {
		r.buf = make([]byte, 4096)
	}
	b := r.buf[:cap(r.buf)]
	n, e := readlinkPath(r.pathOf(pid, false, name), b)
	if e != 0 || n <= 0 {
		return b[:0]
	}
	return b[:n]
}

// list lists the processes (and with threads, their threads) of the
// root into pids, ascending.
func (r *reader) list(pids []int32, threads bool) ([]int32, error) {
	if r.dirBuf == nil {
		r.dirBuf = make([]byte, 32<<10)
	}
	p := append(r.path[:0], r.root...)
	p = append(p, "/proc"...)
	p = append(p, 0)
	r.path = p
	fd, e := openPath(p, syscall.O_DIRECTORY)
	if e != 0 {
		return pids[:0], e
	}
	pids = pids[:0]
	e = eachPID(fd, r.dirBuf, func(pid int32) {
		if len(pids) < maxPIDs {
			pids = append(pids, pid)
		}
	})
	syscall.Close(fd)
	if e != 0 {
		return pids[:0], e
	}
	if threads {
		return r.addThreads(pids), nil
	}
	slices.Sort(pids)
	return slices.Compact(pids), nil
}

// addThreads adds the threads of pids, ascending.
func (r *reader) addThreads(pids []int32) []int32 {
	tasks := make([]byte, 8<<10)
	n := len(pids)
	for _, pid := range pids[:n] {
		fd, e := openPath(r.pathOf(pid, false, "task"), syscall.O_DIRECTORY)
		if e != 0 {
			continue
		}
		eachPID(fd, tasks, func(tid int32) {
			if tid != pid && len(pids) < maxPIDs {
				pids = append(pids, tid)
			}
		})
		syscall.Close(fd)
	}
	slices.Sort(pids)
	return slices.Compact(pids)
}

// instName makes a new process's instance name and psargs as PCP's agent
// makes them: the pid in six digits and the command line with its NULs
// turned to spaces ("000123 /usr/bin/prog -x"), or when that is empty
// the status file's Name in parentheses, or "<exiting>"; the instance
// name is that up to the command line's first space.
func (r *reader) instName(pid int32, threads bool) (inst, psargs string) {
	buf := r.name[:]
	head := strconv.AppendInt(r.scratch[:0], int64(pid), 10)
	pad := 6 - len(head)
	var preBuf [16]byte
	pre := preBuf[:0]
	for ; pad > 0; pad-- {
		pre = append(pre, '0')
	}
	pre = append(pre, head...)
	pre = append(pre, ' ')
	numlen := len(pre)
	var name []byte
	k := 0
	if b, _ := r.read(pid, threads, "cmdline"); len(b) > 0 {
		copy(buf, pre)
		k = copy(buf[numlen:len(buf)-1], b)
		c := buf[numlen : numlen+k]
		for len(c) > 0 && c[len(c)-1] == 0 {
			c = c[:len(c)-1]
		}
		for i := 1; i < len(c); i++ {
			if c[i] == 0 {
				c[i] = ' '
			}
		}
		name = buf[:numlen+len(c)]
	}
	if k == 0 {
		if b, _ := r.read(pid, threads, "status"); len(b) > 0 {
			// PCP's agent reads status two bytes into its buffer,
			// ends the first line with ')' and writes the pid and
			// " (" over the "Name:\t" before it.
			k = copy(buf[2:len(buf)-2], b)
			nl := -1
			for i := 2; i < 2+k; i++ {
				if buf[i] == '\n' {
					nl = i
					break
				}
			}
			if nl < 0 {
				nl = k
			}
			buf[nl] = ')'
			end := nl + 1
			copy(buf, pre)
			buf[numlen] = '('
			if end < numlen+1 {
				end = numlen + 1
			}
			name = buf[:end]
		}
	}
	if k <= 0 {
		copy(buf, pre)
		name = append(buf[:numlen], "<exiting>"...)
	}
	if i := indexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	full := string(name)
	if numlen <= len(full) {
		psargs = full[numlen:]
	}
	if i := indexByte(name[numlen:], ' '); i >= 0 {
		inst = full[:numlen+i]
	} else {
		inst = full
	}
	if len(inst) > 4096 {
		inst = inst[:4096]
	}
	return inst, psargs
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// refresh lists the processes, adds the new ones (their instance names
// read once), forgets those gone and starts a new fetch: every entry's
// files are to be read again.
func (t *table) refresh(r *reader, pids []int32, threads bool) {
	t.gen++
	changed := len(pids) != len(t.pids)
	for _, pid := range pids {
		e := t.byPID[pid]
		if e == nil {
			e = &entry{pid: pid}
			e.inst, e.psargs = r.instName(pid, threads)
			t.byPID[pid] = e
			changed = true
		}
		e.seen = t.gen
		e.fetched = 0
	}
	if len(t.byPID) != len(pids) {
		for pid, e := range t.byPID {
			if e.seen != t.gen {
				delete(t.byPID, pid)
			}
		}
		changed = true
	}
	t.pids = append(t.pids[:0], pids...)
	if changed {
		t.dirty = true
	}
}

// instances is the table's instance list, rebuilt only when the listing
// changed.
func (t *table) instances() []pmda.Instance {
	if t.dirty || t.insts == nil {
		insts := make([]pmda.Instance, len(t.pids))
		for i, pid := range t.pids {
			insts[i] = pmda.Instance{ID: pid, Name: t.byPID[pid].inst}
		}
		t.insts = insts
		t.dirty = false
	}
	return t.insts
}
