package pmcd

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// fuzzAgentPMNS gives the fake agent of domain 253 a static metric and a
// dynamic subtree, so that name requests reach it too.
const fuzzAgentPMNS = `root {
	trivial
	fake
}
trivial {
	time	250:0:0
}
fake {
	m	253:0:0
	dyn	253:*:*
}
`

// fuzzAgentRequests are the client requests that pmcd passes to the fake
// agent; the input's first byte picks one.
func fuzzAgentRequests() []pdu.Message {
	m := pcp.NewPMID(253, 0, 0)
	return []pdu.Message{
		&pdu.Fetch{PMIDs: []pcp.PMID{m, trivial.PMID}},
		&pdu.HighResFetch{PMIDs: []pcp.PMID{m}},
		&pdu.DescReq{PMID: m},
		&pdu.DescIDs{PMIDs: []pcp.PMID{m, trivial.PMID}},
		&pdu.InstanceReq{InDom: pcp.NewInDom(253, 0), Inst: -1},
		&pdu.TextReq{Ident: uint32(m), Type: pdu.TextPMID | pdu.TextHelp},
		&pdu.LabelReq{Ident: uint32(m), Type: int32(pcp.LabelItem)},
		&pdu.LabelReq{Ident: uint32(pcp.NewInDom(253, 0)), Type: int32(pcp.LabelInstances)},
		&pdu.PMNSNames{Names: []string{"fake.dyn.x", "trivial.time"}},
		&pdu.PMNSIDs{PMIDs: []pcp.PMID{pcp.NewPMID(253, 1, 1)}},
		&pdu.PMNSChild{Name: "fake.dyn", Subtype: pdu.PMNSChildStatus},
		&pdu.PMNSTraverse{Name: "fake.dyn"},
		&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{PMID: m, NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 3}}}}}},
	}
}

// answerType is the PDU that answers each request other than with an
// ERROR (a store is answered with an ERROR of code 0).
var answerType = map[pdu.Type]pdu.Type{
	pdu.TypeFetch: pdu.TypeResult, pdu.TypeHighResFetch: pdu.TypeHighResResult,
	pdu.TypeDescReq: pdu.TypeDesc, pdu.TypeDescIDs: pdu.TypeDescs,
	pdu.TypeInstanceReq: pdu.TypeInstance, pdu.TypeTextReq: pdu.TypeText, pdu.TypeLabelReq: pdu.TypeLabel,
	pdu.TypePMNSNames: pdu.TypePMNSIDs, pdu.TypePMNSIDs: pdu.TypePMNSNames,
	pdu.TypePMNSChild: pdu.TypePMNSNames, pdu.TypePMNSTraverse: pdu.TypePMNSNames,
	pdu.TypeResult: pdu.TypeError,
}

// FuzzAgentReplies has a socket agent answer a client's request with any
// bytes and then end its connection. pmcd must give the client a reply
// that decodes (an ERROR or a well formed answer), and afterwards bring
// the agent back and serve the in-process agent as before: a bad agent
// ends that agent, never pmcd or its clients.
func FuzzAgentReplies(f *testing.F) {
	reqs := fuzzAgentRequests()
	id := pcp.NewPMID(253, 0, 0)
	replies := append(agentBases(id),
		(&pdu.Desc{Desc: pcp.Desc{PMID: id, Type: pcp.Type32, InDom: pcp.InDomNull, Sem: pcp.SemInstant}}).Append(nil, 0),
		(&pdu.PMNSNames{Names: []string{"fake.dyn.x"}, Status: []int32{1}}).Append(nil, 0),
		(&pdu.Text{Ident: uint32(id), Text: "help"}).Append(nil, 0),
		(&pdu.Instance{InDom: pcp.NewInDom(253, 0), Entries: []pdu.InstEntry{{Inst: 1, Name: "one"}}}).Append(nil, 0),
		(&pdu.Error{Code: 0}).Append(nil, 0),
		[]byte{0, 0, 0, 4, 0, 0, 0x70, 0x01},
	)
	for i := range reqs {
		for _, r := range replies {
			f.Add(append([]byte{byte(i)}, r...))
		}
	}
	dir, err := os.MkdirTemp("", "fa") // short: sun_path has 108 bytes
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ln.Close() })
	var reply atomic.Pointer[[]byte]
	go fakeAgent(ln, &reply)

	tree, err := pmns.Parse(strings.NewReader(fuzzAgentPMNS), pmns.Options{})
	if err != nil {
		f.Fatal(err)
	}
	conf := "trivial\t250\tdso\ttrivial_init\t/nonexistent/pmda_trivial.so\n" +
		"fake 253 socket unix " + sock + "\n"
	c, err := ParseConf(strings.NewReader(conf), "fuzz")
	if err != nil {
		f.Fatal(err)
	}
	srv := &Server{PMNS: tree, Conf: c, AgentTimeout: 5 * time.Second}
	host := serveOn(f, srv)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		b := data[1:]
		reply.Store(&b)
		if srv.RestartDead(context.Background()) != 2 {
			t.Fatal("the fake agent did not come back")
		}
		_, r, w := dial(t, host)
		// roundTrip fails the test unless pmcd's answer decodes; it
		// must also be what the client asked for, or an ERROR.
		req := reqs[int(data[0])%len(reqs)]
		got := roundTrip(t, r, w, req).PDUType()
		if got != pdu.TypeError && got != answerType[req.PDUType()] {
			t.Fatalf("%v answered with %v", req.PDUType(), got)
		}
		res, ok := roundTrip(t, r, w, &pdu.Fetch{PMIDs: []pcp.PMID{trivial.PMID}}).(*pdu.Result)
		if !ok || len(res.Sets) != 1 || res.Sets[0].NumVal != 1 {
			t.Fatalf("after the reply, the in-process agent gave %+v", res)
		}
	})
}

// fakeAgent accepts pmcd's connections, shakes hands, and answers the
// first request that wants an answer with reply's bytes, then closes.
func fakeAgent(ln net.Listener, reply *atomic.Pointer[[]byte]) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer conn.Close()
			r, w := pdu.NewReader(conn, pdu.DefaultTimeout), pdu.NewWriter(conn)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := pdu.AgentHandshake(ctx, r, w, 0); err != nil {
				return
			}
			r.Timeout = 0
			for {
				b, err := r.ReadPDU(context.Background())
				if err != nil {
					return
				}
				switch h, _ := pdu.ParseHeader(b); h.Type {
				case pdu.TypeProfile, pdu.TypeCreds, pdu.TypeAttr:
					continue // no answer wanted
				}
				conn.Write(*reply.Load())
				return
			}
		}()
	}
}
