package all

import (
	"log"
	"os"

	"github.com/gopcp/gopcp/agents/linux"
	"github.com/gopcp/gopcp/pmda"
)

// newLinux builds the agent for linux_init.
func newLinux(domain uint32) (*pmda.Agent, error) {
	// This registration is the edge of an in-process agent, where
	// pmcd's environment is read as PCP's agent reads its own.
	o := linux.EnvOptions(os.Getenv)
	o.Log = log.Default()
	return linux.New(domain, o)
}
