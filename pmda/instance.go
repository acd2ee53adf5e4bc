package pmda

import (
	"context"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// lookupName finds an instance of insts by name, in order: a name equal to
// the instance's, or a name without spaces equal to the instance name's
// first word (so "1" finds "1 minute").
func lookupName(insts []Instance, name string) (Instance, bool) {
	spaced := strings.IndexByte(name, ' ') >= 0
	for _, in := range insts {
		if in.Name == name {
			return in, true
		}
		if spaced {
			continue
		}
		if w, _, ok := strings.Cut(in.Name, " "); ok && w == name {
			return in, true
		}
	}
	return Instance{}, false
}

// lookup finds an instance of insts by number.
func lookup(insts []Instance, id int32) (Instance, bool) {
	for _, in := range insts {
		if in.ID == id {
			return in, true
		}
	}
	return Instance{}, false
}

// Instance answers an instance domain request, as an INSTANCE_REQ asks it:
// every instance (inst pcp.InstNull and name ""), the name of inst, or the
// number of the instance called name. The answer holds numbers only for a
// lookup by name, names only for a lookup by number. An unknown domain is
// pcp.ErrInDom, an unknown instance pcp.ErrInst. The profile does not apply.
func (a *Agent) Instance(ctx context.Context, c Client, indom pcp.InDom, inst int32, name string) (*pdu.Instance, error) {
	if err := a.begin(ctx, c, pdu.TypeInstanceReq, uint32(indom)); err != nil {
		return nil, err
	}
	insts, err := a.instances(ctx, c, indom)
	if err != nil {
		return nil, err
	}
	res := &pdu.Instance{InDom: indom}
	finder, _ := a.fetcher.(InstanceFinder)
	switch {
	case inst == pcp.InstNull && name == "":
		res.Entries = make([]pdu.InstEntry, len(insts))
		for i, in := range insts {
			res.Entries[i] = pdu.InstEntry{Inst: in.ID, Name: in.Name}
		}
	case (name == "") != (inst == pcp.InstNull) && finder != nil:
		in, err := finder.FindInstance(ctx, c, indom, inst, name)
		if err != nil {
			return nil, err
		}
		if name == "" {
			res.Entries = []pdu.InstEntry{{Inst: pcp.InstNull, Name: in.Name}}
		} else {
			res.Entries = []pdu.InstEntry{{Inst: in.ID}}
		}
	case name == "":
		in, ok := lookup(insts, inst)
		if !ok {
			return nil, pcp.ErrInst
		}
		res.Entries = []pdu.InstEntry{{Inst: pcp.InstNull, Name: in.Name}}
	case inst == pcp.InstNull:
		in, ok := lookupName(insts, name)
		if !ok {
			return nil, pcp.ErrInst
		}
		res.Entries = []pdu.InstEntry{{Inst: in.ID}}
	default: // both a number and a name
		return nil, pcp.ErrInst
	}
	return res, nil
}
