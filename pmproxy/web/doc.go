// Package web is the live web view pmproxy serves at "/": a page that
// picks a host (a hostspec, as /pmapi/context takes it), browses and
// searches its namespace (/pmapi/children, /pmapi/metric?prefix=) and
// charts metrics live (/pmapi/fetch, rates of counters computed in the
// page from successive values and their timestamps), several charts at
// once with instances chosen per chart. It uses /pmapi/* alone, as any
// other web client of pmproxy would.
//
// The page is plain HTML, CSS and JavaScript under static/, embedded in
// the binary with go:embed: no framework, no chart library, nothing to
// build beyond `go build`. Handler serves those files; a caller mounts it
// at "/" beside pmproxy.NewMux's /pmapi/ and /metrics.
//
// The page records what it drew in the DOM (each chart's metric, each
// series' instance and the number of points plotted), which the tests read
// from Debian's chromium run headless (docs/pmproxy.md).
package web
