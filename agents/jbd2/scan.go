package jbd2

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Bounds on what one reading takes in. A kernel's info file is under a
// kilobyte and a host has a journal per mounted filesystem; past these
// the rest is left unread.
const (
	maxInfo     = 1 << 20 // bytes of one info file
	maxJournals = 1 << 14 // directory entries looked at
)

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
	}
	a.cache.DeactivateAll()
	d, err := os.Open(a.dir)
	if err != nil {
		return
	}
	defer d.Close()
	seen := 0
	for seen < maxJournals {
		// Read in directory order, unsorted, so that new journals are
		// numbered in the order PCP's readdir loop numbers them.
		ents, err := d.ReadDir(min(256, maxJournals-seen))
		for _, e := range ents {
			a.journal(e.Name())
		}
		seen += len(ents)
		if err != nil || len(ents) == 0 {
			break
		}
	}
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
func (a *agent) journal(name string) {
	if name == "" || name[0] == '.' {
		return
	}
	text, ok := readInfo(filepath.Join(a.dir, name, "info"))
	if !ok {
		return
	}
	_, _, private, err := a.cache.LookupName(name)
	j, _ := private.(*journal)
	if err != nil || j == nil {
		j = new(journal)
	}
	if !parseInfo(j, text) {
		return
	}
	// A name the cache refuses (one that clashes with another up to
	// its first space) stays out, as in PCP, and silently: it would be
	// refused again at every request.
	_, _ = a.cache.Add(name, j)
}

// readInfo reads up to maxInfo bytes of a regular file. It opens without
// blocking and refuses anything else, so a FIFO put where an info file
// belongs cannot hold the agent. A read error ends the text where it
// happened.
func readInfo(path string) ([]byte, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	text, _ := io.ReadAll(io.LimitReader(f, maxInfo))
	return text, true
}
