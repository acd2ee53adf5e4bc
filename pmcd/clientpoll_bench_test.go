package pmcd

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// BenchmarkFetchClients is many clients' fetch round trips of an
// in-process agent (the trivial agent) at once, each client asking again
// as soon as it has its answer, with the server's epoll set of clients
// (clientpoll_linux.go) and without it: the process's CPU and context
// switches per fetch, the clients' (in this process too) included.
func BenchmarkFetchClients(b *testing.B) {
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, clients := range []int{1, 8, 32} {
		for _, set := range []bool{true, false} {
			name := "clients=" + strconv.Itoa(clients) + "/set=" + map[bool]string{true: "on", false: "off"}[set]
			b.Run(name, func(b *testing.B) {
				conf, err := ParseConf(strings.NewReader("trivial\t250\tdso\ttrivial_init\t/nonexistent/pmda_trivial.so\n"), "bench")
				if err != nil {
					b.Fatal(err)
				}
				srv := &Server{PMNS: tree, Conf: conf}
				srv.polls.off = !set
				benchFetchClients(b, srv, clients, pcp.NewPMID(250, 0, 0))
			})
		}
	}
}

// benchFetchClients has n clients of srv make b.N fetches of ids between
// them.
func benchFetchClients(b *testing.B, srv *Server, n int, ids ...pcp.PMID) {
	addr := serveOn(b, srv)
	ctx := context.Background()
	req := &pdu.Fetch{Context: 0, PMIDs: ids}
	type conn struct {
		r *pdu.Reader
		w *pdu.Writer
	}
	conns := make([]conn, n)
	roundTrip := func(c conn) {
		if err := c.w.WriteMessage(ctx, req, 1); err != nil {
			b.Error(err)
			return
		}
		reply, err := c.r.ReadPDU(ctx)
		if err != nil {
			b.Error(err)
			return
		}
		if h, _ := pdu.ParseHeader(reply); h.Type != pdu.TypeResult {
			b.Errorf("answered with %v", h.Type)
		}
	}
	for i := range conns {
		_, conns[i].r, conns[i].w = dial(b, addr)
		roundTrip(conns[i])
	}
	b.ResetTimer()
	cpu0, sw0 := processCPU(), contextSwitches()
	var wg sync.WaitGroup
	for i, c := range conns {
		k := b.N / n
		if i < b.N%n {
			k++
		}
		wg.Go(func() {
			for range k {
				roundTrip(c)
			}
		})
	}
	wg.Wait()
	reportCPU(b, cpu0)
	b.ReportMetric(float64(contextSwitches()-sw0)/float64(b.N), "switches/op")
}

// contextSwitches is the process's context switches so far, voluntary and
// not.
func contextSwitches() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Nvcsw + ru.Nivcsw
}
