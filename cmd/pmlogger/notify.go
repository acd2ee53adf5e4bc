package main

import (
	"net"
	"os"
)

// notifyServiceManager sends msg to the service manager's socket
// ($NOTIFY_SOCKET, sd_notify(3)'s datagram protocol; "@" names an
// abstract socket), as PCP's daemons do under -N. Without the variable
// it does nothing: the logger was not started by systemd with
// Type=notify.
func notifyServiceManager(msg string) {
	path := os.Getenv("NOTIFY_SOCKET")
	if path == "" {
		return
	}
	if path[0] == '@' {
		path = "\x00" + path[1:]
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		return
	}
	defer c.Close()
	c.Write([]byte(msg))
}
