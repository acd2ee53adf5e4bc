package all

import (
	"log"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/pmda"
)

func init() {
	pmda.Register("trivial_init", func(domain uint32) (*pmda.Agent, error) {
		return trivial.New(domain, log.Default())
	})
}
