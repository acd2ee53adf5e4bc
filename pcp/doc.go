// Package pcp holds the vocabulary shared by every part of gopcp: metric and
// instance-domain identifiers, descriptors, units, types and semantics, values
// and results, label sets, PCP's error codes, and the ancillary services that
// turn these into PCP's strings and convert between types and scales.
//
// Every type here is a plain value; none holds a lock, and all are safe for
// concurrent use as long as callers do not mutate a shared value.
package pcp
