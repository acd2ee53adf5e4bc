package testbed

import (
	"net"
	"strconv"
	"testing"
)

// TestReservedPortHeldToTheEnd: ReservedPort's port is reserved, and
// refused, while the test runs, and given back once the test's cleanups
// have run.
func TestReservedPortHeldToTheEnd(t *testing.T) {
	var p int
	t.Run("user", func(t *testing.T) {
		p = ReservedPort(t)
		ports.Lock()
		held := ports.held[p] != nil
		ports.Unlock()
		if !held {
			t.Errorf("port %d not held during the test", p)
		}
		if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(p)); err == nil {
			c.Close()
			t.Errorf("something accepts on reserved port %d", p)
		}
	})
	ports.Lock()
	held := ports.held[p] != nil
	ports.Unlock()
	if held {
		t.Errorf("port %d still held after the test ended", p)
	}
}
