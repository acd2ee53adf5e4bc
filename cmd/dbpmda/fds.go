package main

import (
	"os"
	"strconv"

	"github.com/gopcp/gopcp/internal/ownfile"
)

// takenFDs are the descriptors dbpmda was started with (0, 1, 2 and any
// its parent left open without close-on-exec). PCP's dbpmda reads an
// agent on the lowest descriptors free after them, and its messages name
// that number: a pipe agent's answers come on the third free one (two
// pipes made in turn, the second's read end kept), a socket's on the
// first. Read once by main (readTakenFDs, by ownfile.Inherited); tests
// that run dbpmda in process keep the three standard ones.
var takenFDs = map[int]bool{0: true, 1: true, 2: true}

// maxTakenFDs bounds how many open descriptors are looked at.
const maxTakenFDs = 4096

// readTakenFDs records the descriptors this process inherited; without
// /proc, the standard three stay.
func readTakenFDs() {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for i, e := range ents {
		if i >= maxTakenFDs {
			break
		}
		if fd, err := strconv.Atoi(e.Name()); err == nil && ownfile.Inherited(fd) {
			takenFDs[fd] = true
		}
	}
}

// freeFD is the n-th (from 0) lowest descriptor number not in takenFDs:
// the one PCP's dbpmda would have after opening n before it.
func freeFD(n int) int {
	for fd := 0; ; fd++ {
		if takenFDs[fd] {
			continue
		}
		if n == 0 {
			return fd
		}
		n--
	}
}
