package pmcd

import (
	"net"
	"strings"
	"testing"
)

// FuzzParseConf feeds pmcd.conf text, access section included, to the
// parser, which must answer with a Conf or a ConfError and never panic;
// an access control it builds must judge clients without panicking.
// Host names are not resolved, so the fuzzer stays off the network.
func FuzzParseConf(f *testing.F) {
	for _, c := range accessCases {
		f.Add("pmcd 2 dso pmcd_init /p.so\n[access]\n" + c + "\n")
	}
	f.Add("a 1 pipe binary /bin/a\n")
	f.Add("[access]\nallow \"unquoted : fetch;")
	saved := lookupHost
	lookupHost = func(name string) ([]net.IP, error) {
		if name == "localhost" || strings.HasPrefix(name, "host") {
			return []net.IP{net.ParseIP("192.0.2.7")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	f.Cleanup(func() { lookupHost = saved })
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseConf(strings.NewReader(text), "fuzz")
		if err != nil {
			if _, ok := err.(*ConfError); !ok && c != nil {
				t.Fatalf("error %v with a Conf", err)
			}
			return
		}
		acl := c.ACL
		for _, id := range []ClientID{{IP: net.ParseIP("192.0.2.7").To4()}, {IP: net.ParseIP("::1")},
			{Unix: true, HasCreds: true}, {Unix: true}} {
			deny, err := acl.AdmitHost(id)
			if err == nil {
				acl.AdmitAccount(id, deny)
				acl.ReleaseHost(id)
			}
		}
	})
}
