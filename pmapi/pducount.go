package pmapi

import (
	"sync/atomic"

	"github.com/gopcp/gopcp/pdu"
)

// NumPDUTypes is how many PDU types the counters keep, ERROR (0x7000) to
// DESCS; PCP's tools print the first PDU_MAX (23) of them.
const NumPDUTypes = int(pdu.TypeDescs-pdu.TypeError) + 1

// pduCounters count a host context's PDUs by type, as libpcp's
// __pmPDUCntOut and __pmPDUCntIn do for a process.
type pduCounters struct {
	out, in [NumPDUTypes]atomic.Uint64
}

func countPDU(counters *[NumPDUTypes]atomic.Uint64, t pdu.Type) {
	if i := int(t - pdu.TypeError); t >= pdu.TypeError && i < NumPDUTypes {
		counters[i].Add(1)
	}
}

// PDUCounts returns how many PDUs of each type (index type-0x7000) the
// context has sent to and received from pmcd, the handshakes of its
// connections included, as pmprobe -V reports them for its one context.
// It is safe for concurrent use.
func (c *HostContext) PDUCounts() (out, in [NumPDUTypes]uint64) {
	for i := range out {
		out[i] = c.counts.out[i].Load()
		in[i] = c.counts.in[i].Load()
	}
	return out, in
}
