package pmlogger

import (
	"context"
	"net"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// TestControlSendFails: a LOG_CONTROL that cannot be written is an error
// with a code (pmlc reports the lost connection by it), not code 0.
func TestControlSendFails(t *testing.T) {
	a, b := net.Pipe()
	b.Close()
	defer a.Close()
	c := &LoggerConn{conn: a, r: pdu.NewReader(a, 0), w: pdu.NewWriter(a)}
	res, err := c.Control(context.Background(), pdu.LogEnquire, 0, 0, []pcp.ValueSet{{PMID: 1}})
	if res != nil || pcp.CodeOf(err, 0) >= 0 {
		t.Fatalf("Control over a closed connection: %v, %v (code %d)", res, err, pcp.CodeOf(err, 0))
	}
}
