//go:build !linux

package pmcd

import "net"

// clientPolls is Linux's epoll set of clients (clientpoll_linux.go);
// elsewhere clients read through Go's poller alone.
type clientPolls struct{ off bool }

// pollClient returns conn and rw as they are.
func (s *Server) pollClient(conn net.Conn, rw stream) (net.Conn, stream) { return conn, rw }
