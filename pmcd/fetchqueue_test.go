package pmcd

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// TestQueuedFetchesKeepProfiles has many clients fetch sample.colour
// from PCP's pmdasample on a pipe at once, each with a profile that
// selects one instance of its three, so that pmcd sends the agent their
// fetches together (fetchqueue.go), each after its own client's
// PROFILE. Every answer must hold the client's instance alone: a
// profile sent out of turn would show as another instance.
func TestQueuedFetchesKeepProfiles(t *testing.T) {
	t.Parallel()
	bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.SampleAgent()}})
	tree, err := pmns.Load(filepath.Join(bed.Dir(), "pmns", "root"))
	if err != nil {
		t.Fatal(err)
	}
	env, err := exec.LookPath("env")
	if err != nil {
		t.Fatal(err)
	}
	agentBin := filepath.Join(bed.Install().Var("PCP_PMDAS_DIR"), "sample", "pmdasample")
	command := env + " PCP_PMDAS_DIR=" + filepath.Join(bed.Dir(), "pmdas") + " " + agentBin +
		" -d 29 -l " + filepath.Join(t.TempDir(), "sample.log")
	host := startWithConf(t, tree, "sample\t29\tpipe\tbinary\t"+command+"\n", 0)
	colour, err := tree.Lookup("sample.colour")
	if err != nil {
		t.Fatal(err)
	}
	indom := pcp.NewInDom(29, 1)
	const clients, fetches = 12, 150
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan string, clients)
	for i := range clients {
		_, r, w := dial(t, host)
		inst := int32(i % 3)
		wg.Add(1)
		go func() {
			defer wg.Done()
			prof := &pdu.Profile{Context: 0, State: pdu.ProfileInclude,
				InDoms: []pdu.InDomProfile{{InDom: indom, State: pdu.ProfileExclude, Insts: []int32{inst}}}}
			if err := w.WriteMessage(ctx, prof, 0); err != nil {
				errs <- err.Error()
				return
			}
			for range fetches {
				if err := w.WriteMessage(ctx, &pdu.Fetch{Context: 0, PMIDs: []pcp.PMID{colour}}, 0); err != nil {
					errs <- err.Error()
					return
				}
				b, err := r.ReadPDU(ctx)
				if err != nil {
					errs <- err.Error()
					return
				}
				var res pdu.Result
				if err := res.Decode(b); err != nil {
					errs <- err.Error()
					return
				}
				s := res.Sets[0]
				if s.NumVal != 1 || s.Values[0].Inst != inst {
					errs <- "wrong instances for a client whose profile selects " + string(rune('0'+inst)) + ": " + setString(s)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// setString shows a value set's count and instances.
func setString(s pcp.ValueSet) string {
	out := "numval " + string(rune('0'+s.NumVal)) + " instances"
	for _, v := range s.Values {
		out += " " + string(rune('0'+v.Inst))
	}
	return out
}

// TestQueuedFetchesAgentHangs has fetches queue for a pipe agent while
// it is slow with an earlier one, then hang on the first of them: the
// one that finds it hung gets PM_ERR_TIMEOUT and every other one
// PM_ERR_NOAGENT, whether they went to the agent in the same batch
// (written, never answered) or after it was marked dead; none is left
// waiting.
func TestQueuedFetchesAgentHangs(t *testing.T) {
	t.Parallel()
	host := startAgents(t, "slowthenhangs", 3*time.Second)
	broken := pcp.NewPMID(251, 0, 0)
	const clients = 8
	conns := make([]struct {
		r *pdu.Reader
		w *pdu.Writer
	}, clients)
	for i := range conns {
		_, conns[i].r, conns[i].w = dial(t, host)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	codes := make([]int32, clients)
	errs := make([]error, clients)
	var wg sync.WaitGroup
	for i := range conns {
		if i == 1 {
			// Let the first be out at the agent, so that the others
			// queue behind it (for the test's coverage, not its result).
			time.Sleep(100 * time.Millisecond)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := conns[i]
			if errs[i] = c.w.WriteMessage(ctx, &pdu.Fetch{PMIDs: []pcp.PMID{broken}}, 1); errs[i] != nil {
				return
			}
			for {
				b, err := c.r.ReadPDU(ctx)
				if err != nil {
					errs[i] = err
					return
				}
				m, err := pdu.Decode(b)
				if err != nil {
					errs[i] = err
					return
				}
				if e, ok := m.(*pdu.Error); ok && e.Code > 0 {
					continue // a notice of the agent's state change
				}
				res, ok := m.(*pdu.Result)
				if !ok || len(res.Sets) != 1 {
					errs[i] = fmt.Errorf("answered with %#v", m)
					return
				}
				codes[i] = res.Sets[0].NumVal
				return
			}
		}()
	}
	wg.Wait()
	// Whichever client reached the agent first got the slow answer: on
	// a loaded machine the first goroutine started need not be it.
	timeouts, answers := 0, 0
	for i, code := range codes {
		switch {
		case errs[i] != nil:
			t.Errorf("client %d: %v", i, errs[i])
		case code == int32(pcp.ErrTimeout):
			timeouts++
		case code == 1:
			answers++
		case code != int32(pcp.ErrNoAgent):
			t.Errorf("client %d: value set code %d", i, code)
		}
	}
	if timeouts != 1 || answers != 1 {
		t.Errorf("%d fetches got PM_ERR_TIMEOUT and %d a value, want 1 and 1: %v", timeouts, answers, codes)
	}
}
