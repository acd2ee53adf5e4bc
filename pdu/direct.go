package pdu

import (
	"io"
	"syscall"
	"time"
)

// A Stream is one end of a connection or pipe that PDUs travel on, as a
// net.Conn or an *os.File from os.Pipe is.
type Stream interface {
	io.Reader
	io.Writer
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
	SyscallConn() (syscall.RawConn, error)
}

// Direct returns s with its reads and writes made as plain system calls
// on its non-blocking descriptor, where the platform allows (Linux), or
// s itself. Waiting for data and deadlines still go through Go's poller
// as before; what changes is the cost of each call that does not wait.
//
// Go marks every read and write of a net.Conn or *os.File as a system
// call that may block, and entering one wakes the runtime's monitor
// thread whenever the program was idle: for a daemon or client that
// exchanges one small PDU at a time, that wake-up and the monitor's
// polling that follows cost more CPU than the PDU's own work. A call on
// a non-blocking descriptor returns at once, so it need not be marked.
//
// The returned Stream allows one Read and one Write at a time (which
// pdu.Reader and pdu.Writer ensure), and closing s interrupts either as
// it would on s.
func Direct(s Stream) Stream {
	return direct(s)
}
