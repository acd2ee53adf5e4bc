package pmcd

import (
	"context"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

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
