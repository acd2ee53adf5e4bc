package all

import (
	"log"

	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/pmda"
)

func init() {
	pmda.Register("sample_init", func(domain uint32) (*pmda.Agent, error) {
		return sample.New(domain, sample.Options{DSO: true, Log: log.Default()})
	})
}
