package pcp

import "strconv"

// DescFormat chooses among the renderings PCP's tools give a metric
// descriptor: two indented lines, "Data Type: ... InDom: ..." and
// "Semantics: ... Units: ...". The zero value is libpcp's pmPrintDesc, which
// pmdumplog and dbpmda print; pminfo -d prints its own variant, selected by
// the fields.
type DescFormat struct {
	// Full prints the instance domain, semantics and units of a
	// PM_TYPE_NOSUPPORT descriptor too; pmPrintDesc stops after
	// "Not Supported".
	Full bool
	// InDomNumber adds the instance domain as one decimal number,
	// " = N =", before its hexadecimal form (pminfo -I).
	InDomNumber bool
}

// descTypeNames are the descriptor printers' names for PM_TYPE_32 up to
// PM_TYPE_HIGHRES_EVENT; they differ from pmTypeStr's.
var descTypeNames = [...]string{
	"32-bit int", "32-bit unsigned int", "64-bit int", "64-bit unsigned int",
	"float", "double", "string", "aggregate", "static aggregate",
	"event record array", "highres event record array",
}

// Append appends the two lines for d, each ending in a newline, to b.
func (f DescFormat) Append(b []byte, d Desc) []byte {
	b = append(b, "    Data Type: "...)
	switch {
	case d.Type >= 0 && int(d.Type) < len(descTypeNames):
		b = append(b, descTypeNames[d.Type]...)
	case d.Type == TypeNoSupport:
		b = append(b, "Not Supported"...)
		if !f.Full {
			return append(b, '\n')
		}
	default:
		b = append(b, "??? ("...)
		b = strconv.AppendInt(b, int64(d.Type), 10)
		b = append(b, ')')
	}
	b = append(b, "  InDom: "...)
	b = append(b, d.InDom.String()...)
	if f.InDomNumber {
		b = append(b, " = "...)
		b = strconv.AppendUint(b, uint64(d.InDom), 10)
		b = append(b, " ="...)
	}
	b = append(b, " 0x"...)
	b = strconv.AppendUint(b, uint64(d.InDom), 16)
	b = append(b, "\n    Semantics: "...)
	sem := d.Sem.String()
	b = append(b, sem...)
	if sem == "???" {
		b = append(b, " ("...)
		b = strconv.AppendInt(b, int64(d.Sem), 10)
		b = append(b, ')')
	}
	b = append(b, "  Units: "...)
	if units := d.Units.String(); units != "" {
		b = append(b, units...)
	} else {
		b = append(b, "none"...)
	}
	return append(b, '\n')
}

// FormatDesc returns d as pmPrintDesc prints it: two indented lines, each
// ending in a newline.
func FormatDesc(d Desc) string {
	return string(DescFormat{}.Append(nil, d))
}
