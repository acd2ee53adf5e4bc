package testbed

// FreePort reserves a private port (44400-44999) that nothing listens on,
// for a test that starts a daemon itself; release returns it. It never
// hands out a port another bed of this process holds.
func FreePort() (port int, release func(), err error) {
	p, err := reservePort()
	if err != nil {
		return 0, nil, err
	}
	return p, func() { releasePort(p) }, nil
}
