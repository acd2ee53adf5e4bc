package testbed

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// splitPort reports whether process pid listens on port over IPv6 but
// not over IPv4. PCP's pmlogger binds its IPv4 and IPv6 control sockets
// one after the other, each searching upwards from PMLOGGER_PORT past
// ports in use, and writes only the last one bound to its port map: if
// something took the IPv4 port in between, 127.0.0.1 is refused on the
// announced port while ::1 answers. Only that positive evidence counts:
// a process that has exited (its descriptors gone), a host without IPv6
// or a /proc that cannot be read is not split, and an error means it
// could not be told: the caller goes on.
func splitPort(pid, port int) (bool, error) {
	v4, err := listeners("/proc/net/tcp", port)
	if err != nil {
		return false, err
	}
	v6, err := listeners("/proc/net/tcp6", port)
	if err != nil {
		return false, err
	}
	socks, err := socketInodes(pid)
	if err != nil {
		return false, err
	}
	in := func(m map[string]bool) bool {
		for inode := range socks {
			if m[inode] {
				return true
			}
		}
		return false
	}
	return in(v6) && !in(v4), nil
}

// socketInodes returns the inodes of the sockets process pid has open.
func socketInodes(pid int) (map[string]bool, error) {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	inodes := make(map[string]bool)
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join(dir, fd.Name()))
		if err != nil {
			continue // closed meanwhile
		}
		if inode, ok := strings.CutPrefix(link, "socket:["); ok {
			inodes[strings.TrimSuffix(inode, "]")] = true
		}
	}
	return inodes, nil
}

// listeners returns the socket inodes of the table at path (the format
// of /proc/net/tcp and tcp6) that listen on port, on any address.
func listeners(path string, port int) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	const listen = "0A"
	want := fmt.Sprintf(":%04X", port)
	inodes := make(map[string]bool)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Scan() // the heading
	for sc.Scan() {
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[3] != listen || !strings.HasSuffix(f[1], want) {
			continue
		}
		inodes[f[9]] = true
	}
	return inodes, sc.Err()
}
