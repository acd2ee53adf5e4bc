package testbed

import (
	"sync"
	"testing"
)

// FreePort reserves a private port (see portRanges) that nothing listens on,
// for a test that starts a daemon itself; release returns it. The
// reservation holds across processes (see reservePort): keep it until the
// daemon given the port has exited (t.Cleanup(release), registered before
// the daemon's own cleanup), not just until it has started, or another
// test run may be handed the port before the daemon binds it. Calling
// release more than once is harmless: it never gives back the port
// after another reservation in this process has taken it.
func FreePort() (port int, release func(), err error) {
	p, err := reservePort()
	if err != nil {
		return 0, nil, err
	}
	return p, sync.OnceFunc(func() { releasePort(p) }), nil
}

// ReservedPort is FreePort for a test that holds the port to its end: the
// release is registered with t.Cleanup now, so it runs after the cleanups
// registered later (a daemon's stop). It also serves a test that wants a
// connection refused, which a fixed or ":0" port cannot promise: another
// test run given the port could start a daemon there, and a ":0" port
// closed again lies in the kernel's ephemeral range, where anything on
// the machine may take it.
func ReservedPort(t testing.TB) int {
	t.Helper()
	p, release, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return p
}
