package main

import "github.com/gopcp/gopcp/internal/pcpconf"

// daemonUser is the account a daemon pmlogger runs as: -U, else
// $PCP_USER, else "pcp".
func daemonUser(name string) string {
	if name == "" {
		name, _ = pcpconf.Get("PCP_USER")
		if name == "" {
			name = "pcp"
		}
	}
	return name
}
