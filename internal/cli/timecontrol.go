package cli

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// pmTime's wire constants (pmtime.h): its magic, the SET a client opens
// with, the ACK pmtime answers, and the client's source.
const (
	pmtimeMagic   = 0x54494D45
	pmtimeSet     = 1 << 0
	pmtimeAck     = 1 << 8
	pmtimeHost    = 0
	pmtimeArchive = 1
	pmtimeHeader  = 24 + 4*16 // six ints, four 64-bit timevals
)

// TimeControl is what -g and -p come to in the tools that take them
// (pmstat, pmval): PCP's tools hand their time to pmtime, the GUI time
// control of pcp-gui, which gopcp does not have. With
// -g, PCP runs pmtime from the PATH; where there is none, the child's
// exec fails (it says so) and pmTimeConnect returns -2, which pmstat
// words as an errno, ENOENT. With -p, PCP connects to a pmtime on
// 127.0.0.1:port and hands it a SET; any failure there, including a peer
// that is not pmtime, returns -4, worded as EINTR. A pmtime that is
// there and answers is refused in our own words. It returns the tool's
// exit status. port is -p's (0 for -g), given to htons as libpcp_gui
// gives it, so cut to 16 bits.
func TimeControl(port int, archive bool, stderr io.Writer, prog string) int {
	if port == 0 {
		if _, err := exec.LookPath("pmtime"); err != nil {
			fmt.Fprintf(stderr, "execvp: %s\n", pcp.TextOf(pcp.Error(-2)))
			fmt.Fprintf(stderr, "%s: pmTimeConnect: %s\n", prog, pcp.TextOf(pcp.Error(-2)))
			return 1
		}
	} else if !pmtimeAnswers(port, archive) {
		fmt.Fprintf(stderr, "%s: pmTimeConnect: %s\n", prog, pcp.TextOf(pcp.Error(-4)))
		return 1
	}
	fmt.Fprintf(stderr, "%s: time control (-g, -p) is not supported\n", prog)
	return 1
}

// pmtimeAnswers reports whether a pmtime on 127.0.0.1:port acknowledges
// a SET as pmTimeConnect's handshake expects: an ACK of the length it
// says, for the same source.
func pmtimeAnswers(port int, archive bool) bool {
	c, err := net.DialTimeout("tcp4", net.JoinHostPort("127.0.0.1", strconv.Itoa(int(uint16(port)))), 5*time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	source := uint32(pmtimeHost)
	if archive {
		source = pmtimeArchive
	}
	data := []byte("UTC\x00localhost\x00")
	pkt := make([]byte, pmtimeHeader, pmtimeHeader+len(data))
	le := binary.NativeEndian // pmtime.h's ints, in the host's order
	le.PutUint32(pkt[0:], pmtimeMagic)
	le.PutUint32(pkt[4:], uint32(pmtimeHeader+len(data)))
	le.PutUint32(pkt[8:], pmtimeSet)
	le.PutUint32(pkt[12:], source)
	if _, err := c.Write(append(pkt, data...)); err != nil {
		return false
	}
	ack := make([]byte, 4096)
	n, err := c.Read(ack)
	return err == nil && n >= 16 && int(le.Uint32(ack[4:])) == n &&
		le.Uint32(ack[8:]) == pmtimeAck && le.Uint32(ack[12:]) == source
}
