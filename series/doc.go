// Package series keeps the time series of many hosts in Redis with PCP's
// own schema (version 2, as libpcp_web 6.0.3 writes it): identifiers by
// SHA-1 over PCP's JSON texts, the pcp:desc, pcp:labelvalue, pcp:inst,
// pcp:metric.name, pcp:instances and pcp:map:* keys, and one Redis stream
// of values per series (pcp:values:series:<id>). What it writes PCP's
// pmseries reads, and it reads what PCP writes.
//
// Load fills Redis from archives in pipelined batches, its memory bounded
// by a batch and the archive's metadata, not by the archive's values.
// The query side (Query, and the Desc/Instance/Label answers) evaluates
// PCP's series query language against the same keys; its answers are Go
// values that marshal to the JSON of pmproxy's /series REST API.
package series
