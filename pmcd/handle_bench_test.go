package pmcd

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// discardStream is a client connection whose requests come from the
// benchmark and whose answers are kept only until the next: what pmcd does for a request
// apart from the system calls that carry it.
type discardStream struct{ last []byte }

func (d *discardStream) Read([]byte) (int, error) { return 0, io.EOF }
func (d *discardStream) Write(p []byte) (int, error) {
	d.last = append(d.last[:0], p...)
	return len(p), nil
}
func (d *discardStream) SetReadDeadline(time.Time) error  { return nil }
func (d *discardStream) SetWriteDeadline(time.Time) error { return nil }

// BenchmarkHandleFetch is pmcd's own work for one client's FETCH, from
// the request's bytes to the answer's, without the network: decoding,
// access control, the agent's fetch and the answer's encoding, for the
// metric sets bench/pmcd_agents_test.go fetches (the sample agent in
// process, pmcd's own agent) and the trivial agent's one metric.
func BenchmarkHandleFetch(b *testing.B) {
	cases := []struct {
		name, conf string
		names      []string
	}{
		{"trivial", "trivial\t250\tdso\ttrivial_init\t/nonexistent\n", []string{"trivial.time"}},
		{"sample", "sample\t29\tdso\tsample_init\t/nonexistent\n", []string{"sample.long.one", "sample.long.ten",
			"sample.ulong.hundred", "sample.longlong.million", "sample.float.one", "sample.double.ten",
			"sample.string.hullo", "sample.colour", "sample.bin", "sample.seconds", "sample.milliseconds", "sample.load"}},
		{"pmcd", "pmcd\t2\tdso\tpmcd_init\t/nonexistent\n", benchPMCDMetrics},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			conf, err := ParseConf(strings.NewReader(tc.conf), "bench")
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tree, err := AgentNamespace(ctx, conf, map[string]NameSource{"sample_init": sample.Namespace})
			if err != nil {
				b.Fatal(err)
			}
			ids := make([]pcp.PMID, len(tc.names))
			for i, n := range tc.names {
				if ids[i], err = tree.Lookup(n); err != nil {
					b.Fatal(n, err)
				}
			}
			srv := &Server{PMNS: tree, Conf: conf}
			serveOn(b, srv)
			out := &discardStream{}
			c := &client{s: srv, w: pdu.NewWriter(out), num: srv.clientNum(), profiles: map[int32]*pdu.Profile{},
				gens: map[int32]uint64{}, profileSize: map[int32]int{}, quiet: context.WithoutCancel(ctx), ctx: ctx, cancel: cancel}
			c.st = srv.st()
			if err := c.handle(ctx, (&pdu.Profile{State: pdu.ProfileInclude}).Append(nil, 1)); err != nil {
				b.Fatal(err)
			}
			req := (&pdu.Fetch{PMIDs: ids}).Append(nil, 1)
			if err := c.handle(ctx, req); err != nil {
				b.Fatal(err)
			}
			var ans pdu.Result
			if err := ans.Decode(out.last); err != nil {
				b.Fatal(err)
			}
			for i, s := range ans.Sets {
				if s.NumVal <= 0 {
					b.Fatalf("%s: %d values", tc.names[i], s.NumVal)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := processCPU()
			for range b.N {
				if err := c.handle(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu0)
		})
	}
}
