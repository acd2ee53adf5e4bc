package sample

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// benchItems are the metrics bench's TestPMCDAgentsSideBySide fetches
// (sample.long.one, long.ten, ulong.hundred, longlong.million,
// float.one, double.ten, string.hullo, colour, bin, seconds,
// milliseconds, load): 22 values of six types, 12 of them of an
// instance domain.
var benchItems = []uint32{itemLongOne, itemLongTen, itemUlongHundred, itemLonglongMillion,
	itemFloatOne, itemDoubleTen, itemStringHullo, itemColour, itemBin, itemSeconds,
	itemMilliseconds, itemLoad}

// BenchmarkHandleFetch is one fetch of the bench's metric list through the
// agent's Handle, as pmcd makes it of an in-process agent ("dso") and
// Dispatch of a pipe agent once the request is decoded ("daemon", which
// also asks access(2) about the unavailable file, as PCP's agent does).
func BenchmarkHandleFetch(b *testing.B) {
	b.Run("dso", func(b *testing.B) { benchHandleFetch(b, true) })
	b.Run("daemon", func(b *testing.B) { benchHandleFetch(b, false) })
}

// benchFetch makes an agent and the bench's FETCH of benchItems, fetched
// once so that what follows is the steady state.
func benchFetch(tb testing.TB, dso bool) (*pmda.Agent, pdu.Message) {
	tb.Helper()
	a, err := New(Domain, Options{PMDAsDir: tb.TempDir(), Now: time.Now, DSO: dso})
	if err != nil {
		tb.Fatal(err)
	}
	req := &pdu.Fetch{}
	for _, item := range benchItems {
		req.PMIDs = append(req.PMIDs, pmid(item))
	}
	if _, err := a.Handle(context.Background(), 0, req); err != nil {
		tb.Fatal(err)
	}
	return a, req
}

func benchHandleFetch(b *testing.B, dso bool) {
	a, msg := benchFetch(b, dso)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Handle(ctx, 0, msg); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHandleFetchBenchValues: the benchmark's fetch answers every metric
// with values (none with an error), so it measures values being made.
func TestHandleFetchBenchValues(t *testing.T) {
	a := newTest(t)
	req := &pdu.Fetch{}
	for _, item := range benchItems {
		req.PMIDs = append(req.PMIDs, pmid(item))
	}
	reply, err := a.Handle(context.Background(), 0, req)
	if err != nil {
		t.Fatal(err)
	}
	res := reply.(*pdu.Result)
	n := 0
	for _, set := range res.Sets {
		if set.NumVal <= 0 {
			t.Errorf("%v: numval %d", set.PMID, set.NumVal)
		}
		n += int(set.NumVal)
	}
	if want := 1 + 1 + 1 + 1 + 1 + 1 + 1 + 3 + 9 + 1 + 1 + 1; n != want {
		t.Errorf("%d values, want %d", n, want)
	}
}

// BenchmarkDispatchFetch is the pipe agent's whole fetch: the request's
// bytes decoded, answered through Handle and the result encoded, with no
// pipe.
func BenchmarkDispatchFetch(b *testing.B) {
	a, err := New(Domain, Options{PMDAsDir: b.TempDir(), Now: time.Now, DSO: true})
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	d := pmda.NewDispatcher(a, pdu.NewWriter(&out))
	req := &pdu.Fetch{}
	for _, item := range benchItems {
		req.PMIDs = append(req.PMIDs, pmid(item))
	}
	raw := req.Append(nil, 7)
	ctx := context.Background()
	if err := d.Dispatch(ctx, raw); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if err := d.Dispatch(ctx, raw); err != nil {
			b.Fatal(err)
		}
	}
}
