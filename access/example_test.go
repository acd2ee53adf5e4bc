package access_test

import (
	"errors"
	"fmt"
	"net"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
)

// An access section in pmcd.conf's grammar, and three clients judged by
// it as PCP's pmcd judges them: a subnet that may fetch but not store,
// with at most one connection from all of it; this host (192.0.2.1, and so the
// loopback address) everything; the rest of the world refused. The host
// list is the one pmcd writes to its log.
func Example() {
	a := access.New(access.Options{
		// no name service (the section names addresses), and this
		// host's addresses, by which loopback clients are judged
		Lookup: func(name string) ([]net.IP, error) {
			if ip := net.ParseIP(name); ip != nil {
				return []net.IP{ip}, nil
			}
			return nil, errors.New("no name service")
		},
		MyAddrs: func() []net.IP { return []net.IP{net.IPv4(192, 0, 2, 1).To4()} },
	})
	section := []string{
		"allow 192.0.2.* : fetch, maximum 1 connections;",
		"disallow 192.0.2.* : store;",
		"allow 192.0.2.1 : all;",
		"disallow * : all;",
	}
	if msgs, ok := a.Parse(section, 1, len(section), "pmcd"); !ok {
		fmt.Println(msgs)
		return
	}
	fmt.Print(a.DumpHosts())
	for _, ip := range []string{"192.0.2.7", "192.0.2.8", "127.0.0.1", "198.51.100.1"} {
		c := access.ClientID{IP: net.ParseIP(ip).To4()}
		deny, err := a.AdmitHost(c)
		switch {
		case err != nil:
			fmt.Printf("%s: refused, %v\n", ip, pcp.TextOf(err))
		default:
			fmt.Printf("%s: store denied %v, fetch denied %v\n", ip, deny&access.OpStore != 0, deny&access.OpFetch != 0)
		}
	}
	// Output:
	// Host access list:
	// 00 01 Cur/MaxCons host-spec                               host-mask                               lvl host-name
	// == == =========== ======================================= ======================================= === ==============
	//  y  y     0     0 192.0.2.1                               255.255.255.255                           0 192.0.2.1
	//  y  n     0     1 192.0.2.0                               255.255.255.0                             1 192.0.2.*
	//  n  n     0     0 /                                       /                                         1 unix:
	//  n  n     0     0 0.0.0.0                                 0.0.0.0                                   4 .*
	//  n  n     0     0 ::                                      ::                                        8 :*
	// 192.0.2.7: store denied true, fetch denied false
	// 192.0.2.8: refused, PMCD connection limit for this host exceeded
	// 127.0.0.1: store denied false, fetch denied false
	// 198.51.100.1: refused, No permission to perform requested operation
}
