package series

import (
	"crypto/sha1"
	"encoding/hex"
)

// ID is a 20-byte SHA-1 identifier: of a series, source, instance or
// string, as libpcp_web computes it.
type ID [sha1.Size]byte

// String is the identifier's 40 hex digits, as in keys and on output.
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

func sum(parts ...string) ID {
	h := sha1.New()
	for _, p := range parts {
		h.Write([]byte(p))
	}
	var id ID
	h.Sum(id[:0])
	return id
}

// StringID identifies a string in the pcp:map:* hashes (metric, instance,
// label and context names, label values).
func StringID(s string) ID {
	return sum(`{"series":"string","value":"`, s, `"}`)
}

// SourceID identifies a source (host or archive) by its identifying context
// labels, the merged JSON without optional labels.
func SourceID(labels string) ID {
	return sum(`{"series":"source","labels":`, labels, `}`)
}

// MetricID identifies the series of one metric name: its identifying labels
// ("null" when there are none), pmSemStr, pmTypeStr and pmUnitsStr.
func MetricID(name, labels, sem, typ, units string) ID {
	return sum(`{"series":"metric","name":"`, name, `","labels":`, labels,
		`,"semantics":"`, sem, `","type":"`, typ, `","units":"`, units, `"}`)
}

// InstanceID identifies an instance series by its name and identifying
// labels ("null" when there are none).
func InstanceID(name, labels string) ID {
	return sum(`{"series":"instance","name":"`, name, `","labels":`, labels, `}`)
}
