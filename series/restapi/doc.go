// Package restapi serves pmproxy's /series/* and /search/* REST API from
// a series.Store, as PCP 6.0.3's pmproxy answers it (docs/series.md).
//
// It is apart from package series so that what reads and writes the
// store (pmseries among them) does not link net/http: pmproxy alone
// mounts these handlers.
package restapi
