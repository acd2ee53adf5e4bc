package trace

// ParseAccess exposes parseAccess to the tests that compare it with PCP's.
func ParseAccess(spec string) (host string, deny bool, maxConn int, err error) {
	r, err := parseAccess(spec)
	return r.host, r.deny, r.maxConn, err
}
