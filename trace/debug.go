package trace

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"syscall"
)

// The diagnostics pmtracestate's flags ask for are libpcp_trace's own
// lines, named by the C function that prints them, so that a user of
// pmtrace -S sees what PCP's prints. StatePDUBuf's lines are not
// printed: they follow libpcp_trace's pool of C buffers (their addresses
// and sizes), which this package does not have.

// logf writes one diagnostic line, whatever the flags (the callers
// check them, as some of libpcp_trace's lines are printed for
// StateNoAgent alone).
func (c *Client) logf(format string, args ...any) {
	if c.opts.Log != nil {
		fmt.Fprintf(c.opts.Log, format+"\n", args...)
	}
}

// traceID is the transaction id libpcp_trace shows: the process id.
func (c *Client) traceID() uint64 { return uint64(uint32(c.pid)) }

// remapped reports a status as libpcp_trace's _pmtraceremaperr does
// under StateComms: a byte count or 0 unchanged, an error of a closed
// socket as ErrIPC.
func (c *Client) remapped(sts int) {
	if !c.tracing(StateComms) {
		return
	}
	to := sts
	switch syscall.Errno(-sts) {
	case syscall.EPIPE, syscall.ECONNRESET, syscall.ECONNREFUSED, syscall.ENOTCONN, syscall.ESHUTDOWN:
		to = int(ErrIPC)
	}
	c.logf("_pmtraceremaperr: status %d remapped to %d", sts, to)
}

// dumpPDU prints a PDU as libpcp_trace's __pmtracexmitPDU and
// __pmtracegetPDU do under StatePDU: a line naming it, then its 32-bit
// words eight to a line, the header's in host order and the body's as
// they lie in memory (on this machine's byte order).
func (c *Client) dumpPDU(fn string, b []byte) {
	if len(b) < HeaderLen {
		return
	}
	typ := binary.BigEndian.Uint32(b[4:])
	name := "DATA"
	if typ == PDUAck {
		name = "ACK"
	} else if typ != PDUData {
		name = fmt.Sprintf("TYPE-%d?", typ)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "[%d]%s: %s fd=%d len=%d", c.pid, fn, name, c.fd, len(b))
	if fn == "__pmtracegetPDU" {
		fmt.Fprintf(&sb, " from=%d", int32(binary.BigEndian.Uint32(b[8:])))
	}
	for j := 0; 4*j+4 <= len(b); j++ {
		if j%8 == 0 {
			fmt.Fprintf(&sb, "\n%03d: ", j)
		}
		var w uint32
		if j < HeaderLen/4 {
			w = binary.BigEndian.Uint32(b[4*j:])
		} else {
			w = binary.NativeEndian.Uint32(b[4*j:])
		}
		fmt.Fprintf(&sb, "%8x ", w)
	}
	c.logf("%s", sb.String())
}

// hostName is the name _pmtraceconnect shows for an address it tries:
// the address's name, "unknown" when it has none.
func hostName(ctx context.Context, ip net.IP) string {
	names, err := net.DefaultResolver.LookupAddr(ctx, ip.String())
	if err != nil || len(names) == 0 {
		return "unknown"
	}
	return strings.TrimSuffix(names[0], ".")
}

// skipped prints what libpcp_trace prints for a datum under
// StateNoAgent, after its connection attempt when connect is true: the
// attempts and the send, each marked skipped, the statuses (StateComms)
// and, for the synchronous protocol, the wait for an ACK.
func (c *Client) skipped(connect bool) {
	if connect {
		c.logf("_pmtraceconnect: connecting to PMDA (skipped)")
	}
	c.logf("_pmtracereconnect: reconnect attempt (skipped)")
	c.remapped(0)
	c.logf("__pmtracesenddata: sending data (skipped)")
	c.remapped(0)
	if !c.async() {
		c.logf("_pmtracegetack: awaiting ack (skipped)")
	}
}
