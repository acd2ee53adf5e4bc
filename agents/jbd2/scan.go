package jbd2

import (
	"errors"
	"io/fs"
	"syscall"

	"github.com/gopcp/gopcp/internal/dirent"
)

// Bounds on what one reading takes in. A kernel's info file is under a
// kilobyte and a host has a journal per mounted filesystem: past
// maxInfo the rest of a file is left unread, and a directory of more
// than maxJournals entries is not read at all.
const (
	maxInfo     = 1 << 20
	maxJournals = 1 << 14
)

// reader holds the buffers the directory and files are read into, kept
// from one refresh to the next so that a steady reading allocates little:
// the directory is listed with getdents64 and each info file read with
// raw system calls (an os.File costs a poller registration and a
// finalizer per open).
type reader struct {
	list dirent.List
	path []byte // DIR/NAME/info, NUL-terminated for the open
	text []byte // the info file being parsed
}

// refresh reads the journals' directory: every journal is made inactive,
// then each entry whose info file parses is made active again, a new one
// numbered by the cache. The cache file is read at the first refresh and
// written when instances were added. A directory that cannot be read
// leaves no instance, and no file written. The caller holds a.mu.
func (a *agent) refresh() {
	if !a.loaded {
		a.loaded = true
		if _, err := a.cache.Load(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			a.log.Printf("jbd2: instance cache: %v", err)
		}
		a.rd.list.Limit = maxJournals
	}
	a.cache.DeactivateAll()
	// In directory order, unsorted, so that new journals are numbered in
	// the order PCP's readdir loop numbers them.
	if err := a.rd.list.Read(false, a.dir); err != nil {
		a.active = nil
		return
	}
	for i := range a.rd.list.Len() {
		a.journal(a.rd.list.At(i))
	}
	a.active = a.cache.AppendActive(nil)
	if _, err := a.cache.Save(); err != nil {
		if a.saveOK {
			a.log.Printf("jbd2: instance cache: %v", err)
		}
		a.saveOK = false
	} else {
		a.saveOK = true
	}
}

// journal reads one entry of the directory into the cache.
func (a *agent) journal(name []byte) {
	if len(name) == 0 || name[0] == '.' {
		return
	}
	if !a.readInfo(name) {
		return
	}
	key := string(name)
	_, _, private, err := a.cache.LookupName(key)
	j, _ := private.(*journal)
	if err != nil || j == nil {
		j = new(journal)
	}
	if !parseInfo(j, a.rd.text) {
		return
	}
	// A name the cache refuses (one that clashes with another up to
	// its first space) stays out, as in PCP, and silently: it would be
	// refused again at every request.
	_, _ = a.cache.Add(key, j)
}

// readInfo reads up to maxInfo bytes of the journal's info file into
// a.rd.text, if it is a regular file. It opens without blocking, so a
// FIFO put where an info file belongs cannot hold the agent. A read
// error ends the text where it happened.
func (a *agent) readInfo(name []byte) bool {
	rd := &a.rd
	rd.path = append(append(append(append(rd.path[:0], a.dir...), '/'), name...), "/info\x00"...)
	fd, errno := dirent.Open(rd.path, syscall.O_RDONLY|syscall.O_NONBLOCK)
	if errno != 0 {
		return false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return false
	}
	if cap(rd.text) < 4096 {
		rd.text = make([]byte, 0, 4096)
	}
	rd.text = rd.text[:0]
	for len(rd.text) < maxInfo {
		if len(rd.text) == cap(rd.text) {
			rd.text = append(rd.text, 0)[:len(rd.text)]
		}
		n, err := syscall.Read(fd, rd.text[len(rd.text):min(cap(rd.text), maxInfo)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		rd.text = rd.text[:len(rd.text)+n]
	}
	return true
}
