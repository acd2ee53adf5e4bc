package all

import (
	"log"
	"os"

	"github.com/gopcp/gopcp/agents/proc"
	"github.com/gopcp/gopcp/pmda"
)

func init() {
	pmda.Register("proc_init", func(domain uint32) (*pmda.Agent, error) {
		o := proc.OptionsFromEnv(os.Getenv)
		o.Log = log.Default()
		return proc.New(domain, o)
	})
}
