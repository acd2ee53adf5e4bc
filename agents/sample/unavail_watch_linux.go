package sample

import (
	"encoding/binary"
	"path/filepath"
	"sync"
	"syscall"
	"unsafe"
)

// watchedFile answers whether a file exists, as access(2) with F_OK
// does, from an inotify watch on its directory while nothing there
// changes, asking the system again when something does.
//
// Why: a daemon agent asks before every request, and a system call
// entered the runtime's way (as a path lookup must be, since it can
// block) wakes the runtime's monitor thread whenever the agent had been
// idle; with one client fetching, that wake-up and the monitor's polling
// after it were a third of the agent's CPU a fetch (perf: futex from
// entersyscallWakeSysmon, nanosleep, sched_yield). Reading a
// non-blocking inotify descriptor cannot block, so it is made raw and
// leaves the monitor asleep.
//
// The kernel queues a directory's events within the system call that
// changes it, so a change made before a request is seen by that
// request, as access(2) would see it. What the watch cannot see is
// answered by access(2) each time: a file that is a symbolic link (its
// target may change elsewhere), a directory the watch lost (removed,
// moved, unmounted), a directory that is a symbolic link, or no inotify
// at all. Only a file system mounted over the directory after the
// watch began goes unseen.
//
// The inotify descriptor, one per process for unavailFile, stays open
// for the life of the program, as the answers are wanted until it ends.
type watchedFile struct {
	mu   sync.Mutex
	dir  string
	name string
	path []byte // dir/name, NUL-terminated, for exists

	started bool
	fd      int  // the inotify descriptor, -1 when not watching
	known   bool // there is the answer until an event says otherwise
	there   bool
	buf     [4096]byte // events; more than one name of NAME_MAX
}

// newWatchedFile watches path once first asked.
func newWatchedFile(path string) *watchedFile {
	dir, name := filepath.Split(path)
	return &watchedFile{dir: filepath.Clean(dir), name: name, path: []byte(path + "\x00"), fd: -1}
}

// watchMask is what the directory's watch reports: a name coming or
// going, attributes changing (the directory's own permissions decide
// whether a lookup succeeds), and the directory itself going.
const watchMask = syscall.IN_CREATE | syscall.IN_DELETE | syscall.IN_MOVED_FROM | syscall.IN_MOVED_TO |
	syscall.IN_ATTRIB | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF | syscall.IN_ONLYDIR | syscall.IN_DONT_FOLLOW

// exists says whether the file exists now.
func (w *watchedFile) exists() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.started {
		w.started = true
		w.start()
	}
	if w.fd < 0 {
		return exists(w.path)
	}
	if w.changed() || !w.known {
		w.check()
	}
	return w.there
}

// start sets up the watch, leaving fd -1 if it cannot.
func (w *watchedFile) start() {
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		return
	}
	if _, err := syscall.InotifyAddWatch(fd, w.dir, watchMask); err != nil {
		syscall.Close(fd)
		return
	}
	// Watching before the first look: a change after it is queued.
	w.fd = fd
}

// stop gives up the watch: every answer is access(2)'s from now on.
func (w *watchedFile) stop() {
	syscall.Close(w.fd)
	w.fd, w.known = -1, false
}

// check asks the system, and notes whether the answer may be kept until
// an event: not when the name is a symbolic link.
func (w *watchedFile) check() {
	w.there = exists(w.path)
	var st syscall.Stat_t
	err := syscall.Lstat(string(w.path[:len(w.path)-1]), &st)
	w.known = err == syscall.ENOENT || err == nil && st.Mode&syscall.S_IFMT != syscall.S_IFLNK
}

// changed reads the queued events and says whether any may change the
// answer; one that ends the watch stops it.
func (w *watchedFile) changed() bool {
	changed := false
	for {
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(w.fd), uintptr(unsafe.Pointer(&w.buf[0])), uintptr(len(w.buf)))
		switch errno {
		case 0:
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return changed
		default:
			w.stop()
			return true
		}
		ours, lost := scanEvents(w.buf[:n], w.name)
		if lost {
			w.stop()
			return true
		}
		changed = changed || ours
	}
}

// inotifyEventSize is the fixed part of struct inotify_event: wd, mask,
// cookie and the name's length, 32 bits each.
const inotifyEventSize = 16

// scanEvents reads inotify events from b, saying whether one concerns
// name (or may: the directory's own attributes, a lost queue) and
// whether the watch has ended. A short or overlong record, which the
// kernel does not write, counts as both, so that the caller falls back
// to asking.
func scanEvents(b []byte, name string) (ours, ended bool) {
	for len(b) > 0 {
		if len(b) < inotifyEventSize {
			return true, true
		}
		mask := binary.NativeEndian.Uint32(b[4:])
		n := binary.NativeEndian.Uint32(b[12:])
		if uint64(n) > uint64(len(b)-inotifyEventSize) {
			return true, true
		}
		ev := b[inotifyEventSize : inotifyEventSize+int(n)]
		b = b[inotifyEventSize+int(n):]
		if mask&(syscall.IN_IGNORED|syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF|syscall.IN_UNMOUNT) != 0 {
			return true, true
		}
		if mask&syscall.IN_Q_OVERFLOW != 0 || n == 0 {
			ours = true
			continue
		}
		// The name is padded with NULs to its length.
		for len(ev) > 0 && ev[len(ev)-1] == 0 {
			ev = ev[:len(ev)-1]
		}
		if string(ev) == name {
			ours = true
		}
	}
	return ours, false
}
