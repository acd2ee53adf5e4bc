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
func init() {
	for _, e := range []struct{ entry, prefix string }{{"mmv_init", mmv.Prefix}, {"pmproxy_init", mmv.PMProxyPrefix}} {
		pmda.Register(e.entry, func(domain uint32) (*pmda.Agent, error) {
			tmp, _ := pcpconf.Get("PCP_TMP_DIR")
			return mmv.New(domain, mmv.Options{Dir: filepath.Join(tmp, e.prefix), Prefix: e.prefix, Log: log.Default()})
		})
	}
}
