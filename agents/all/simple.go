package all

import (
	"log"

	"github.com/gopcp/gopcp/agents/simple"
	"github.com/gopcp/gopcp/pmda"
)

// newSimple builds the agent for simple_init.
func newSimple(domain uint32) (*pmda.Agent, error) {
	return simple.New(domain, simple.Options{Name: "simple DSO", Log: log.Default()})
}
