package all

import (
	"log"

	"github.com/gopcp/gopcp/agents/proc"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pmda"
)

// newProc builds the agent for proc_init.
func newProc(domain uint32) (*pmda.Agent, error) {
	o := proc.OptionsFromEnv(func(name string) string {
		v, _ := pcpconf.Get(name)
		return v
	})
	o.Log = log.Default()
	return proc.New(domain, o)
}
