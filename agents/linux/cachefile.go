package linux

import (
	"log"
	"os"
	"path/filepath"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// savedInDoms are the instance domains whose cache files PCP's agent
// writes: those of devices and objects that come and go (disks and their
// kin, interfaces and their addresses, interrupt lines, slab caches,
// zones, SCSI devices, System V IPC objects). The others it only reads.
var savedInDoms = [...]int{
	diskInDom, partitionsInDom, zramInDom, dmInDom, mdInDom, wwidInDom,
	netDevInDom, netAddrInDom, interruptInDom, intrCPUInDom, softirqInDom,
	softirqCPUInDom, slabInDom, zoneInDom, scsiInDom,
	ipcShmInDom, ipcMsgInDom, ipcSemInDom,
}

// seedInstanceNumbers reads PCP's instance cache files for the agent's
// domain ($PCP_VAR_DIR/config/pmda/60.SERIAL, or Options.CacheDir), so
// that instances PCP's agent has numbered on this host keep their numbers
// under this agent too: an archive or a client that switches agents sees
// the same instance numbers. For the domains in savedInDoms the agent
// keeps the cache: new instances are numbered by it, as PCP's agent
// numbers them, and the file is rewritten when one is added. A domain's
// file is read when its table is first used (indomTable.use), not at
// start: a local context's companion builds the agent at every start of
// a tool and most of them list none of the 43 domains.
func (x *Linux) seedInstanceNumbers(domain uint32, dir string) {
	for serial := range x.indoms {
		x.indoms[serial].seed = func(t *indomTable) { x.seedInDom(t, domain, dir, serial) }
	}
}

// seedInDom reads the cache file of one instance domain into its table.
func (x *Linux) seedInDom(t *indomTable, domain uint32, dir string, serial int) {
	c := pmda.NewCache(pcp.NewInDom(domain, uint32(serial)))
	if dir != "" {
		c.SetDir(dir)
	}
	n, err := c.Load()
	if err == nil && n > 0 {
		c.ActivateAll()
		for _, in := range c.Active() {
			if t.ids == nil {
				t.ids = make(map[string]idName)
			}
			t.ids[in.Name] = idName{in.ID, in.Name}
			t.next = max(t.next, in.ID+1)
		}
	}
	for _, s := range savedInDoms {
		if s == serial {
			t.cache = &instanceCache{Cache: c, log: x.log}
		}
	}
}

// instanceCache is a pmda.Cache an indomTable numbers new instances by
// and saves when it has added some.
type instanceCache struct {
	*pmda.Cache
	log    *log.Logger
	added  bool
	warned bool
}

// number returns the cache's number for a new name, or false when the
// cache cannot give one (the table numbers it then).
func (c *instanceCache) number(name string) (int32, bool) {
	id, err := c.Add(name, nil)
	if err != nil {
		return 0, false
	}
	c.added = true
	return id, true
}

// save writes the cache file after a refresh that added instances. The
// file is given the owner of its directory, so that PCP's agent, which
// runs as that user, can still rewrite it after this one ran as root.
func (c *instanceCache) save() {
	if !c.added {
		return
	}
	c.added = false
	if _, err := c.Save(); err != nil {
		if !c.warned {
			c.log.Printf("instance cache %v: %v", c.InDom(), err)
			c.warned = true
		}
		return
	}
	path := c.Path()
	if os.Geteuid() != 0 {
		return
	}
	if fi, err := os.Stat(filepath.Dir(path)); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid != 0 {
			os.Chown(path, int(st.Uid), int(st.Gid))
		}
	}
}
