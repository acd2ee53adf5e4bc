//go:build !linux

package archive

import "os"

func pageSize() int { return os.Getpagesize() }

func (v *volume) moveMap(at, n int) bool { return false }
func (v *volume) unmap()                 {}
