package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// TestMain removes the programs built for the tests.
func TestMain(m *testing.M) { os.Exit(pcptest.Main(m)) }

// TestDemos runs the three demos against the trace agent in-process and
// checks what each leaves in its metrics, as PCP's app1.c, app2.c and
// app3.c would leave.
func TestDemos(t *testing.T) {
	a, err := atrace.New(atrace.Domain, atrace.Options{ManualTicks: true})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { a.Serve(ctx, ln) })
	defer func() { cancel(); wg.Wait() }()
	env := append(os.Environ(), "PCP_TRACE_HOST=127.0.0.1", "PCP_TRACE_PORT="+strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
	for _, app := range []struct {
		pkg  string
		args []string
	}{{".", nil}, {"../app2", []string{"-n", "7", "-maxsleep", "20ms"}}, {"../app3", []string{"-maxsleep", "20ms"}}} {
		bin := pcptest.GoCommand(t, app.pkg)
		cmd := exec.Command(bin, app.args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", filepath.Base(bin), err, out)
		}
	}
	want := map[uint32]string{
		0:  "ascanbe=1 cpu_sucker=2 io_sucker=2 pcpu_sucker=10 pio_sucker=10 ptime_sucker=10 simple=1 time_sucker=3",
		6:  "imouttahere=1 mainloop=7",
		8:  "observe=1",
		10: "observe=101",
		17: "counter=1",
		19: "counter=101.1",
	}
	for item, w := range want {
		if got := values(t, a, item); got != w {
			t.Errorf("item %d: %s, want %s", item, got, w)
		}
	}
}

// values prints a metric's values by instance name, sorted.
func values(t *testing.T, a *atrace.Agent, item uint32) string {
	t.Helper()
	ctx := context.Background()
	pmid := pcp.NewPMID(atrace.Domain, 0, item)
	res, err := a.PMDA().Fetch(ctx, pmda.Client(0), []pcp.PMID{pmid})
	if err != nil {
		t.Fatal(err)
	}
	m := a.PMDA().Metric(pmid)
	set := res.Sets[0]
	names := map[int32]string{}
	insts, err := a.PMDA().Instance(ctx, pmda.Client(0), m.Desc.InDom, pcp.InstNull, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range insts.Entries {
		names[in.Inst] = in.Name
	}
	var out []string
	for _, v := range set.Values {
		atom, err := pcp.ExtractValue(set.ValFmt, &v, m.Desc.Type, pcp.TypeDouble)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, names[v.Inst]+"="+strconv.FormatFloat(atom.D, 'g', -1, 64))
	}
	sortStrings(out)
	return strings.Join(out, " ")
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
