package webid

import (
	"crypto/sha1"
	"encoding/hex"
)

// ID is a 20-byte SHA-1 identifier of a series, source, instance or
// string.
type ID [sha1.Size]byte

// String is the identifier's 40 lower-case hex digits, as keys and
// answers hold it.
func (id ID) String() string { return hex.EncodeToString(id[:]) }

// ParseID reads 40 hex digits.
func ParseID(s string) (ID, bool) {
	var id ID
	if len(s) != 2*len(id) {
		return id, false
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return id, false
	}
	return id, true
}

// The identifiers are SHA-1 over a small JSON text naming what is
// identified (libpcp_web's util.c); the texts must stay byte for byte
// PCP's, so they are spelled out here rather than marshalled.

func sum(parts ...string) ID {
	h := sha1.New()
	for _, p := range parts {
		h.Write([]byte(p))
	}
	var id ID
	h.Sum(id[:0])
	return id
}

// StringID identifies a string in the series store's pcp:map:* hashes
// (metric, instance, label and context names, label values).
func StringID(s string) ID {
	return sum(`{"series":"string","value":"`, s, `"}`)
}

// SourceID identifies a source (a host or an archive) by the JSON of its
// context labels. Which labels are given is the caller's: the series
// loader hashes the identifying ones, pmproxy's web contexts all of them.
func SourceID(labels string) ID {
	return sum(`{"series":"source","labels":`, labels, `}`)
}

// MetricID identifies the series of one metric name by its labels ("null"
// when there are none) and its semantics, type and units as pmSemStr,
// pmTypeStr and pmUnitsStr write them (the units text may be empty).
func MetricID(name, labels, sem, typ, units string) ID {
	return sum(`{"series":"metric","name":"`, name, `","labels":`, labels,
		`,"semantics":"`, sem, `","type":"`, typ, `","units":"`, units, `"}`)
}

// InstanceID identifies an instance series by its name and labels ("null"
// when there are none).
func InstanceID(name, labels string) ID {
	return sum(`{"series":"instance","name":"`, name, `","labels":`, labels, `}`)
}
