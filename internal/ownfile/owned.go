package ownfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrNotOwned is returned by Owned.Remove when the path no longer names
// the file this process made: something else replaced it.
var ErrNotOwned = errors.New("no longer the file this process made")

// Owned is a file this process made, remembered by identity (device,
// inode and change time, since a freed inode number is soon reused) so
// that it is removed at exit only while its path still names that very
// file. A zero or nil *Owned removes nothing.
type Owned struct {
	path string
	id   os.FileInfo
}

// Own records the file at path, just made by this process, as its own.
func Own(path string) (*Owned, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	return &Owned{path: path, id: fi}, nil
}

// Path is the owned file's name.
func (o *Owned) Path() string {
	if o == nil {
		return ""
	}
	return o.path
}

// Still reports whether the path names the file this process made.
func (o *Owned) Still() bool {
	if o == nil || o.id == nil {
		return false
	}
	fi, err := os.Lstat(o.path)
	return err == nil && same(fi, o.id)
}

// same reports whether two descriptions are of one file in one state of
// its metadata.
func same(a, b os.FileInfo) bool {
	if !os.SameFile(a, b) {
		return false
	}
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return !ok1 || !ok2 || sa.Ctim == sb.Ctim
}

// Remove deletes the file if the path still names it. A file already gone
// is not an error; one replaced by another is left and reported with
// ErrNotOwned.
func (o *Owned) Remove() error {
	if o == nil || o.id == nil {
		return nil
	}
	fi, err := os.Lstat(o.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !same(fi, o.id) {
		return fmt.Errorf("%s: %w", o.path, ErrNotOwned)
	}
	if err := os.Remove(o.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
