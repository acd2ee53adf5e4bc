//go:build !linux

package ownfile

// holder cannot find which processes hold a file open here: nobody is
// taken to.
func holder(string) int { return 0 }
