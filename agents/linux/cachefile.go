package linux

import (
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// seedInstanceNumbers reads PCP's instance cache files for the agent's
// domain ($PCP_VAR_DIR/config/pmda/60.SERIAL, or Options.CacheDir), which
// PCP's own Linux agent writes, so that instances PCP's agent has numbered
// on this host keep their numbers under this agent too: an archive or a
// client that switches agents sees the same instance numbers. The files
// are only read; new instances are numbered after the highest one found.
func (x *Linux) seedInstanceNumbers(domain uint32, dir string) {
	for serial := range x.indoms {
		c := pmda.NewCache(pcp.NewInDom(domain, uint32(serial)))
		if dir != "" {
			c.SetDir(dir)
		}
		if n, err := c.Load(); err != nil || n == 0 {
			continue
		}
		c.ActivateAll()
		t := &x.indoms[serial]
		for _, in := range c.Active() {
			if t.ids == nil {
				t.ids = make(map[string]idName)
			}
			t.ids[in.Name] = idName{in.ID, in.Name}
			t.next = max(t.next, in.ID+1)
		}
	}
}
