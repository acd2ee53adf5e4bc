package all

import (
	"log"

	"github.com/gopcp/gopcp/agents/simple"
	"github.com/gopcp/gopcp/pmda"
)

func init() {
	pmda.Register("simple_init", func(domain uint32) (*pmda.Agent, error) {
		return simple.New(domain, simple.Options{Name: "simple DSO", Log: log.Default()})
	})
}
