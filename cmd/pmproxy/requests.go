package main

import (
	"net"
	"strings"
)

// bindSpec is one socket pmproxy tries to bind: the address it binds
// ("" for every address of the family), its family ("inet" or "ipv6")
// and the address as the log's port table names it.
type bindSpec struct {
	network, host string
	port          int
	family, label string
}

// requestPlan is the sockets a port list and the interfaces ask for, as
// libpcp's request ports and PCP's pmproxy make them, and the ports
// dropped as duplicates (each one logged as a warning).
//
// The rules, all PCP's: a port that repeats one before it is dropped
// (only the first repeat of each is found, and a dropped entry counts
// as a port of -1 that can itself repeat); the rest are paired with
// each interface in turn (-i's, then PMPROXY_LOCAL's loopback), or with
// every address when there is none, port 0 then meaning loopback only;
// of those pairs pmproxy tries as many as the port list has entries,
// dropped ones included, the pairs past the end being the last pair
// again (so a repeated port is tried twice and fails the second time,
// and interfaces beyond the first may not be tried at all). A pair on
// every address or loopback is an IPv4 and an IPv6 socket (the latter
// labelled INADDR_ANY whatever it binds), one on a numeric address a
// socket of that address's family, and one on a name no socket at all.
func requestPlan(ports []int, ifaces []string) (specs []bindSpec, dropped []int) {
	list := append([]int(nil), ports...)
	for i := range list {
		for n := i + 1; n < len(list); n++ {
			if list[i] == list[n] {
				dropped = append(dropped, list[n])
				list[n] = -1
				break
			}
		}
	}
	type pair struct {
		address string
		port    int
	}
	var pairs []pair
	if len(ifaces) == 0 {
		for _, p := range list {
			switch {
			case p == -1:
			case p == 0:
				pairs = append(pairs, pair{"INADDR_LOOPBACK", p})
			default:
				pairs = append(pairs, pair{"INADDR_ANY", p})
			}
		}
	} else {
		for _, ifc := range ifaces {
			for _, p := range list {
				if p != -1 {
					pairs = append(pairs, pair{ifc, p})
				}
			}
		}
	}
	if len(pairs) == 0 {
		return nil, dropped
	}
	for i := range list {
		pr := pairs[min(i, len(pairs)-1)]
		switch pr.address {
		case "INADDR_ANY":
			specs = append(specs, bindSpec{"tcp4", "0.0.0.0", pr.port, "inet", pr.address},
				bindSpec{"tcp6", "::", pr.port, "ipv6", "INADDR_ANY"})
		case "INADDR_LOOPBACK":
			specs = append(specs, bindSpec{"tcp4", "127.0.0.1", pr.port, "inet", pr.address},
				bindSpec{"tcp6", "::1", pr.port, "ipv6", "INADDR_ANY"})
		default:
			// libpcp takes only a numeric address here
			if net.ParseIP(pr.address) == nil {
				continue
			}
			if !strings.Contains(pr.address, ":") {
				specs = append(specs, bindSpec{"tcp4", pr.address, pr.port, "inet", pr.address})
			} else {
				specs = append(specs, bindSpec{"tcp6", pr.address, pr.port, "ipv6", pr.address})
			}
		}
	}
	return specs, dropped
}
