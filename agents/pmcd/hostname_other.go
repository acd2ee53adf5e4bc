//go:build !linux

package pmcd

import "os"

// hostname is the host's name.
func hostname() string {
	if h, err := os.Hostname(); err == nil {
		return h
	}
	return "localhost"
}
