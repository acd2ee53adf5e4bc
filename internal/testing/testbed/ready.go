package testbed

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// pollInterval spaces readiness probes while pmcd starts.
const pollInterval = 100 * time.Millisecond

// waitReady waits until pmcd answers a fetch of its version and reports
// every configured agent as running. pmcd listens before it has started
// its agents, so a bare TCP connect would prove nothing.
func (p *PMCD) waitReady(agents []Agent, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var last string
	for {
		if p.proc.exited() {
			return fmt.Errorf("testbed: pmcd exited during start-up: %v", p.proc.err)
		}
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		res := p.RunContext(ctx, nil, "pminfo", "-h", p.probeHost(), "-f", "pmcd.version", "pmcd.agent.status")
		cancel()
		if res.Err == nil {
			bad := notRunning(res.Stdout, agents)
			if len(bad) == 0 {
				return nil
			}
			last = "agents not running: " + strings.Join(bad, ", ") + "\n" + res.Stdout
			if gone := given(res.Stdout, agents); len(gone) > 0 {
				// pmcd tries an agent once: one that exited, failed its
				// start or was dropped stays so, and waiting on would
				// only hold the test to its deadline (a CI run waited
				// 35 minutes on an agent pmcd had given up on).
				return fmt.Errorf("testbed: pmcd on %s gave up on agents %s: %s", p.Host(), strings.Join(gone, ", "), last)
			}
		} else {
			last = res.Stderr
		}
		if time.Now().Add(pollInterval).After(deadline) {
			return fmt.Errorf("testbed: pmcd on %s not ready after %v: %s", p.Host(), timeout, last)
		}
		time.Sleep(pollInterval)
	}
}

// probeHost is where the start-up probe reaches pmcd.
func (p *PMCD) probeHost() string {
	switch p.readyHost {
	case "":
		return p.Host()
	case "unix:":
		return "unix:" + p.SocketPath()
	}
	return p.readyHost
}

// agentStatusLine matches one instance of pminfo -f pmcd.agent.status,
// e.g. `    inst [29 or "sample"] value 0`.
var agentStatusLine = regexp.MustCompile(`inst \[\d+ or "([^"]+)"\] value (-?\d+)`)

// notRunning lists the agents whose pmcd.agent.status is missing or not
// zero (zero meaning "connected and alive"), and the failing ones that
// are missing.
func notRunning(pminfo string, agents []Agent) []string {
	status := agentStatuses(pminfo)
	var bad []string
	for _, a := range agents {
		if a.failing {
			// Only listed: pmcd has tried it once it answers at all.
			if _, ok := status[a.Name]; !ok {
				bad = append(bad, a.Name)
			}
			continue
		}
		if s, ok := status[a.Name]; !ok || s != "0" {
			bad = append(bad, a.Name)
		}
	}
	return bad
}

// given lists the agents (not those expected to fail) whose
// pmcd.agent.status says pmcd has given up on them: exited (2), failed
// to start (4) or stopped after a protocol error or timeout (8), PCP's
// bits; 1 (connected, not yet ready) is still on its way.
func given(pminfo string, agents []Agent) []string {
	status := agentStatuses(pminfo)
	var gone []string
	for _, a := range agents {
		if v, err := strconv.Atoi(status[a.Name]); err == nil && !a.failing && v&(2|4|8) != 0 {
			gone = append(gone, a.Name)
		}
	}
	return gone
}

// agentStatuses is pminfo -f pmcd.agent.status's values by agent name.
func agentStatuses(pminfo string) map[string]string {
	status := make(map[string]string)
	for _, m := range agentStatusLine.FindAllStringSubmatch(pminfo, -1) {
		status[m[1]] = m[2]
	}
	return status
}
