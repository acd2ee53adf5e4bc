// Command pmproxytls is pmproxy's TLS companion: pmproxy starts it, only
// when TLS is configured, with its control socket as descriptor 3 and
// the files and choices of tls.conf and pmproxy.conf as options. It
// says "ready" on its standard output once they are loaded (or the line
// PCP's pmproxy logs before it exits, and exits 1), then does the TLS of
// every connection pmproxy hands it (package pmproxy/tlsrelay) until
// pmproxy closes the socket. docs/pmproxy.md has the rest.
package main

import (
	"os"

	"github.com/gopcp/gopcp/pmproxy/tlsrelay"
)

func main() { os.Exit(tlsrelay.Main(os.Args[1:], os.Stdout)) }
