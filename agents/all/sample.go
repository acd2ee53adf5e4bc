package all

import (
	"log"

	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/pmda"
)

// newSample builds the agent for sample_init.
func newSample(domain uint32) (*pmda.Agent, error) {
	return sample.New(domain, sample.Options{DSO: true, Log: log.Default()})
}
