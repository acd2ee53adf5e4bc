package main

import (
	"os"
	"path/filepath"
)

// ipv6Enabled is libpcp's test of whether to open IPv6 request sockets
// (pmGetAPIConfig("ipv6")): on Linux, IPv6 is off when the first byte of
// proc's sys/net/ipv6/conf/all/disable_ipv6 is '1'; where that file
// cannot be read, on only when net/if_inet6 exists. A kernel with IPv6
// disabled still lets [::] be bound, so trying the bind is no test.
func ipv6Enabled(proc string) bool {
	b, err := os.ReadFile(filepath.Join(proc, "sys/net/ipv6/conf/all/disable_ipv6"))
	if err != nil {
		_, err := os.Stat(filepath.Join(proc, "net/if_inet6"))
		return err == nil
	}
	return len(b) == 0 || b[0] != '1'
}
