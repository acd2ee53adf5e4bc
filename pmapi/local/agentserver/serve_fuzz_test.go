package agentserver

import (
	"bytes"
	"context"
	"io"
	"testing"

	_ "github.com/gopcp/gopcp/agents/all"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// FuzzServe hands the companion's side whatever bytes come: it must end
// with an error or at their end, never panic or hang.
func FuzzServe(f *testing.F) {
	req := (&pdu.DescReq{PMID: pcp.NewPMID(250, 0, 0)}).Append(nil, 250)
	f.Add(req)
	f.Add(append(req, (&pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(250, 0, 0)}}).Append(nil, 250)...))
	f.Add((&pdu.DescReq{PMID: pcp.NewPMID(250, 0, 0)}).Append(nil, 7))
	f.Add([]byte{0, 0, 0, 12, 0, 0, 0x70, 0, 0, 0, 0, 0xfa})
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = Serve(context.Background(), []Entry{{Domain: 250, Entry: "trivial_init"}}, bytes.NewReader(b), io.Discard)
	})
}
