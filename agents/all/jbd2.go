package all

import (
	"log"

	"github.com/gopcp/gopcp/agents/jbd2"
	"github.com/gopcp/gopcp/pmda"
)

// newJBD2 builds the agent for jbd2_init. PCP's shared object has no
// option: it reads /proc/fs/jbd2 and keeps its instance cache where PCP's
// agents keep theirs.
func newJBD2(domain uint32) (*pmda.Agent, error) {
	return jbd2.New(domain, jbd2.Options{Name: jbd2.DSOName, Log: log.Default()})
}
