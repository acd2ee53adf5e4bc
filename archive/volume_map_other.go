//go:build !linux

package archive

import "os"

func pageSize() int { return os.Getpagesize() }

func mapVolume(f *os.File, size int) []byte { return nil }
func (v *volume) release(off, to int)       {}
func (v *volume) unmap()                    {}
