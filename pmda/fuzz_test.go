package pmda

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// FuzzDispatch feeds a stream of arbitrary PDUs to a dispatcher, as pmcd
// would over the pipe: whatever the bytes, nothing may panic, and every
// error that ends the stream must be PM_ERR_IPC.
// The seeds are the PDUs PCP's pmcd sent its sample agent.
func FuzzDispatch(f *testing.F) {
	var stream []byte
	for _, pdus := range loadAgentCaptures(f) {
		for _, p := range pdus {
			h, err := pdu.ParseHeader(p.b)
			if err != nil || !p.fromPMCD || h.Type == pdu.TypeCreds {
				continue
			}
			f.Add(p.b)
			stream = append(stream, p.b...)
		}
	}
	f.Add(stream)
	f.Add((&pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemInst), pmid(itemString), pmid(itemAggregate)}}).Append(nil, 0))
	f.Add((&pdu.LabelReq{Ident: uint32(testInDom), Type: int32(pcp.LabelInstances)}).Append(nil, 0))
	f.Add((&pdu.PMNSChild{Subtype: 1, Name: "test"}).Append(nil, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		a := newTestAgent(t, storer{&testFetcher{}})
		d := NewDispatcher(a, pdu.NewWriter(io.Discard))
		r := pdu.NewReader(bytes.NewReader(data), pdu.DefaultTimeout)
		r.Timeout = 0
		for {
			b, err := r.ReadPDU(context.Background())
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				if !errors.Is(err, pcp.ErrIPC) {
					t.Fatalf("reading: %v", err)
				}
				return
			}
			if err := d.Dispatch(context.Background(), b); err != nil {
				if !errors.Is(err, pcp.ErrIPC) {
					t.Fatalf("Dispatch: %v", err)
				}
				return
			}
		}
	})
}
