package testbed

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// splitPort reports whether process pid has no IPv4 socket listening on
// port although it announced that port. PCP's pmlogger binds its IPv4
// and IPv6 control sockets one after the other, each searching upwards
// from PMLOGGER_PORT past ports in use, and writes only the last one
// bound to its port map: if something took the IPv4 port in between,
// 127.0.0.1 is refused on the announced port while ::1 answers. An
// error means it could not be told (no /proc): the caller goes on.
func splitPort(pid, port int) (bool, error) {
	listening, err := ipv4Listeners("/proc/net/tcp", port)
	if err != nil {
		return false, err
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return false, err
	}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join(fmt.Sprintf("/proc/%d/fd", pid), fd.Name()))
		if err != nil {
			continue
		}
		inode, ok := strings.CutPrefix(link, "socket:[")
		if ok && listening[strings.TrimSuffix(inode, "]")] {
			return false, nil
		}
	}
	return true, nil
}

// ipv4Listeners returns the socket inodes of the table at path (the
// format of /proc/net/tcp) that listen on port, on any address.
func ipv4Listeners(path string, port int) (map[string]bool, error) {
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
