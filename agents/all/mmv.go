package all

import (
	"log"
	"path/filepath"

	"github.com/gopcp/gopcp/agents/mmv"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pmda"
)

// PCP's pmcd.conf loads pmdammv twice: mmv_init for $PCP_TMP_DIR/mmv and
// pmproxy_init for pmproxy's own files in $PCP_TMP_DIR/pmproxy.
// newMMV builds the agent for mmv_init.
func newMMV(domain uint32) (*pmda.Agent, error) { return newMMVAt(domain, mmv.Prefix) }

// newPMProxyMMV builds the agent for pmproxy_init.
func newPMProxyMMV(domain uint32) (*pmda.Agent, error) { return newMMVAt(domain, mmv.PMProxyPrefix) }

func newMMVAt(domain uint32, prefix string) (*pmda.Agent, error) {
	tmp, _ := pcpconf.Get("PCP_TMP_DIR")
	return mmv.New(domain, mmv.Options{Dir: filepath.Join(tmp, prefix), Prefix: prefix, Log: log.Default()})
}
