package main

import (
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestConnectWaitLikePCP: a PMCD_CONNECT_TIMEOUT far too short for any
// wait still connects to a pmcd on loopback or its Unix socket, as
// libpcp's connect does (it starts a non-blocking connect and then looks
// whether it has finished, which on loopback it has); PCP's programs and
// ours must agree on stdout, stderr and the exit status. A wait that is
// missed instead (a connect that has to wait for a remote host) is not
// tested: no test may hang on a margin.
func TestConnectWaitLikePCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	hosts := []string{"localhost:" + strconv.Itoa(bed.Port()), "unix:" + bed.SocketPath()}
	settings := []string{
		"PMCD_CONNECT_TIMEOUT=1e-6",
		"PMCD_CONNECT_TIMEOUT=0.000002",
	}
	for _, host := range hosts {
		for _, env := range settings {
			sameAsPCP(t, "pminfo", ".", []string{"-h", host, "-f", "sample.long.one"}, env)
			sameAsPCP(t, "pmprobe", "../pmprobe", []string{"-h", host, "-v", "sample.long.one", "sample.long.ten"}, env)
		}
	}
}
