// Package pmproxy is the pmproxy daemon's server: on each of its ports a
// connection's first byte says what it speaks, as in PCP's pmproxy ('p'
// the PCP protocol proxy, an HTTP method's initial letter HTTP), so one
// port serves both; HTTP is served by package httpd, whose event loop
// holds a connection between requests without a goroutine or a buffer,
// and its requests go to a mux holding the REST API
// (package webapi) at /pmapi/ and /metrics, where others mount their own
// handlers (a web view at "/", /series/). Connections, header and body
// sizes and times are bounded (Config), and pmproxy.conf's settings, as
// cmd/pmproxy reads them, are acted on here (Conf). StartStats writes
// pmproxy's own metrics, the MMV files pmcd's pmproxy agent serves as
// pmproxy.*. Listen binds the request
// ports as PCP's pmproxy does and WritePortTable logs them; SeriesStore
// and Discover are the Redis series store and the archives followed into
// it, as pmproxy.conf asks.
package pmproxy
