package webapi

import (
	"crypto/sha1"
	"encoding/hex"
)

// The identifiers below are libpcp_web's (util.c): SHA-1 over a small JSON
// text naming what is identified, printed as 40 hex digits. The same texts
// give the same identifiers as PCP's pmproxy and pmseries, so a source or
// series named by one is found by the other.

// sourceID identifies a host by its context labels (merged, unfiltered).
func sourceID(labels string) string {
	return sum("{\"series\":\"source\",\"labels\":" + labels + "}")
}

// metricID identifies one name of a metric with its merged labels (or
// "null"), semantics, type and units as pmSemStr, pmTypeStr and pmUnitsStr
// write them (the units text may be empty).
func metricID(name, labels, sem, typ, units string) string {
	return sum("{\"series\":\"metric\",\"name\":\"" + name + "\",\"labels\":" + labels +
		",\"semantics\":\"" + sem + "\",\"type\":\"" + typ + "\",\"units\":\"" + units + "\"}")
}

// instanceID identifies an instance by name and merged labels.
func instanceID(name, labels string) string {
	return sum("{\"series\":\"instance\",\"name\":\"" + name + "\",\"labels\":" + labels + "}")
}

func sum(s string) string {
	h := sha1.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}
