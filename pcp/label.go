package pcp

// Label indexes one name:value pair inside a LabelSet's JSON text, PCP's
// pmLabel.
type Label struct {
	Name     uint16 // offset of the name in the JSON text
	NameLen  uint8
	Flags    uint8  // LabelCompound, LabelOptional and the level bits
	Value    uint16 // offset of the value in the JSON text
	ValueLen uint16
}

// Label flags, PM_LABEL_* in PCP: the level a label set comes from, and the
// two per-label properties.
const (
	LabelContext   uint8 = 1 << 0
	LabelDomain    uint8 = 1 << 1
	LabelInDom     uint8 = 1 << 2
	LabelCluster   uint8 = 1 << 3
	LabelItem      uint8 = 1 << 4
	LabelInstances uint8 = 1 << 5
	LabelCompound  uint8 = 1 << 6
	LabelOptional  uint8 = 1 << 7
)

// Limits on a label set, PM_MAXLABELS and PM_MAXLABELJSONLEN.
const (
	MaxLabels       = 1<<8 - 1
	MaxLabelJSONLen = 1<<16 - 1
)

// LabelSet is a JSON object of labels with an index into it, PCP's
// pmLabelSet. NLabels is the count of labels, or a negative PCP error code.
type LabelSet struct {
	Inst     int32 // instance, or InstNull for a set above instances
	NLabels  int32
	JSON     string
	Compound bool
	Labels   []Label
}

// LabelName returns the name of label i, without quotes.
func (s *LabelSet) LabelName(i int) string {
	l := s.Labels[i]
	return s.slice(int(l.Name), int(l.NameLen))
}

// LabelValue returns the JSON text of label i's value.
func (s *LabelSet) LabelValue(i int) string {
	l := s.Labels[i]
	return s.slice(int(l.Value), int(l.ValueLen))
}

// slice is bounds-safe: a set decoded from bad input yields "" rather than
// a panic.
func (s *LabelSet) slice(off, n int) string {
	if off < 0 || n < 0 || off+n > len(s.JSON) {
		return ""
	}
	return s.JSON[off : off+n]
}
