package sample

import (
	"encoding/binary"
	"fmt"
	"os"
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
// moved, unmounted), a directory that is a symbolic link, a directory on
// a file system that is not local (localFS: a network or FUSE file
// system changes unseen), or no inotify or mount table at all (the
// per-user limit of inotify instances reached, /proc not mounted).
//
// A file system mounted over the directory, or over one of its
// ancestors, after the watch began would hide the watched directory
// from the path: each request first polls the mount table (raw, without
// waiting), and after any change the watch is made again on what the
// path names then. What no event reports is an ancestor of the directory
// renamed or replaced by another directory: the type is right for a
// directory whose ancestors stay as they are, such as /tmp (whose only
// ancestor is the root), not for one below a directory that others may
// rename.
//
// The inotify and mount table descriptors, one each per process for
// unavailFile, stay open for the life of the program, as the answers are
// wanted until it ends.
type watchedFile struct {
	mu   sync.Mutex
	dir  string
	name string
	path []byte // dir/name, NUL-terminated, for exists

	started  bool
	fd       int   // the inotify descriptor, -1 when not watching
	mounts   int   // mountsFile's descriptor while watching
	notWatch error // why the last start could not watch, for tests
	known    bool  // there is the answer until an event says otherwise
	there    bool
	poll     [2]pollFD
	noWait   syscall.Timespec
	buf      [4096]byte // events; more than one name of NAME_MAX
}

// newWatchedFile watches path once first asked.
func newWatchedFile(path string) *watchedFile {
	dir, name := filepath.Split(path)
	return &watchedFile{dir: filepath.Clean(dir), name: name, path: []byte(path + "\x00"), fd: -1, mounts: -1}
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
	if w.fd >= 0 {
		switch mounts, events := pollWatch(w.fd, w.mounts, &w.poll, &w.noWait); {
		case mounts:
			// What the path names may be another directory now.
			w.stop()
			w.start()
		case events && w.changed():
			w.known = false
		}
	}
	if w.fd < 0 {
		return exists(w.path)
	}
	if !w.known {
		w.check()
	}
	return w.there
}

// start sets up the watch, leaving fd -1 if it cannot (notWatch says
// why). The mount table is opened first, so that a mount made while the
// watch is set up is seen at the next poll; the directory is looked up
// before and after the watch is added, so that the watch is known to be
// on the directory the path named.
func (w *watchedFile) start() {
	w.notWatch = w.watch()
}

func (w *watchedFile) watch() error {
	mounts, err := syscall.Open(mountsFile, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: mountsFile, Err: err}
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs(w.dir, &fs); err != nil {
		syscall.Close(mounts)
		return &os.PathError{Op: "statfs", Path: w.dir, Err: err}
	}
	if !localFS(uint32(fs.Type)) {
		syscall.Close(mounts)
		return fmt.Errorf("%s: file system type %#x is not one whose changes inotify sees", w.dir, uint32(fs.Type))
	}
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		syscall.Close(mounts)
		return os.NewSyscallError("inotify_init1", err)
	}
	var before, after syscall.Stat_t
	err = syscall.Lstat(w.dir, &before)
	if err == nil {
		_, err = syscall.InotifyAddWatch(fd, w.dir, watchMask)
	}
	if err == nil {
		err = syscall.Lstat(w.dir, &after)
	}
	if err == nil && (before.Dev != after.Dev || before.Ino != after.Ino) {
		err = syscall.EAGAIN // replaced meanwhile: asked for each time
	}
	if err != nil {
		syscall.Close(fd)
		syscall.Close(mounts)
		return &os.PathError{Op: "watch", Path: w.dir, Err: err}
	}
	// Watching before the first look: a change after it is queued.
	w.fd, w.mounts, w.known = fd, mounts, false
	return nil
}

// stop gives up the watch: every answer is access(2)'s until a start.
func (w *watchedFile) stop() {
	syscall.Close(w.fd)
	syscall.Close(w.mounts)
	w.fd, w.mounts, w.known = -1, -1, false
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
