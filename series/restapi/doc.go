// Package restapi serves pmproxy's /series/* and /search/* REST API from
// a series.Store, as PCP 6.0.3's pmproxy answers it (docs/series.md).
//
// It is apart from package series so that what reads and writes the
// store (pmseries among them) links no HTTP at all: pmproxy alone mounts
// these handlers, which are httpd.Handlers (net/http's shape on package
// httpd's own types), so that pmproxy links no net/http either.
package restapi
