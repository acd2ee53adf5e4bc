package main

import "github.com/gopcp/gopcp/internal/pcpconf"

// serviceUser is the account pmproxy runs as once its ports are bound,
// unless it runs in the foreground (-f): -U, else $PCP_USER (pcp.conf),
// else "pcp", as PCP's pmproxy takes it from pmGetUsername.
func serviceUser(name string) string {
	if name == "" {
		name, _ = pcpconf.Get("PCP_USER")
		if name == "" {
			name = "pcp"
		}
	}
	return name
}
