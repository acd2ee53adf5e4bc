package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// ContextLabels returns the labels of the context itself (the host's),
// as pmGetContextLabels does.
func (c *HostContext) ContextLabels(ctx context.Context) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "ContextLabels", uint32(pcp.PMIDNull), pcp.LabelContext)
}

// DomainLabels returns the labels of an agent, as pmGetDomainLabels does.
func (c *HostContext) DomainLabels(ctx context.Context, domain uint32) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "DomainLabels", domain, pcp.LabelDomain)
}

// InDomLabels returns the labels of an instance domain, as
// pmGetInDomLabels does.
func (c *HostContext) InDomLabels(ctx context.Context, indom pcp.InDom) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "InDomLabels", uint32(indom), pcp.LabelInDom)
}

// ClusterLabels returns the labels of a metric's cluster, as
// pmGetClusterLabels does.
func (c *HostContext) ClusterLabels(ctx context.Context, pmid pcp.PMID) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "ClusterLabels", uint32(pmid), pcp.LabelCluster)
}

// ItemLabels returns the labels of a metric, as pmGetItemLabels does.
func (c *HostContext) ItemLabels(ctx context.Context, pmid pcp.PMID) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "ItemLabels", uint32(pmid), pcp.LabelItem)
}

// InstancesLabels returns one label set per instance of an instance
// domain, as pmGetInstancesLabels does. Which instances pmcd reports
// follows the instance profile, which is sent first if pmcd lacks it.
func (c *HostContext) InstancesLabels(ctx context.Context, indom pcp.InDom) ([]pcp.LabelSet, error) {
	return c.labels(ctx, "InstancesLabels", uint32(indom), pcp.LabelInstances)
}

// labels asks pmcd for the label sets at one level. A pmcd without label
// support is pcp.ErrNoLabels; none at that level is an empty list.
func (c *HostContext) labels(ctx context.Context, call string, ident uint32, level uint8) ([]pcp.LabelSet, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sets, err := c.labelsLocked(ctx, ident, level)
	if err != nil {
		return nil, fmt.Errorf("pmapi: %s %#x: %w", call, ident, err)
	}
	return sets, nil
}

func (c *HostContext) labelsLocked(ctx context.Context, ident uint32, level uint8) ([]pcp.LabelSet, error) {
	if err := c.ready(); err != nil {
		return nil, err
	}
	if c.conn.features&pdu.FlagLabels == 0 {
		return nil, pcp.ErrNoLabels
	}
	if level == pcp.LabelInstances {
		if err := c.sendProfile(ctx); err != nil {
			return nil, err
		}
	}
	var reply pdu.Label
	if err := c.call(ctx, &pdu.LabelReq{Ident: ident, Type: int32(level)}, &reply); err != nil {
		return nil, err
	}
	return reply.Sets, nil
}
