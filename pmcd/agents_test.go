package pmcd

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
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

// TestInProcessTrivial has PCP's pminfo read trivial.time from our Go
// trivial agent running inside our pmcd through a dso line.
func TestInProcessTrivial(t *testing.T) {
	t.Parallel()
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

// TestFetchAsksAgentsAtOnce fetches from three agents in one request that
// each answer only once all three have been asked (see meet): pmcd asks
// them concurrently, and the answers come back in the order asked.
func TestFetchAsksAgentsAtOnce(t *testing.T) {
	t.Parallel()
	env, err := exec.LookPath("env")
	if err != nil {
		t.Fatal(err)
	}
	meeting := t.TempDir()
	conf := ""
	for _, d := range []int{251, 252, 254} {
		conf += fmt.Sprintf("meets%d %d pipe binary %s %s=meets %s=%d %s=%s %s=3 %s\n", d, d, env,
			testAgentEnv, testDomainEnv, d, testMeetDirEnv, meeting, testMeetNEnv, os.Args[0])
	}
	tree, err := pmns.Parse(strings.NewReader("root {\n}\n"), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// pmcd's wait for an agent outlasts the agents' wait for each other,
	// so agents asked one after another fail with PM_ERR_AGAIN.
	_, r, w := dial(t, startWithConf(t, tree, conf, 2*meetWait))
	ids := []pcp.PMID{pcp.NewPMID(254, 0, 0), pcp.NewPMID(251, 0, 0), pcp.NewPMID(7, 0, 0),
		pcp.NewPMID(252, 0, 0), pcp.NewPMID(251, 0, 1)}
	res := roundTrip(t, r, w, &pdu.Fetch{PMIDs: ids}).(*pdu.Result)
	want := []int32{1, 1, int32(pcp.ErrNoAgent), 1, int32(pcp.ErrPMID)}
	for i, s := range res.Sets {
		if s.PMID != ids[i] || s.NumVal != want[i] {
			t.Errorf("set %d: %v numval %d, want %v numval %d", i, s.PMID, s.NumVal, ids[i], want[i])
		}
	}
}

// TestStoreAcrossDomains checks the answer to stores split over domains:
// the agent's refusal, or PM_ERR_NOAGENT when a PMID has no agent.
func TestStoreAcrossDomains(t *testing.T) {
	t.Parallel()
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
