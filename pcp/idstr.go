package pcp

import (
	"strconv"
	"strings"
)

// pmidDynamicDomain is DYNAMIC_PMID: a PMID with this domain and item 0 marks
// the root of a PMNS subtree that an agent (whose domain is then held in
// the cluster field) enumerates at run time.
const pmidDynamicDomain = 511

// IsDynamicRoot reports whether p marks a dynamic PMNS subtree, PCP's
// IS_DYNAMIC_ROOT.
func (p PMID) IsDynamicRoot() bool { return p.Domain() == pmidDynamicDomain && p.Item() == 0 }

// String returns pmIDStr's form: "domain.cluster.item", "PM_ID_NULL", or
// "domain.*.*" for a dynamic subtree's root. The flag bit is not shown.
func (p PMID) String() string {
	if p == PMIDNull {
		return "PM_ID_NULL"
	}
	var b [24]byte
	var s []byte
	if p.IsDynamicRoot() {
		s = strconv.AppendUint(b[:0], uint64(p.Cluster()), 10)
		s = append(s, ".*.*"...)
	} else {
		s = strconv.AppendUint(b[:0], uint64(p.Domain()), 10)
		s = append(s, '.')
		s = strconv.AppendUint(s, uint64(p.Cluster()), 10)
		s = append(s, '.')
		s = strconv.AppendUint(s, uint64(p.Item()), 10)
	}
	return string(s)
}

// String returns pmInDomStr's form: "domain.serial" or "PM_INDOM_NULL".
func (i InDom) String() string {
	if i == InDomNull {
		return "PM_INDOM_NULL"
	}
	var b [16]byte
	s := strconv.AppendUint(b[:0], uint64(i.Domain()), 10)
	s = append(s, '.')
	s = strconv.AppendUint(s, uint64(i.Serial()), 10)
	return string(s)
}

// IDSyntaxError reports a string that is not a PMID or InDom in the form
// String gives. Err is ErrPMID or ErrInDom, so errors.Is works.
type IDSyntaxError struct {
	Input string
	Err   Error
}

func (e *IDSyntaxError) Error() string { return strconv.Quote(e.Input) + ": " + e.Err.Error() }

func (e *IDSyntaxError) Unwrap() error { return e.Err }

// ParsePMID is the inverse of PMID.String: it takes "domain.cluster.item"
// in decimal with each field within its width, "domain.*.*" for a dynamic
// subtree's root, or "PM_ID_NULL". libpcp has no such function; PCP's
// tools scan "%u.%u.%u" and silently truncate, which this does not.
func ParsePMID(s string) (PMID, error) {
	if s == "PM_ID_NULL" {
		return PMIDNull, nil
	}
	f := strings.Split(s, ".")
	if len(f) == 3 {
		if f[1] == "*" && f[2] == "*" {
			if d, ok := idStrField(f[0], MaxCluster); ok {
				return NewPMID(pmidDynamicDomain, d, 0), nil
			}
		} else {
			d, ok1 := idStrField(f[0], MaxDomain)
			c, ok2 := idStrField(f[1], MaxCluster)
			i, ok3 := idStrField(f[2], MaxItem)
			if ok1 && ok2 && ok3 {
				return NewPMID(d, c, i), nil
			}
		}
	}
	return PMIDNull, &IDSyntaxError{Input: s, Err: ErrPMID}
}

// ParseInDom is the inverse of InDom.String: "domain.serial" in decimal
// with each field within its width, or "PM_INDOM_NULL".
func ParseInDom(s string) (InDom, error) {
	if s == "PM_INDOM_NULL" {
		return InDomNull, nil
	}
	if ds, ss, ok := strings.Cut(s, "."); ok {
		d, ok1 := idStrField(ds, MaxDomain)
		n, ok2 := idStrField(ss, MaxSerial)
		if ok1 && ok2 {
			return NewInDom(d, n), nil
		}
	}
	return InDomNull, &IDSyntaxError{Input: s, Err: ErrInDom}
}

// idStrField parses one unsigned decimal field of at most limit; digits only,
// so no sign, space or base prefix slips through.
func idStrField(s string, limit uint32) (uint32, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n > uint64(limit) {
		return 0, false
	}
	return uint32(n), true
}
