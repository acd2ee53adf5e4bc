package all

import (
	"log"

	"github.com/gopcp/gopcp/agents/linux"
	"github.com/gopcp/gopcp/pmda"
)

func init() {
	pmda.Register("linux_init", func(domain uint32) (*pmda.Agent, error) {
		return linux.New(domain, linux.Options{Log: log.Default()})
	})
}
