// Package sdnotify tells a service manager about a daemon's state by
// sd_notify(3)'s datagram protocol, as PCP's daemons do when systemd runs
// them with Type=notify (pmlogger -N, pmproxy -F). The socket's name is
// the caller's ($NOTIFY_SOCKET, read in cmd/).
package sdnotify

import "net"

// maxMessage bounds a message: the service manager reads one datagram.
const maxMessage = 4096

// Notify sends msg ("READY=1\nMAINPID=N", "STOPPING=1") to the socket at
// path; a leading "@" names an abstract socket. An empty path (no
// service manager asked for notices) sends nothing and is no error.
func Notify(path, msg string) error {
	if path == "" {
		return nil
	}
	if len(msg) > maxMessage {
		msg = msg[:maxMessage]
	}
	if path[0] == '@' {
		path = "\x00" + path[1:]
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Write([]byte(msg))
	return err
}
