package pmcd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// fuzzSeeds are requests a client may send after its handshake, well
// formed and not.
func fuzzSeeds() [][]byte {
	broken, triv := pcp.NewPMID(251, 0, 0), trivial.PMID
	msgs := []pdu.Message{
		&pdu.Profile{State: pdu.ProfileInclude},
		&pdu.Profile{Context: 3, State: pdu.ProfileExclude, InDoms: []pdu.InDomProfile{{InDom: pcp.NewInDom(251, 1), State: pdu.ProfileInclude, Insts: []int32{1, 2}}}},
		&pdu.Fetch{PMIDs: []pcp.PMID{broken, triv}},
		&pdu.Fetch{Context: -1, PMIDs: []pcp.PMID{broken}},
		&pdu.HighResFetch{PMIDs: []pcp.PMID{broken, triv, pcp.NewPMID(99, 0, 0)}},
		&pdu.DescReq{PMID: broken},
		&pdu.DescIDs{PMIDs: []pcp.PMID{broken, triv}},
		&pdu.InstanceReq{InDom: pcp.NewInDom(251, 0), Inst: -1},
		&pdu.TextReq{Ident: uint32(broken), Type: pdu.TextPMID | pdu.TextHelp},
		&pdu.LabelReq{Ident: uint32(broken), Type: int32(pcp.LabelItem)},
		&pdu.LabelReq{Type: int32(pcp.LabelContext)},
		&pdu.PMNSNames{Names: []string{"broken.m", "trivial.time", "nonesuch"}},
		&pdu.PMNSIDs{PMIDs: []pcp.PMID{broken}},
		&pdu.PMNSChild{Name: "broken", Subtype: pdu.PMNSChildNames},
		&pdu.PMNSTraverse{Name: ""},
		&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{PMID: broken, NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 3}}}}}},
		&pdu.Attr{Key: pdu.AttrContainer, Value: []byte("box")},
		&pdu.Creds{},
	}
	var seeds [][]byte
	var all []byte
	for _, m := range msgs {
		b := m.Append(nil, 1)
		seeds = append(seeds, b)
		all = append(all, b...)
	}
	seeds = append(seeds, all)
	for _, c := range malformedCases() {
		seeds = append(seeds, c)
	}
	return seeds
}

// malformedCases are a few framing mistakes.
func malformedCases() [][]byte {
	return [][]byte{
		{0, 0, 0, 8, 0, 0, 0x70, 0x03},
		{0, 0x10, 0, 0, 0, 0, 0x70, 0x03, 0, 0, 0, 1},
		{0, 0, 0, 16, 0, 0, 0x7f, 0xff, 0, 0, 0, 1, 0, 0, 0, 0},
		[]byte("GET / HTTP/1.0\r\n\r\n"),
	}
}

// FuzzClientRequests sends any bytes a client might after its
// handshake to a pmcd serving an in-process agent and a pipe agent, then
// ends its side of the connection. pmcd must answer what it can and close
// the connection, and afterwards pmcd and both agents must still answer
// another client.
func FuzzClientRequests(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		f.Fatal(err)
	}
	env, err := exec.LookPath("env")
	if err != nil {
		f.Fatal(err)
	}
	conf := "trivial\t250\tdso\ttrivial_init\t/nonexistent/pmda_trivial.so\n" +
		fmt.Sprintf("broken 251 pipe binary %s %s=well %s\n", env, testAgentEnv, os.Args[0])
	c, err := ParseConf(strings.NewReader(conf), "fuzz")
	if err != nil {
		f.Fatal(err)
	}
	srv := &Server{PMNS: tree, Conf: c}
	host := serveOn(f, srv)
	_, hr, hw := dial(f, host)
	f.Fuzz(func(t *testing.T, data []byte) {
		conn, r, _ := dial(t, host)
		defer conn.Close()
		// The client then stops sending: pmcd answers what it can and
		// closes the connection once it reads the end. pmcd may close
		// it sooner, so writes may fail.
		conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
		conn.Write(data)
		conn.(*net.TCPConn).CloseWrite()
		r.Timeout = 0
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for {
			_, err := r.ReadPDU(ctx)
			if err == nil {
				continue
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
				break // pmcd closed the connection
			}
			t.Fatalf("pmcd did not close the connection: %v", err)
		}
		res, ok := roundTrip(t, hr, hw, &pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(251, 0, 0), trivial.PMID}}).(*pdu.Result)
		if !ok || len(res.Sets) != 2 || res.Sets[0].NumVal != 1 || res.Sets[1].NumVal != 1 {
			t.Fatalf("after the input, a fetch from both agents gave %+v", res)
		}
	})
}
