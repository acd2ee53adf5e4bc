package pmapi

import (
	"sync/atomic"

	"github.com/gopcp/gopcp/pdu"
)

// NumPDUTypes is how many PDU types the counters keep, ERROR (0x7000) to
// DESCS; PCP's tools print the first PDU_MAX (23) of them.
const NumPDUTypes = int(pdu.TypeDescs-pdu.TypeError) + 1

// pduCount holds the process-wide PDU counters of host contexts, as
// libpcp's __pmPDUCntOut and __pmPDUCntIn do.
var pduCount struct {
	out, in [NumPDUTypes]atomic.Uint64
}

func countPDU(counters *[NumPDUTypes]atomic.Uint64, t pdu.Type) {
	if i := int(t - pdu.TypeError); t >= pdu.TypeError && i < NumPDUTypes {
		counters[i].Add(1)
	}
}

// PDUCounts returns how many PDUs of each type (index type-0x7000) the
// process's host contexts have sent to and received from pmcd, the
// handshake included, as pmprobe -V reports them. It is safe for
// concurrent use.
func PDUCounts() (out, in [NumPDUTypes]uint64) {
	for i := range out {
		out[i] = pduCount.out[i].Load()
		in[i] = pduCount.in[i].Load()
	}
	return out, in
}
