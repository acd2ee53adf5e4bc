package testbed

import "sync"

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
