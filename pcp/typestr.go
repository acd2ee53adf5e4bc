package pcp

// typeStrNames are pmTypeStr's names for PM_TYPE_32 up to PM_TYPE_HIGHRES_EVENT.
var typeStrNames = [...]string{
	"32", "U32", "64", "U64", "FLOAT", "DOUBLE", "STRING",
	"AGGREGATE", "AGGREGATE_STATIC", "EVENT", "HIGHRES_EVENT",
}

// String returns pmTypeStr's name for the type, "???" when PCP has none.
func (t Type) String() string {
	switch {
	case t >= 0 && int(t) < len(typeStrNames):
		return typeStrNames[t]
	case t == TypeNoSupport:
		return "NO_SUPPORT"
	case t == TypeUnknown:
		return "UNKNOWN"
	}
	return "???"
}

// String returns pmSemStr's name for the semantics, "???" when PCP has
// none (as for the retired PM_SEM_RATE).
func (s Sem) String() string {
	switch s {
	case SemCounter:
		return "counter"
	case SemInstant:
		return "instant"
	case SemDiscrete:
		return "discrete"
	}
	return "???"
}
