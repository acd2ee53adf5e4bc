package pmcd

import (
	"encoding/json"
	"strconv"

	"github.com/gopcp/gopcp/internal/hostlabels"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// contextLabels answers a LABEL_REQ for the context level with pmcd's own
// labels, read afresh on each request as PCP's pmcd does: the host's
// (package hostlabels), and for clients whose credentials pmcd knows
// (Unix socket clients) userid and groupid too. Not yet done: the
// container label.
func (c *client) contextLabels(m *pdu.LabelReq) (pdu.Message, error) {
	if m.Type>>8 != 0 {
		return nil, pcp.ErrType
	}
	labels := hostlabels.Read(hostlabels.SysconfDir())
	// The configured labels are compared with those pmcd saw last: a
	// change is told to every client, this one too, with their next
	// fetch.
	c.s.checkLabels()
	if c.id.HasCreds {
		// As numbers, not strings.
		labels["groupid"] = hostlabels.Label{Value: json.RawMessage(strconv.FormatUint(uint64(c.id.GID), 10))}
		labels["userid"] = hostlabels.Label{Value: json.RawMessage(strconv.FormatUint(uint64(c.id.UID), 10))}
	}
	set, err := labels.Set()
	if err != nil {
		return nil, err
	}
	return &pdu.Label{Ident: m.Ident, Type: m.Type, Sets: []pcp.LabelSet{set}}, nil
}
