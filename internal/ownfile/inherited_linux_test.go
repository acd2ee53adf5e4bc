package ownfile

import (
	"os"
	"syscall"
	"testing"
)

// TestInherited: a descriptor this process opened (close-on-exec, as Go
// opens every one) is not inherited; the same descriptor with the flag
// cleared, as one that came through exec has it, is; a closed one is not.
func TestInherited(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	fd := int(f.Fd())
	if Inherited(fd) {
		t.Errorf("descriptor %d opened here reads as inherited", fd)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFD, 0); e != 0 {
		t.Fatal(e)
	}
	if !Inherited(fd) {
		t.Errorf("descriptor %d without close-on-exec reads as not inherited", fd)
	}
	f.Close()
	if Inherited(fd) {
		t.Errorf("closed descriptor %d reads as inherited", fd)
	}
	if Inherited(-1) {
		t.Error("-1 reads as inherited")
	}
}
