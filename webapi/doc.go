// Package webapi is pmproxy's REST API, the one grafana-pcp's vector data
// source and pmproxy's other web clients call: /pmapi/context, metric,
// fetch, indom, profile, children, store, derive and metrics (also served
// as /metrics in OpenMetrics text), answered as PCP 6.0.3's pmproxy answers
// them: the same JSON, the same source and series identifiers (SHA-1 over
// the texts libpcp_web hashes), the same error messages and HTTP status
// codes, and the "_" compatibility forms.
//
// A web context is a pmapi.Source (with per-context derived metrics) kept
// under a random identifier until it has not been used for its poll
// timeout; it is then "expired" until the next sweep forgets it
// ("unknown"). Unlike PCP's pmproxy, the number of web contexts is bounded
// in all and per client address, as are the names in a request and the
// metadata each context keeps (Options).
//
// Server is an httpd.Handler (net/http's shape on package httpd's types,
// so that pmproxy links no net/http) for /pmapi/ and /metrics only; a
// caller mounts it on its own httpd.ServeMux beside other handlers (a web
// view at "/", /series/*); package httpd/httpstd serves it through
// net/http.
package webapi
