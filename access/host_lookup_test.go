package access

import (
	"errors"
	"net"
	"os"
	"slices"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestHostLookupLikeLibpcp judges "localhost", "local:" and other names
// on hosts whose names resolve in different ways, with libpcp's rules
// (access.c's getmyhostid and getHostAccessSpecs): "localhost" is this
// host's name, which must resolve ("No route to host" if it does not,
// "Host is down" if not even localhost does); "local:" keeps its Unix
// socket part when the name does not resolve; a failed lookup is noted
// with hstrerror's text for the kind of failure.
func TestHostLookupLikeLibpcp(t *testing.T) {
	me, err := os.Hostname()
	if err != nil {
		t.Skip("no hostname")
	}
	loop := []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")}
	notFound := &net.DNSError{Err: "no such host", Name: "x", IsNotFound: true}
	noServer := &net.DNSError{Err: "dial udp: connect: network is unreachable", Name: "x", IsTemporary: true}
	cases := []struct {
		name     string
		resolves map[string][]net.IP // others fail with fail
		fail     error
		host     string
		err      error
		unixOnly bool
		note     string
	}{
		{"name resolves", map[string][]net.IP{me: {net.ParseIP("192.0.2.9")}, "localhost": loop}, notFound,
			"localhost", nil, false, ""},
		{"name unknown", map[string][]net.IP{"localhost": loop}, notFound,
			"localhost", pcp.Error(-int32(syscall.EHOSTUNREACH)), false, "__pmGetAddrInfo(" + me + "), Unknown host"},
		{"no name server", map[string][]net.IP{"localhost": loop}, noServer,
			"localhost", pcp.Error(-int32(syscall.EHOSTUNREACH)), false, "__pmGetAddrInfo(" + me + "), Host name lookup failure"},
		{"local: with name unknown", map[string][]net.IP{"localhost": loop}, notFound,
			"local:*", nil, true, "__pmGetAddrInfo(" + me + "), Unknown host"},
		{"nothing resolves", nil, notFound,
			"localhost", pcp.Error(-int32(syscall.EHOSTDOWN)), false, ""},
		{"local: when nothing resolves", nil, notFound,
			"local:", pcp.Error(-int32(syscall.EHOSTDOWN)), false, ""},
		{"other name unknown", map[string][]net.IP{me: loop}, notFound,
			"nosuchhost.invalid", pcp.Error(-int32(syscall.EHOSTUNREACH)), false, "__pmGetAddrInfo(nosuchhost.invalid), Unknown host"},
	}
	saved := lookupHost
	t.Cleanup(func() { lookupHost = saved })
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lookupHost = func(name string) ([]net.IP, error) {
				if ips, ok := c.resolves[name]; ok {
					return ips, nil
				}
				return nil, c.fail
			}
			a := New(Options{})
			err := a.AddHost(c.host, OpAll, 0)
			if !errors.Is(err, c.err) && !(err == nil && c.err == nil) {
				t.Fatalf("AddHost(%q) = %v, want %v", c.host, err, c.err)
			}
			notes := a.Notes()
			if c.note == "" && len(notes) > 0 || c.note != "" && !slices.Contains(notes, c.note) {
				t.Errorf("notes %q, want %q", notes, c.note)
			}
			if err != nil {
				return
			}
			unix := 0
			for _, e := range a.hosts {
				if e.unix {
					unix++
				}
			}
			if c.unixOnly && (unix != 1 || len(a.hosts) != 1) || !c.unixOnly && unix == len(a.hosts) {
				t.Errorf("entries %d (%d Unix socket), want Unix socket only %v", len(a.hosts), unix, c.unixOnly)
			}
		})
	}
}

// TestLoopbackClientWithoutName: a loopback client of a host whose name
// does not resolve is known by localhost's addresses, as libpcp's
// getmyhostid falls back to them, so a rule for 127.0.0.1 admits it.
func TestLoopbackClientWithoutName(t *testing.T) {
	saved := lookupHost
	t.Cleanup(func() { lookupHost = saved })
	lookupHost = func(name string) ([]net.IP, error) {
		if name == "localhost" || name == "127.0.0.1" {
			return []net.IP{net.ParseIP("127.0.0.1").To4()}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	a := New(Options{})
	if err := a.AddHost("127.0.0.1", OpAll, OpAll); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AdmitHost(ClientID{IP: net.ParseIP("127.0.0.1").To4()}); !errors.Is(err, pcp.ErrPermission) {
		t.Errorf("loopback client: %v, want refused by the 127.0.0.1 rule", err)
	}
}
