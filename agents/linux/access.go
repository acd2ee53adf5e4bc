package linux

import (
	"context"
	"strconv"
	"sync"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// Slab caches and serial line counters are served only to clients pmcd
// vouches are root (their PCP_ATTR_USERID is 0, which pmcd forwards for
// clients on its Unix socket), or to everyone when the agent runs with
// -A or $LINUX_ACCESS=1, as PCP's agent serves them.

// clientAccess tracks which clients are root.
type clientAccess struct {
	all bool // -A, $LINUX_ACCESS: no checks

	mu   sync.Mutex
	root map[pmda.Client]bool

	// current is the client of the fetch in progress; set and read under
	// the Agent's fetch lock.
	current pmda.Client
}

// Attribute records a client's user id.
func (x *Linux) Attribute(c pmda.Client, key pdu.AttrKey, value []byte) error {
	if key != pdu.AttrUserID {
		return nil
	}
	uid, err := strconv.Atoi(string(trimSpace(value)))
	a := &x.access
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.root == nil {
		a.root = map[pmda.Client]bool{}
	}
	a.root[c] = err == nil && uid == 0
	return nil
}

// EndContext forgets a client.
func (x *Linux) EndContext(c pmda.Client) {
	a := &x.access
	a.mu.Lock()
	delete(a.root, c)
	a.mu.Unlock()
}

// BeginRequest notes which client a fetch is for.
func (x *Linux) BeginRequest(_ context.Context, c pmda.Client, t pdu.Type, _ uint32) error {
	if t == pdu.TypeFetch {
		x.access.current = c
	}
	return nil
}

// privileged reports whether the fetch in progress may see root-only
// metrics.
func (x *Linux) privileged() bool {
	a := &x.access
	if a.all {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.root[a.current]
}
