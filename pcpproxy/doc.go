// Package pcpproxy is pmproxy's PCP protocol proxy: a client (libpcp with
// a "host@proxyhost" specification, or PMPROXY_HOST) connects to the
// proxy, says "pmproxy-client 1\n", is answered "pmproxy-server 1\n",
// names the pmcd it wants as "host port\n", and from then on its bytes and
// pmcd's are relayed unchanged, as PCP's pmproxy relays them.
//
// The handshake is bounded (its line lengths and a deadline), the dial to
// pmcd has a timeout, and an idle relay may be given a limit; a malformed
// handshake closes that connection only.
package pcpproxy
