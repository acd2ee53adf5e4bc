package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// recorder is a logger that keeps every PDU its clients send: the
// acknowledgement, LOG_STATUS naming the bed's pmcd, each request's
// answer, and every metric asked about answered on, mandatory, every 2 s.
type recorder struct {
	pmcd string
	mu   sync.Mutex
	pdus [][]byte
}

func (r *recorder) serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go r.client(c)
	}
}

func (r *recorder) client(c net.Conn) {
	defer c.Close()
	ctx := context.Background()
	rd, w := pdu.NewReader(c, 30*time.Second), pdu.NewWriter(c)
	if w.WriteMessage(ctx, &pdu.Error{Code: 3}, 4242) != nil {
		return
	}
	for {
		b, err := rd.ReadPDU(ctx)
		if err != nil {
			return
		}
		r.mu.Lock()
		r.pdus = append(r.pdus, append([]byte(nil), b...))
		r.mu.Unlock()
		m, err := pdu.Decode(b)
		if err != nil {
			return
		}
		var out pdu.Message
		switch m := m.(type) {
		case *pdu.Creds:
			continue
		case *pdu.LogRequest:
			out = &pdu.Error{Code: 0}
			switch m.Request {
			case pdu.LogRequestStatus:
				out = &pdu.LogStatus{LoggerStatus: pdu.LoggerStatus{State: pdu.LogStateInit, Vol: 2, Size: 99,
					PMCDHost: "recorder", PMCDFQDN: r.pmcd, PMCDTimezone: "UTC", LoggerTimezone: "UTC"}}
			case pdu.LogRequestNewVolume:
				out = &pdu.Error{Code: 3}
			}
		case *pdu.LogControl:
			res := pcp.Result{}
			for _, s := range m.Sets {
				vs := pcp.ValueSet{PMID: s.PMID, ValFmt: pcp.ValInSitu, NumVal: int32(len(s.Values)), Values: s.Values}
				for i := range vs.Values {
					vs.Values[i].LVal = 1 | 2 | 2000<<4
				}
				res.Sets = append(res.Sets, vs)
			}
			out = &pdu.Result{Result: res}
		default:
			return
		}
		if w.WriteMessage(ctx, out, 4242) != nil {
			return
		}
	}
}

// take returns the PDUs recorded so far, each as hex, CREDS' sender (the
// client's pid) masked.
func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, b := range r.pdus {
		if len(b) >= 12 && pdu.Type(binary.BigEndian.Uint32(b[4:8])) == pdu.TypeCreds {
			b = append([]byte(nil), b...)
			binary.BigEndian.PutUint32(b[8:12], 0)
		}
		out = append(out, fmt.Sprintf("%x", b))
	}
	r.pdus = nil
	return out
}

// TestWireAgainstPCP has PCP's pmlc and ours send one script to a
// recording logger: the PDUs they send (CREDS, LOG_REQUEST status, new
// volume, sync and QA, LOG_CONTROL enquiries and changes built from
// names and instances on the bed's pmcd) are the same bytes, and so is
// what they print.
func TestWireAgainstPCP(t *testing.T) {
	t.Parallel()
	p := testbed.StartPMCD(t, testbed.Options{})
	ours := pcptest.GoCommand(t, ".")
	rec := &recorder{pmcd: p.Host()}
	sock := filepath.Join(t.TempDir(), "rec.socket")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go rec.serve(ln)
	input := "status\nnew volume\nsync\nqa 0\nquery sample.long.one\nquery { sample.colour[red, 2] sample.long }\n" +
		"log mandatory on 2 sec sample.colour[red]\nlog advisory off { sample.long.ten sample.bin[\"bin-300\"] }\n" +
		"log mandatory maybe sample.bin\nlog advisory on once sample.long.hundred\nlog mandatory on every 2 sec sample.bin[100 200]\n"
	args := []string{"-h", "local:" + sock}
	want := runPCP(p, input, args...)
	wantPDUs := rec.take()
	got := runOurs(t, p, ours, input, args...)
	gotPDUs := rec.take()
	if len(wantPDUs) < 10 {
		t.Fatalf("PCP's pmlc sent %d PDUs:\n%s%s", len(wantPDUs), want.stdout, want.stderr)
	}
	if strings.Join(wantPDUs, "\n") != strings.Join(gotPDUs, "\n") {
		t.Errorf("PDUs differ:\nPCP's pmlc:\n%s\nours:\n%s", strings.Join(wantPDUs, "\n"), strings.Join(gotPDUs, "\n"))
	}
	if mask(want.stdout) != mask(got.stdout) || want.stderr != got.stderr || want.code != got.code {
		t.Errorf("PCP's (status %d):\n%s%s\nours (status %d):\n%s%s", want.code, mask(want.stdout), want.stderr,
			got.code, mask(got.stdout), got.stderr)
	}
}
