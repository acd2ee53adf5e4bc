package clitest

import "sync"

// clientPorts are the client ports of the connections a test server has
// seen since its last reset. A server asks whether a given program holds
// one of them, not whether any came: a program of an earlier run (PCP's,
// say, before ours) may still be connecting or sending when the next
// one starts. Safe for concurrent use.
type clientPorts struct {
	mu   sync.Mutex
	seen map[int]bool
}

// add records a connection from port.
func (c *clientPorts) add(port int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = make(map[int]bool)
	}
	c.seen[port] = true
}

// heldBy says whether the program pid holds a connection to serverPort
// from one of the ports seen.
func (c *clientPorts) heldBy(pid, serverPort int) bool {
	ports := connections(pid, serverPort)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range ports {
		if c.seen[p] {
			return true
		}
	}
	return false
}

// reset forgets the ports seen so far.
func (c *clientPorts) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.seen)
}
