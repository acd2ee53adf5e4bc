package pmcd

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/internal/testing/testbed"
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
	testReplyEnv  = "GOPCP_PMCD_TEST_REPLY" // the file a "replies" agent answers a fetch with
	// The file whose creation tells a "notready" or "startsbusy" agent
	// to say it is ready: the test decides when, not a timer.
	testReleaseEnv = "GOPCP_PMCD_TEST_RELEASE"
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
	RegisterDSO("broken_closehangs_init", func(domain uint32) (*pmda.Agent, error) {
		a, err := brokenAgent(domain, "closehangs")
		if err == nil {
			// The channel of the test that made this agent.
			hang := closeHangs
			a.OnClose(func() error {
				<-hang
				return nil
			})
		}
		return a, err
	})
	// The live tests spend their time waiting for daemons and PCP's
	// tools, not computing: unless -parallel says otherwise, run more of
	// them at once than there are CPUs.
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "8")
	}
	code := m.Run()
	testbed.RemoveBuilt()
	os.Exit(code)
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
		// Started with "notready" in pmcd.conf: ready once released.
		go sayReadyWhenReleased()
	}
	if err := a.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		log.Print(err)
		return 1
	}
	return 0
}

// brokenAgent serves metric 0.0 of its domain. On a fetch it exits
// ("dies"), never answers ("hangs"), writes a PDU that lies about its
// length ("garbles"), panics ("panics"), answers only once the agents
// sharing its meeting place have all been asked ("meets", see meet), or
// writes what a file holds and exits ("replies").
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
			case "slowthenhangs":
				// The first fetch is answered late, so that others
				// queue meanwhile; the next one hangs.
				if slowThenHangs.Add(1) == 1 {
					time.Sleep(300 * time.Millisecond)
				} else {
					time.Sleep(time.Hour)
				}
			case "meets":
				if err := meet(strconv.Itoa(int(domain))); err != nil {
					return pcp.Atom{}, err
				}
			case "panics":
				panic("broken agent")
			case "garbles":
				// A header whose length is shorter than a header.
				os.Stdout.Write([]byte{0, 0, 0, 4, 0, 0, 0x70, 0x01, 0, 0, 0, 0})
				time.Sleep(time.Hour)
			case "replies":
				// Whatever bytes the test put in the file, in place
				// of the answer; then the end.
				b, _ := os.ReadFile(os.Getenv(testReplyEnv))
				os.Stdout.Write(b)
				os.Exit(0)
			}
			return pcp.Atom{L: 7}, nil
		}),
	})
}

// slowThenHangs counts the fetches of a "slowthenhangs" agent.
var slowThenHangs atomic.Int32

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
	return startBusyAgents(t, mode, timeout, "")
}

// startBusyAgents is startAgents with the file whose creation releases
// a "notready" or "startsbusy" agent (see sayReadyWhenReleased).
func startBusyAgents(t *testing.T, mode string, timeout time.Duration, release string) string {
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
		if release != "" {
			release = fmt.Sprintf(" %s=%s", testReleaseEnv, release)
		}
		conf += fmt.Sprintf("broken 251 pipe binary %s%s %s=%s%s %s\n", notready, env, testAgentEnv, mode, release, os.Args[0])
	}
	return startWithConf(t, tree, conf, timeout)
}

// The meeting place of "meets" agents: a directory, and how many agents
// meet there.
const (
	testMeetDirEnv = "GOPCP_PMCD_TEST_MEET_DIR"
	testMeetNEnv   = "GOPCP_PMCD_TEST_MEET_N"
)

// meetWait bounds how long a "meets" agent waits for the others. It only
// matters when they never come (pmcd asks one agent at a time), which
// fails the test however long it is; it is kept within roundTrip's limit
// so that the failure reads PM_ERR_AGAIN rather than a timeout.
const meetWait = 5 * time.Second

// meet marks the agent named arrived at the meeting place and waits until
// all of the agents have, or fails with PM_ERR_AGAIN after meetWait: a
// fetch that needs several agents to be asked at once to succeed, which
// proves that they were without timing anything.
func meet(name string) error {
	dir := os.Getenv(testMeetDirEnv)
	n, err := strconv.Atoi(os.Getenv(testMeetNEnv))
	if dir == "" || err != nil {
		return fmt.Errorf("meets agent without %s and %s", testMeetDirEnv, testMeetNEnv)
	}
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
		return err
	}
	deadline := time.Now().Add(meetWait)
	for {
		arrived, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		if len(arrived) >= n {
			return nil
		}
		if time.Now().After(deadline) {
			return pcp.ErrAgain
		}
		time.Sleep(10 * time.Millisecond) // polling the directory
	}
}

// busyFetcher answers its first fetch with PM_ERR_PMDANOTREADY, as a
// PCP agent does when busy, and tells pmcd it is ready again once the
// test releases it (sayReadyWhenReleased); later fetches are answered.
type busyFetcher struct{ fetches int }

func (f *busyFetcher) Refresh(context.Context, []pcp.PMID) error {
	f.fetches++
	if f.fetches > 1 {
		return nil
	}
	go sayReadyWhenReleased()
	return pcp.ErrPMDANotReady
}

// releaseWait bounds how long a busy agent waits for its release: far
// longer than any test, so that only a test that never releases it
// (and fails for that) meets the bound.
const releaseWait = 10 * time.Minute

// sayReadyWhenReleased sends PM_ERR_PMDAREADY once the file testReleaseEnv
// names exists. Polling a file keeps the agent a plain child of pmcd,
// which has no other way to hear from the test.
func sayReadyWhenReleased() {
	path := os.Getenv(testReleaseEnv)
	if path == "" {
		log.Printf("busy agent without %s", testReleaseEnv)
		return
	}
	for deadline := time.Now().Add(releaseWait); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			os.Stdout.Write((&pdu.Error{Code: int32(pcp.ErrPMDAReady)}).Append(nil, 0))
			return
		}
	}
}

func (f *busyFetcher) Fetch(context.Context, *pmda.Metric, int32) (pcp.Atom, error) {
	return pcp.Atom{L: 7}, nil
}

// closeHangs holds the Close of a "closehangs" in-process agent until the
// test that uses it releases it; each such test makes its own before it
// starts a server.
var closeHangs chan struct{}
