package webid

import "github.com/gopcp/gopcp/pcp"

// TypeName is libpcp_web's own lower-case name of a metric type, as the
// "type" of a /pmapi/metric answer and of a series descriptor have it;
// identifiers use pmTypeStr (pcp.Type.String) instead.
func TypeName(t pcp.Type) string {
	names := [...]string{"32", "u32", "64", "u64", "float", "double", "string",
		"aggregate", "aggregate_static", "event", "highres_event"}
	switch {
	case t >= 0 && int(t) < len(names):
		return names[t]
	case t == pcp.TypeNoSupport:
		return "unsupported"
	}
	return "unknown"
}

// UnitsName is pmUnitsStr's text, "none" for dimensionless units.
func UnitsName(u pcp.Units) string {
	if s := u.String(); s != "" {
		return s
	}
	return "none"
}

// InDomName is an instance domain's text, "none" for PM_INDOM_NULL.
func InDomName(i pcp.InDom) string {
	if i == pcp.InDomNull {
		return "none"
	}
	return i.String()
}

// PMIDName is a PMID's text, "none" for PM_ID_NULL.
func PMIDName(p pcp.PMID) string {
	if p == pcp.PMIDNull {
		return "none"
	}
	return p.String()
}
