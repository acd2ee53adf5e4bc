package main

import "github.com/gopcp/gopcp/internal/pcpconf"

// serviceUser is the account pmproxy runs as once its ports are bound,
// unless it runs in the foreground (-f): -U, else $PCP_USER (pcp.conf),
// else "pcp", as PCP's pmproxy takes it from pmGetUsername. A -U given
// as "" stays "", which no account has: the switch then fails as PCP's
// does.
func serviceUser(name string, given bool) string {
	if !given {
		name, _ = pcpconf.Get("PCP_USER")
		if name == "" {
			name = "pcp"
		}
	}
	return name
}
