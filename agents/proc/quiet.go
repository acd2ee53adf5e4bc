package proc

import (
	"hash/maphash"
	"sync"
	"syscall"
	"unsafe"
)

// Most processes sleep through most fetches, and a process that has not
// run cannot have changed most of what its files say: its memory map,
// environment, working directory, executable, security label, open
// files, wait channel, identities and memory sizes change only when it
// runs (or, for memory, when reclaim takes pages, which changes its
// resident size in stat). PCP's agent reads every file again at every
// fetch; this agent reads stat and schedstat, whose run time in
// nanoseconds and count of times scheduled change whenever the process
// has run, and keeps the other files' values while both are byte for
// byte what they were when those values were read. What another
// process can change without the process running is read every time
// (cgroup, oom_score, io, smaps_rollup, autogroup), except the CPU
// affinity in status, which is checked with sched_getaffinity on the
// host's own /proc. Values are kept per credentials: a file read for one
// client is not reused for a client of other credentials.

// keepable are the files whose values are kept while a process is quiet.
const keepable = 1<<fStatus | 1<<fStatm | 1<<fMaps | 1<<fEnviron | 1<<fWchan | 1<<fLabel |
	1<<fCwd | 1<<fExe | 1<<fFD

// sigSeed is the seed of the signatures' hashes, made at first use.
func sigSeed() maphash.Seed {
	seedOnce.Do(func() { seedOnce.s = maphash.MakeSeed() })
	return seedOnce.s
}

var seedOnce struct {
	sync.Once
	s maphash.Seed
}

// resign records the hash of a signature file's content in *sig,
// dropping the kept values when it changed.
func (e *entry) resign(sig *uint64, b []byte) {
	h := maphash.Bytes(sigSeed(), b)
	if h != *sig {
		*sig = h
		e.cached = 0
	}
}

// loadFiles reads the files of e a fetch needs, keeping what is kept.
// key names the credentials and thread setting of the reading; live says
// the tree is the host's /proc (so its pids are the host's).
func (r *reader) loadFiles(e *entry, files uint32, threads bool, key uint64, live bool) {
	if key != e.readAs {
		e.cached = 0
		e.readAs = key
	}
	keep := files & keepable
	if keep != 0 {
		r.load(e, fStat, threads)
		r.load(e, fSchedstat, threads)
		if e.ok&(1<<fStat) == 0 || e.ok&(1<<fSchedstat) == 0 {
			e.cached = 0
			keep = 0
		}
	}
	if keep&(1<<fStatus) != 0 && live {
		if a := affinity(e.pid); a != e.affSig {
			e.cached &^= 1 << fStatus
			e.affSig = a
		}
	}
	for f := file(0); f < numFiles; f++ {
		bit := uint32(1) << f
		if files&bit == 0 || e.fetched&bit != 0 {
			continue
		}
		if keep&bit != 0 && e.cached&bit != 0 {
			e.fetched |= bit
			continue
		}
		r.load(e, f, threads)
		if keep&bit != 0 {
			e.cached |= bit
		}
	}
}

// affinity hashes the CPU affinity of a task of the host (0 when it
// cannot be read).
func affinity(pid int32) uint64 {
	var mask [128]byte
	n, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, uintptr(pid), uintptr(len(mask)), uintptr(unsafe.Pointer(&mask[0])))
	if e != 0 || int(n) > len(mask) {
		return 0
	}
	return maphash.Bytes(sigSeed(), mask[:n])
}
