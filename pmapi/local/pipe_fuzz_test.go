package local

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// nopCloser stands for a pipe's end in FuzzCompanionReplies.
type nopCloser struct{}

func (nopCloser) Close() error { return nil }

// FuzzCompanionReplies hands a context's side of the pipe whatever bytes
// a companion might write, start reports and answers alike: each
// request ends with an answer or an error, never a panic or a hang.
func FuzzCompanionReplies(f *testing.F) {
	started := (&pdu.Error{}).Append(nil, 0)
	f.Add(started)
	f.Add(append(started, (&pdu.Desc{Desc: pcp.Desc{PMID: pcp.NewPMID(29, 0, 0), InDom: pcp.InDomNull}}).Append(nil, 29)...))
	f.Add(append(started, (&pdu.Error{Code: int32(pcp.ErrPMID)}).Append(nil, 29)...))
	f.Add((&pdu.Text{Text: "no"}).Append(nil, 0))
	f.Add(append(started, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0x70, 1, 0, 0, 0, 0))
	reqs := []pdu.Message{
		&pdu.DescReq{PMID: pcp.NewPMID(29, 0, 0)},
		&pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(29, 0, 0)}},
		&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{PMID: pcp.NewPMID(29, 0, 0), NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 1}}}}}},
		&pdu.InstanceReq{InDom: pcp.NewInDom(29, 1), Inst: pcp.InstNull},
		&pdu.TextReq{Ident: uint32(pcp.NewPMID(29, 0, 0)), Type: pdu.TextOneLine | pdu.TextPMID},
		&pdu.LabelReq{Ident: 29, Type: int32(pcp.LabelDomain)},
		&pdu.PMNSNames{Names: []string{"sample.long.one"}},
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ctx := context.Background()
		c := &companion{in: nopCloser{}, out: nopCloser{},
			r: pdu.NewReader(bytes.NewReader(b), 0), w: pdu.NewWriter(io.Discard)}
		ok, _, err := c.started(ctx)
		if err != nil || !ok {
			return
		}
		p := &pipeAgent{c: c, domain: 29}
		c.open = 1
		for _, req := range reqs {
			_, _ = p.Handle(ctx, 0, req)
		}
		_ = p.Close()
	})
}
