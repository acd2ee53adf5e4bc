package pmcd

import (
	"os"
	"syscall"
)

// hostname is the host's name from uname(2), one system call where
// os.Hostname reads a file; pmcd.hostname is fetched often.
func hostname() string {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err == nil {
		b := make([]byte, 0, len(u.Nodename))
		for _, c := range u.Nodename {
			if c == 0 {
				break
			}
			b = append(b, byte(c))
		}
		if len(b) > 0 {
			return string(b)
		}
	}
	if h, err := os.Hostname(); err == nil {
		return h
	}
	return "localhost"
}
