package all

import (
	"log"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/pmda"
)

// newTrivial builds the agent for trivial_init.
func newTrivial(domain uint32) (*pmda.Agent, error) {
	return trivial.New(domain, log.Default())
}
