package pmcd

import (
	"fmt"
	"os/exec"
)

// AgentProblem is an agent line of pmcd.conf that this pmcd cannot start,
// and why.
type AgentProblem struct {
	Agent  AgentConf
	Reason string
}

func (p AgentProblem) String() string {
	return fmt.Sprintf("pmcd config[line %d]: Warning: agent %q (domain %d) cannot be started: %s",
		p.Agent.Line, p.Agent.Name, p.Agent.Domain, p.Reason)
}

// CheckAgents lists the agents of c that cannot be started, as far as can
// be told without starting them: a dso line whose entry point no Go agent
// has (this pmcd loads no shared objects), a pipe line whose program, or a
// socket line whose optional program, cannot be found or run.
func CheckAgents(c *Conf) []AgentProblem {
	var out []AgentProblem
	for _, ac := range c.Agents {
		var reason string
		switch {
		case ac.Kind == AgentDSO && ac.Entry != pmcdEntry && lookupDSO(ac.Entry) == nil:
			reason = fmt.Sprintf("no Go agent has the DSO entry point %q (%s is not loaded)", ac.Entry, ac.Path)
		case ac.Kind != AgentDSO && len(ac.Argv) > 0:
			if _, err := exec.LookPath(ac.Argv[0]); err != nil {
				reason = err.Error()
			}
		}
		if reason != "" {
			out = append(out, AgentProblem{Agent: ac, Reason: reason})
		}
	}
	return out
}
