// Package webid holds the texts libpcp_web derives from PCP metadata, so
// that pmproxy's /pmapi answers (webapi) and its series store (series)
// write them once and alike: the SHA-1 identifiers of sources, metrics,
// instances and strings, the rule that picks a series' identifying
// labels, the names a descriptor's fields take in JSON, and the two ways
// libpcp_web and pmproxy quote strings (unicode_encode and sdscatrepr).
// The identifiers equal PCP 6.0.3's, so a source or series named by
// either program is found by the other.
package webid
