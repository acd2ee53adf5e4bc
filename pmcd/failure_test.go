package pmcd

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// TestBrokenAgent has a pipe agent die, hang, garble its reply or panic
// (answering PM_ERR_IPC and ending), or an in-process agent hang or
// panic, in the middle of a fetch that also asks the in-process trivial
// agent: the broken domain fails that fetch and answers PM_ERR_NOAGENT
// afterwards, and the other domain answers throughout.
func TestBrokenAgent(t *testing.T) {
	t.Parallel()
	// Only the hung agents need the timeout; the others have one of an
	// hour, which a fetch waiting for it would not survive (roundTrip
	// gives up far sooner), so they must be noticed without it.
	// The fetch that finds the agent broken fails with PCP's code for
	// what happened; later requests get PM_ERR_NOAGENT.
	for _, tc := range []struct {
		mode    string
		timeout time.Duration
		first   pcp.Error
	}{{"dies", time.Hour, pcp.ErrIPC}, {"hangs", 500 * time.Millisecond, pcp.ErrTimeout},
		{"garbles", time.Hour, pcp.ErrIPC}, {"dso-hangs", 500 * time.Millisecond, pcp.ErrTimeout},
		{"dso-panics", time.Hour, pcp.ErrIPC}, {"panics", time.Hour, pcp.ErrIPC}} {
		t.Run(tc.mode, func(t *testing.T) {
			_, r, w := dial(t, startAgents(t, tc.mode, tc.timeout))
			broken, triv := pcp.NewPMID(251, 0, 0), trivial.PMID
			d := roundTrip(t, r, w, &pdu.DescReq{PMID: broken}).(*pdu.Desc)
			if d.Desc.Type != pcp.Type32 {
				t.Fatalf("broken agent's descriptor before the fetch: %+v", d.Desc)
			}
			for round := 0; round < 2; round++ {
				want := pcp.ErrNoAgent
				if round == 0 {
					want = tc.first
				}
				res := roundTrip(t, r, w, &pdu.Fetch{PMIDs: []pcp.PMID{broken, triv}}).(*pdu.Result)
				if len(res.Sets) != 2 || res.Sets[0].PMID != broken || res.Sets[0].NumVal != int32(want) {
					t.Fatalf("round %d: broken set: %+v", round, res.Sets)
				}
				if res.Sets[1].PMID != triv || res.Sets[1].NumVal != 1 {
					t.Fatalf("round %d: trivial set: %+v", round, res.Sets[1])
				}
			}
			wantError(t, roundTrip(t, r, w, &pdu.DescReq{PMID: broken}), pcp.ErrNoAgent)
			d = roundTrip(t, r, w, &pdu.DescReq{PMID: triv}).(*pdu.Desc)
			if d.Desc.PMID != triv {
				t.Errorf("trivial descriptor after the death: %+v", d.Desc)
			}
		})
	}
}

// TestRestartDead restarts an agent that died: its domain answers again
// until it dies again.
func TestRestartDead(t *testing.T) {
	t.Parallel()
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	env, err := exec.LookPath("env")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseConf(strings.NewReader(fmt.Sprintf("broken 251 pipe binary %s %s=dies %s\n", env, testAgentEnv, os.Args[0])), "test")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{PMNS: tree, Conf: c}
	host := serveOn(t, srv)
	_, r, w := dial(t, host)
	broken := pcp.NewPMID(251, 0, 0)
	for round := 0; round < 2; round++ {
		if d := roundTrip(t, r, w, &pdu.DescReq{PMID: broken}).(*pdu.Desc); d.Desc.PMID != broken {
			t.Fatalf("round %d: descriptor %+v", round, d.Desc)
		}
		res := roundTrip(t, r, w, &pdu.Fetch{PMIDs: []pcp.PMID{broken}}).(*pdu.Result)
		if res.Sets[0].NumVal != int32(pcp.ErrIPC) {
			t.Fatalf("round %d: fetch gave %+v", round, res.Sets[0])
		}
		wantError(t, roundTrip(t, r, w, &pdu.DescReq{PMID: broken}), pcp.ErrNoAgent)
		if n := srv.RestartDead(context.Background()); n != 1 {
			t.Fatalf("round %d: %d agents answer after the restart", round, n)
		}
	}
}

// agentStartWait is how long both pmcds of TestDyingAgentLikePCP wait
// for the agent to answer its first PDU.
const agentStartWait = 60 * time.Second

// TestDyingAgentLikePCP runs the agent that dies on a fetch under PCP's
// pmcd and under ours, with and without automatic restarts
// (PMCD_RESTART_AGENTS), and wants PCP's pminfo to print the same before,
// during and after its deaths.
func TestDyingAgentLikePCP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root_broken")
	if err := os.WriteFile(root, []byte("root {\n\tbroken\n}\nbroken {\n\tm\t251:0:0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env, err := exec.LookPath("env")
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{env, testAgentEnv + "=dies", os.Args[0]}
	tree, err := pmns.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	conf, err := ParseConf(strings.NewReader("broken 251 pipe binary "+strings.Join(argv, " ")+"\n"), "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
			setting := "PMCD_RESTART_AGENTS=0"
			if restart {
				setting = "PMCD_RESTART_AGENTS=1"
			}
			// Both wait as long for the agent's (re)start (pmcd -q): at
			// load 40 a -race test binary took more than PCP's default
			// 3 s to answer, and one pmcd restarted it while the other
			// gave up.
			bed := testbed.StartPMCD(t, testbed.Options{
				Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.PipeAgent("broken", 251, root, argv...)},
				Env:    []string{setting},
				Args:   []string{"-q", strconv.Itoa(int(agentStartWait / time.Second))},
			})
			ours := serveOn(t, &Server{PMNS: tree, Conf: conf, AutoRestart: restart, StartTimeout: agentStartWait})
			pminfo, err := bed.Install().Tool("pminfo")
			if err != nil {
				t.Fatal(err)
			}
			for _, args := range []string{"-d broken.m", "-f broken.m", "-f broken.m", "-d broken.m", "-T broken.m", "-m broken"} {
				want := runTool(t, pminfo, bed.Host(), args)
				got := runTool(t, pminfo, ours, args)
				if got != want {
					t.Errorf("pminfo %s: %s", args, firstDiff(want, got))
				}
			}
		})
	}
}

// TestAgentNotReady has an agent say it is busy, or start busy as
// pmcd.conf's "notready" says: its values are PM_ERR_AGAIN, without
// asking it, until it says it is ready.
func TestAgentNotReady(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"notready", "startsbusy"} {
		t.Run(mode, func(t *testing.T) { testNotReady(t, mode) })
	}
}

func testNotReady(t *testing.T, mode string) {
	release := filepath.Join(t.TempDir(), "released")
	_, r, w := dial(t, startBusyAgents(t, mode, 0, release))
	busy := pcp.NewPMID(251, 0, 0)
	fetch := func() int32 {
		return roundTrip(t, r, w, &pdu.Fetch{PMIDs: []pcp.PMID{busy}}).(*pdu.Result).Sets[0].NumVal
	}
	if got := fetch(); got != int32(pcp.ErrAgain) {
		t.Fatalf("first fetch: numval %d, want %d", got, pcp.ErrAgain)
	}
	wantError(t, roundTrip(t, r, w, &pdu.DescReq{PMID: busy}), pcp.ErrAgain)
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The agent's PM_ERR_PMDAREADY reaches pmcd when it will: wait for
	// it up to the test's own deadline.
	for fetch() != 1 {
		if d, ok := t.Deadline(); ok && time.Now().After(d.Add(-10*time.Second)) {
			t.Fatal("the agent never became ready")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
