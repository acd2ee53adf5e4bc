package pdu

import (
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// Profile states, PM_PROFILE_* in PCP: whether a profile includes every
// instance but those listed, or excludes every instance but those listed.
const (
	ProfileInclude int32 = 0
	ProfileExclude int32 = 1
)

// Profile is a PROFILE PDU: the instance profile a client sets for one of
// its contexts before fetching, a global state and per instance domain a
// state and a list of instances.
//
// On the wire the fixed part and each instance domain's entry carry a
// padding word where old PCP versions sent a pointer; PCP 6 sends zero
// and ignores what it reads, as we do. All the entries come first, then
// all the instance lists in entry order.
type Profile struct {
	Context int32
	State   int32
	InDoms  []InDomProfile
}

// InDomProfile is one instance domain's part of a Profile.
type InDomProfile struct {
	InDom pcp.InDom
	State int32
	Insts []int32
}

const (
	profileFixed = 4 * 4 // context, state, count, pad
	profileEntry = 4 * 4 // indom, state, count, pad
)

// PDUType returns TypeProfile.
func (*Profile) PDUType() Type { return TypeProfile }

// Append encodes the PDU onto dst.
func (m *Profile) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeProfile, from)
	dst = appendI32(dst, m.Context)
	dst = appendI32(dst, m.State)
	dst = appendI32(dst, int32(len(m.InDoms)))
	dst = appendU32(dst, 0)
	for _, p := range m.InDoms {
		dst = appendU32(dst, uint32(p.InDom))
		dst = appendI32(dst, p.State)
		dst = appendI32(dst, int32(len(p.Insts)))
		dst = appendU32(dst, 0)
	}
	for _, p := range m.InDoms {
		for _, inst := range p.Insts {
			dst = appendI32(dst, inst)
		}
	}
	return finish(dst, start)
}

// Decode parses a PROFILE PDU. PCP refuses a negative context number or
// count; so does Decode, and it also refuses bytes left over. All the
// instance lists share one new slice.
func (m *Profile) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeProfile)
	at := d.Off
	m.Context = d.I32("context")
	if d.Err == nil && m.Context < 0 {
		d.Fail(at, fmt.Sprintf("negative context %d", m.Context))
	}
	m.State = d.I32("state")
	at = d.Off
	n := d.I32("numprof")
	d.U32("pad")
	if d.Err == nil && (n < 0 || int64(n)*profileEntry > int64(d.Remaining())) {
		d.Fail(at, fmt.Sprintf("numprof %d cannot fit in %d bytes", n, d.Remaining()))
	}
	if d.Err != nil {
		m.InDoms = m.InDoms[:0]
		return d.Err
	}
	m.InDoms = m.InDoms[:0]
	total := 0
	counts := make([]int, n)
	for i := range counts {
		p := InDomProfile{InDom: pcp.InDom(d.U32("indom")), State: d.I32("state")}
		at := d.Off
		c := d.I32("numinst")
		d.U32("pad")
		if d.Err == nil && (c < 0 || int64(total)+int64(c) > int64(d.Remaining()/4)) {
			d.Fail(at, fmt.Sprintf("numinst %d cannot fit in %d bytes", c, d.Remaining()))
		}
		if d.Err != nil {
			return d.Err
		}
		counts[i] = int(c)
		total += int(c)
		m.InDoms = append(m.InDoms, p)
	}
	var insts []int32
	if total > 0 {
		insts = make([]int32, total)
	}
	for i := range insts {
		insts[i] = d.I32("instance")
	}
	for i, c := range counts {
		if c > 0 {
			m.InDoms[i].Insts, insts = insts[:c:c], insts[c:]
		}
	}
	return d.Done()
}
