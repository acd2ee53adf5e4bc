package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Instance is one instance of an instance domain: its number and name.
type Instance struct {
	Inst int32
	Name string
}

// GetInDom returns every instance of an instance domain in the order
// pmcd gives them, as pmGetInDom does. pcp.InDomNull is pcp.ErrInDom.
func (c *HostContext) GetInDom(ctx context.Context, indom pcp.InDom) ([]Instance, error) {
	reply, err := c.instanceReq(ctx, &pdu.InstanceReq{InDom: indom, Inst: pcp.InstNull})
	if err != nil {
		return nil, fmt.Errorf("pmapi: GetInDom %s: %w", indom, err)
	}
	insts := make([]Instance, len(reply.Entries))
	for i, e := range reply.Entries {
		insts[i] = Instance{Inst: e.Inst, Name: e.Name}
	}
	return insts, nil
}

// LookupInDom returns the number of the instance with a name, as
// pmLookupInDom does (pmcd's agent decides how names match); an unknown
// name is pcp.ErrInst.
func (c *HostContext) LookupInDom(ctx context.Context, indom pcp.InDom, name string) (int32, error) {
	reply, err := c.instanceReq(ctx, &pdu.InstanceReq{InDom: indom, Inst: pcp.InstNull, Name: name})
	if err == nil && len(reply.Entries) == 0 {
		err = fmt.Errorf("%w: empty INSTANCE reply", pcp.ErrIPC)
	}
	if err != nil {
		return pcp.InstNull, fmt.Errorf("pmapi: LookupInDom %s %q: %w", indom, name, err)
	}
	return reply.Entries[0].Inst, nil
}

// NameInDom returns the name of an instance, as pmNameInDom does; an
// unknown instance is pcp.ErrInst.
func (c *HostContext) NameInDom(ctx context.Context, indom pcp.InDom, inst int32) (string, error) {
	reply, err := c.instanceReq(ctx, &pdu.InstanceReq{InDom: indom, Inst: inst})
	if err == nil && len(reply.Entries) == 0 {
		err = fmt.Errorf("%w: empty INSTANCE reply", pcp.ErrIPC)
	}
	if err != nil {
		return "", fmt.Errorf("pmapi: NameInDom %s %d: %w", indom, inst, err)
	}
	return reply.Entries[0].Name, nil
}

func (c *HostContext) instanceReq(ctx context.Context, req *pdu.InstanceReq) (*pdu.Instance, error) {
	if req.InDom == pcp.InDomNull {
		return nil, pcp.ErrInDom
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var reply pdu.Instance
	if err := c.call(ctx, req, &reply); err != nil {
		return nil, err
	}
	return &reply, nil
}
