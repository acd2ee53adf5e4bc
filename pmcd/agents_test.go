package pmcd

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/internal/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/pmns"
)

// testAgentEnv makes the test binary a pipe agent (of domain 251, or
// testDomainEnv's) that misbehaves on a fetch as the variable's value
// says.
const (
	testAgentEnv  = "GOPCP_PMCD_TEST_AGENT"
	testDomainEnv = "GOPCP_PMCD_TEST_DOMAIN"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(testAgentEnv); mode != "" {
		os.Exit(runTestAgent(mode))
	}
	RegisterDSO("trivial_init", func(domain uint32) (*pmda.Agent, error) {
		return trivial.New(domain, nil)
	})
	for _, mode := range []string{"hangs", "panics"} {
		RegisterDSO("broken_"+mode+"_init", func(domain uint32) (*pmda.Agent, error) {
			return brokenAgent(domain, mode)
		})
	}
	os.Exit(m.Run())
}

// runTestAgent serves brokenAgent on stdin and stdout.
func runTestAgent(mode string) int {
	domain := uint32(251)
	if d, err := strconv.Atoi(os.Getenv(testDomainEnv)); err == nil {
		domain = uint32(d)
	}
	a, err := brokenAgent(domain, mode)
	if err != nil {
		log.Print(err)
		return 1
	}
	if mode == "startsbusy" {
		// Started with "notready" in pmcd.conf: ready after a while.
		time.AfterFunc(busyFor, func() {
			os.Stdout.Write((&pdu.Error{Code: int32(pcp.ErrPMDAReady)}).Append(nil, 0))
		})
	}
	if err := a.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		log.Print(err)
		return 1
	}
	return 0
}

// brokenAgent serves metric 0.0 of its domain. On a fetch it exits
// ("dies"), never answers ("hangs"), writes a PDU that lies about its
// length ("garbles"), panics ("panics") or answers after slowFetch
// ("slow").
func brokenAgent(domain uint32, mode string) (*pmda.Agent, error) {
	if mode == "notready" {
		return pmda.New(pmda.Config{
			Name:   "pmdabusy",
			Domain: domain,
			Metrics: []pmda.Metric{{Desc: pcp.Desc{PMID: pcp.NewPMID(domain, 0, 0), Type: pcp.Type32,
				InDom: pcp.InDomNull, Sem: pcp.SemInstant}}},
			Fetcher: &busyFetcher{},
		})
	}
	return pmda.New(pmda.Config{
		Name:   "pmdabroken",
		Domain: domain,
		Metrics: []pmda.Metric{{Desc: pcp.Desc{PMID: pcp.NewPMID(domain, 0, 0), Type: pcp.Type32,
			InDom: pcp.InDomNull, Sem: pcp.SemInstant}}},
		Fetcher: pmda.FetchFunc(func(context.Context, *pmda.Metric, int32) (pcp.Atom, error) {
			switch mode {
			case "dies":
				os.Exit(3)
			case "hangs":
				time.Sleep(time.Hour)
			case "slow":
				time.Sleep(slowFetch)
			case "panics":
				panic("broken agent")
			case "garbles":
				// A header whose length is shorter than a header.
				os.Stdout.Write([]byte{0, 0, 0, 4, 0, 0, 0x70, 0x01, 0, 0, 0, 0})
				time.Sleep(time.Hour)
			}
			return pcp.Atom{L: 7}, nil
		}),
	})
}

const agentsPMNS = `root {
	trivial
	broken
}
trivial {
	time	250:0:0
}
broken {
	m	251:0:0
}
`

// startAgents serves agentsPMNS with the in-process trivial agent and,
// when mode is set, the misbehaving pipe agent.
func startAgents(t *testing.T, mode string, timeout time.Duration) string {
	t.Helper()
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	conf := "trivial\t250\tdso\ttrivial_init\t/nonexistent/pmda_trivial.so\n"
	if dso, ok := strings.CutPrefix(mode, "dso-"); ok {
		conf += "broken 251 dso broken_" + dso + "_init /nonexistent/pmda_broken.so\n"
	} else if mode != "" {
		env, err := exec.LookPath("env")
		if err != nil {
			t.Fatal(err)
		}
		notready := ""
		if mode == "startsbusy" {
			notready = "notready "
		}
		conf += fmt.Sprintf("broken 251 pipe binary %s%s %s=%s %s\n", notready, env, testAgentEnv, mode, os.Args[0])
	}
	return startWithConf(t, tree, conf, timeout)
}

// TestInProcessTrivial has PCP's pminfo read trivial.time from our Go
// trivial agent running inside our pmcd through a dso line.
func TestInProcessTrivial(t *testing.T) {
	in := testbed.Need(t)
	pminfo, err := in.Tool("pminfo")
	if err != nil {
		t.Fatal(err)
	}
	host := startAgents(t, "", 0)
	before := time.Now().Unix()
	out := runTool(t, pminfo, host, "-f trivial.time")
	after := time.Now().Unix()
	m := regexp.MustCompile(`^\ntrivial.time\n    value (\d+)\nexit 0\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("pminfo -f trivial.time:\n%s", out)
	}
	if v, _ := strconv.ParseInt(m[1], 10, 64); v < before || v > after {
		t.Errorf("trivial.time = %d, not within [%d, %d]", v, before, after)
	}
	want := "\ntrivial.time\n    Data Type: 64-bit unsigned int  InDom: PM_INDOM_NULL 0xffffffff\n" +
		"    Semantics: counter  Units: sec\nHelp:\nThe current time as a count of whole seconds elapsed since\n" +
		"00:00:00 UTC on 1 January 1970, read from the host's clock at\neach fetch.\nexit 0\n"
	if got := runTool(t, pminfo, host, "-dT trivial.time"); got != want {
		t.Errorf("pminfo -dT trivial.time:\n%s\nwant\n%s", got, want)
	}
}

// TestBrokenAgent has a pipe agent die, hang or garble its reply, or an
// in-process agent hang or panic, in the middle of a fetch that also asks the in-process trivial agent: the
// broken domain answers PM_ERR_NOAGENT, then and afterwards, and the
// other domain answers throughout.
func TestBrokenAgent(t *testing.T) {
	// Only the hung agent needs the timeout; the others must be noticed
	// at once, well within theirs.
	// The fetch that finds the agent broken fails with PCP's code for
	// what happened; later requests get PM_ERR_NOAGENT.
	for _, tc := range []struct {
		mode    string
		timeout time.Duration
		first   pcp.Error
	}{{"dies", time.Minute, pcp.ErrIPC}, {"hangs", 500 * time.Millisecond, pcp.ErrTimeout},
		{"garbles", time.Minute, pcp.ErrIPC}, {"dso-hangs", 500 * time.Millisecond, pcp.ErrTimeout},
		{"dso-panics", time.Minute, pcp.ErrIPC}} {
		t.Run(tc.mode, func(t *testing.T) {
			_, r, w := dial(t, startAgents(t, tc.mode, tc.timeout))
			broken, triv := pcp.NewPMID(251, 0, 0), trivial.PMID
			d := roundTrip(t, r, w, &pdu.DescReq{PMID: broken}).(*pdu.Desc)
			if d.Desc.Type != pcp.Type32 {
				t.Fatalf("broken agent's descriptor before the fetch: %+v", d.Desc)
			}
			start := time.Now()
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
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("the broken agent took %v to notice", took)
			}
			wantError(t, roundTrip(t, r, w, &pdu.DescReq{PMID: broken}), pcp.ErrNoAgent)
			d = roundTrip(t, r, w, &pdu.DescReq{PMID: triv}).(*pdu.Desc)
			if d.Desc.PMID != triv {
				t.Errorf("trivial descriptor after the death: %+v", d.Desc)
			}
		})
	}
}

// slowFetch is how long a "slow" test agent takes over a fetch.
const slowFetch = time.Second

// TestFetchAsksAgentsAtOnce fetches from three slow agents in one
// request: they are asked concurrently, so the fetch takes about one
// agent's time, and the answers come back in the order asked.
func TestFetchAsksAgentsAtOnce(t *testing.T) {
	env, err := exec.LookPath("env")
	if err != nil {
		t.Fatal(err)
	}
	conf := ""
	for _, d := range []int{251, 252, 254} {
		conf += fmt.Sprintf("slow%d %d pipe binary %s %s=slow %s=%d %s\n", d, d, env, testAgentEnv, testDomainEnv, d, os.Args[0])
	}
	tree, err := pmns.Parse(strings.NewReader("root {\n}\n"), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, r, w := dial(t, startWithConf(t, tree, conf, 0))
	ids := []pcp.PMID{pcp.NewPMID(254, 0, 0), pcp.NewPMID(251, 0, 0), pcp.NewPMID(7, 0, 0),
		pcp.NewPMID(252, 0, 0), pcp.NewPMID(251, 0, 1)}
	start := time.Now()
	res := roundTrip(t, r, w, &pdu.Fetch{PMIDs: ids}).(*pdu.Result)
	took := time.Since(start)
	// One after another would take three times slowFetch.
	if took >= 2*slowFetch {
		t.Errorf("fetch took %v: agents asked one after another?", took)
	}
	want := []int32{1, 1, int32(pcp.ErrNoAgent), 1, int32(pcp.ErrPMID)}
	for i, s := range res.Sets {
		if s.PMID != ids[i] || s.NumVal != want[i] {
			t.Errorf("set %d: %v numval %d, want %v numval %d", i, s.PMID, s.NumVal, ids[i], want[i])
		}
	}
}

// TestRestartDead restarts an agent that died: its domain answers again
// until it dies again.
func TestRestartDead(t *testing.T) {
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

// TestStoreAcrossDomains checks the answer to stores split over domains:
// the agent's refusal, or PM_ERR_NOAGENT when a PMID has no agent.
func TestStoreAcrossDomains(t *testing.T) {
	_, r, w := dial(t, startAgents(t, "", 0))
	set := func(id pcp.PMID) pcp.ValueSet {
		return pcp.ValueSet{PMID: id, NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 1}}}
	}
	cases := []struct {
		ids  []pcp.PMID
		want pcp.Error
	}{
		{[]pcp.PMID{trivial.PMID}, pcp.ErrPermission},
		{[]pcp.PMID{pcp.NewPMID(7, 0, 0), trivial.PMID}, pcp.ErrNoAgent},
		{[]pcp.PMID{trivial.PMID, pcp.NewPMID(7, 0, 0)}, pcp.ErrNoAgent},
	}
	for _, c := range cases {
		req := &pdu.Result{}
		for _, id := range c.ids {
			req.Sets = append(req.Sets, set(id))
		}
		wantError(t, roundTrip(t, r, w, req), c.want)
	}
}

// TestDyingAgentLikePCP runs the agent that dies on a fetch under PCP's
// pmcd and under ours, with and without automatic restarts
// (PMCD_RESTART_AGENTS), and wants PCP's pminfo to print the same before,
// during and after its deaths.
func TestDyingAgentLikePCP(t *testing.T) {
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
			bed := testbed.StartPMCD(t, testbed.Options{
				Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.PipeAgent("broken", 251, root, argv...)},
				Env:    []string{setting},
			})
			ours := serveOn(t, &Server{PMNS: tree, Conf: conf, AutoRestart: restart})
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

// busyFetcher answers its first fetch with PM_ERR_PMDANOTREADY, as a
// PCP agent does when busy, and tells pmcd it is ready again after
// busyFor; later fetches are answered.
type busyFetcher struct{ fetches int }

const busyFor = time.Second

func (f *busyFetcher) Refresh(context.Context, []pcp.PMID) error {
	f.fetches++
	if f.fetches > 1 {
		return nil
	}
	time.AfterFunc(busyFor, func() {
		os.Stdout.Write((&pdu.Error{Code: int32(pcp.ErrPMDAReady)}).Append(nil, 0))
	})
	return pcp.ErrPMDANotReady
}

func (f *busyFetcher) Fetch(context.Context, *pmda.Metric, int32) (pcp.Atom, error) {
	return pcp.Atom{L: 7}, nil
}

// TestAgentNotReady has an agent say it is busy, or start busy as
// pmcd.conf's "notready" says: its values are PM_ERR_AGAIN, without
// asking it, until it says it is ready.
func TestAgentNotReady(t *testing.T) {
	for _, mode := range []string{"notready", "startsbusy"} {
		t.Run(mode, func(t *testing.T) { testNotReady(t, mode) })
	}
}

func testNotReady(t *testing.T, mode string) {
	_, r, w := dial(t, startAgents(t, mode, 0))
	busy := pcp.NewPMID(251, 0, 0)
	fetch := func() int32 {
		return roundTrip(t, r, w, &pdu.Fetch{PMIDs: []pcp.PMID{busy}}).(*pdu.Result).Sets[0].NumVal
	}
	if got := fetch(); got != int32(pcp.ErrAgain) {
		t.Fatalf("first fetch: numval %d, want %d", got, pcp.ErrAgain)
	}
	wantError(t, roundTrip(t, r, w, &pdu.DescReq{PMID: busy}), pcp.ErrAgain)
	deadline := time.Now().Add(10 * time.Second)
	for fetch() != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the agent never became ready")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
