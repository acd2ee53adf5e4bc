package series

import "github.com/gopcp/gopcp/internal/webid"

// The identifiers are libpcp_web's, computed in internal/webid that
// webapi shares; these names keep the package's API and its callers as
// they were.

// ID is a 20-byte SHA-1 identifier: of a series, source, instance or
// string, as libpcp_web computes it.
type ID = webid.ID

// ParseID reads 40 hex digits.
func ParseID(s string) (ID, bool) { return webid.ParseID(s) }

// StringID identifies a string in the pcp:map:* hashes (metric, instance,
// label and context names, label values).
func StringID(s string) ID { return webid.StringID(s) }

// SourceID identifies a source (host or archive) by its identifying context
// labels, the merged JSON without optional labels.
func SourceID(labels string) ID { return webid.SourceID(labels) }

// MetricID identifies the series of one metric name: its identifying labels
// ("null" when there are none), pmSemStr, pmTypeStr and pmUnitsStr.
func MetricID(name, labels, sem, typ, units string) ID {
	return webid.MetricID(name, labels, sem, typ, units)
}

// InstanceID identifies an instance series by its name and identifying
// labels ("null" when there are none).
func InstanceID(name, labels string) ID { return webid.InstanceID(name, labels) }
