package proc_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// threadInstances lists the process instance domain after storing
// proc.control.perclient.threads in the same context, keeping the
// instances of the given ids.
func threadInstances(t *testing.T, spec string, threads uint32, ids map[int32]bool) []string {
	ctx := context.Background()
	c, err := pmapi.NewHostContext(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pmids, err := c.LookupNames(ctx, []string{"proc.control.perclient.threads", "proc.psinfo.pid"})
	if err != nil {
		t.Fatal(err)
	}
	r := &pcp.Result{Sets: []pcp.ValueSet{{PMID: pmids[0], NumVal: 1, ValFmt: pcp.ValInSitu,
		Values: []pcp.Value{{Inst: pcp.InstNull, LVal: int32(threads)}}}}}
	if err := c.Store(ctx, r); err != nil {
		t.Fatal(err)
	}
	d, err := c.LookupDesc(ctx, pmids[1])
	if err != nil {
		t.Fatal(err)
	}
	insts, err := c.GetInDom(ctx, d.InDom)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, in := range insts {
		if ids[in.Inst] {
			out = append(out, fmt.Sprintf("%d %q", in.Inst, in.Name))
		}
	}
	sort.Strings(out)
	return out
}

// TestThreadsMatchPCP: with proc.control.perclient.threads stored, a
// multi-threaded process's threads are instances named as PCP's agent
// names them; without, only the process is.
func TestThreadsMatchPCP(t *testing.T) {
	b := startBeds(t)
	pid := child(t, "python3", "-c", "import threading,time\nfor i in range(3): threading.Thread(target=time.sleep,args=(1000,),daemon=True).start()\ntime.sleep(1000)")
	// Wait for the threads.
	var ids map[int32]bool
	for i := 0; i < 200; i++ {
		ents, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		if len(ents) == 4 {
			ids = map[int32]bool{}
			for _, e := range ents {
				n, _ := strconv.Atoi(e.Name())
				ids[int32(n)] = true
			}
			break
		}
		threadWait()
	}
	if ids == nil {
		t.Fatal("the child's threads did not start")
	}
	for _, threads := range []uint32{1, 0} {
		want := threadInstances(t, "unix:"+b.pcp.SocketPath(), threads, ids)
		if len(want) != 1+3*int(threads) {
			t.Fatalf("PCP's agent with threads=%d: %v", threads, want)
		}
		for name, p := range b.ours() {
			got := threadInstances(t, "unix:"+p.SocketPath(), threads, ids)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s with threads=%d: %v, PCP's %v", name, threads, got, want)
			}
		}
		t.Logf("threads=%d: %v", threads, want)
	}
}

// threadWait yields briefly while a child starts its threads.
func threadWait() { <-time.After(50 * time.Millisecond) }
