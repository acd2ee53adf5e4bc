package proc

import (
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// hotproc is the hot process list: every refresh interval (10 seconds
// unless stored otherwise) the agent reads every process's stat,
// status, io and schedstat, computes its rates over the interval and
// keeps those its predicate selects. PCP's agent does this on a timer;
// this agent does it when a hotproc metric is fetched and an interval
// has passed since the last evaluation (or since the predicate was set,
// so that, as in PCP, a new predicate's first list comes an interval
// later), which gives the same rates at no cost while nobody asks.
type hotproc struct {
	p        *Proc
	path     string // the configuration file
	tree     *predNode
	config   string // the predicate as PCP's agent writes it back
	gen      uint32
	interval uint32
	now      func() time.Time

	poss   *table // every process, as read by the last evaluation
	pids   []int32
	last   time.Time // the last evaluation, or when the predicate was set
	evals  uint32
	nodes  [2]map[int32]*hotNode
	cur    int
	active map[int32]bool

	idle      [2]uint64
	refreshed [2]float64
	haveTotal bool
	totals    [4]float64 // transient, idle, active, inactive
}

// hotNode is one process at one evaluation.
type hotNode struct {
	stamp, cputime float64
	vctx, ictx     uint64
	bread, bwrit   uint64
	bwtime, qwtime uint64
	cpuburn        float32
	vars           predVars
}

// init reads the configuration file, as PCP's agent does at start.
func (h *hotproc) init(p *Proc, path string) {
	h.p = p
	h.path = path
	h.interval = 10
	h.now = time.Now
	h.poss = newTable()
	h.nodes = [2]map[int32]*hotNode{{}, {}}
	h.active = map[int32]bool{}
	h.load()
}

// load reads the configuration file: one that others may write is
// ignored, as by PCP's agent.
func (h *hotproc) load() {
	if h.path == "" {
		return
	}
	f, err := os.Open(h.path)
	if err != nil {
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Mode().Perm()&0o002 != 0 {
		h.p.log.Printf("proc: hotproc configuration %s: not read (writable by others, or %v)", h.path, err)
		return
	}
	b := make([]byte, min(st.Size(), maxPredicate+1))
	n, _ := f.Read(b)
	if h.setPredicate(string(b[:n])) == 1 {
		h.gen = 1
		h.last = h.now()
	}
}

// setPredicate parses text: 1 for a predicate, 0 for an empty one (the
// list then stops), -1 for an error (nothing changes).
func (h *hotproc) setPredicate(text string) int {
	tree, err := parsePredicate(text)
	if err != nil {
		h.p.log.Printf("proc: hotproc predicate: %v", err)
		return -1
	}
	if tree == nil {
		h.tree, h.config = nil, ""
		return 0
	}
	var b strings.Builder
	dumpPredicate(&b, tree)
	h.tree, h.config = tree, b.String()
	return 1
}

// disable empties the list and stops evaluating.
func (h *hotproc) disable() {
	clear(h.active)
	h.gen = 0
}

// refresh brings the hot list up to date for a request: the processes
// of the last evaluation's list still alive.
func (h *hotproc) refresh(cs *clientState) {
	p := h.p
	var hot []int32
	if h.gen > 0 && len(h.active) > 0 {
		threads := p.threadsFor(cs)
		var err error
		if h.pids, err = p.r.list(h.pids, false); err == nil {
			for _, pid := range h.pids {
				if h.active[pid] {
					hot = append(hot, pid)
				}
			}
		}
		if threads {
			hot = p.r.addThreads(hot)
		}
	}
	p.hot.refresh(&p.r, hot, p.threadsFor(cs))
}

// maybeEval evaluates the predicate when an interval has passed; it runs
// as the agent, whatever the client.
func (h *hotproc) maybeEval() {
	if h.gen == 0 || h.tree == nil {
		return
	}
	now := h.now()
	if now.Sub(h.last) < time.Duration(h.interval)*time.Second {
		return
	}
	h.last = now
	h.eval(now)
}

// eval is one evaluation, as PCP's agent's timer makes it.
func (h *hotproc) eval(now time.Time) {
	p := h.p
	h.cur ^= 1
	cur, prev := h.nodes[h.cur], h.nodes[h.cur^1]
	clear(cur)
	clear(h.active)
	var err error
	if h.pids, err = p.r.list(h.pids, false); err != nil {
		return
	}
	h.poss.refresh(&p.r, h.pids, false)
	// PCP's agent takes whole seconds here.
	stamp := float64(now.Unix())
	var total, active, inactive float64
	for _, pid := range h.pids {
		e := h.poss.byPID[pid]
		for _, f := range [...]file{fStat, fStatus, fIO, fSchedstat} {
			p.r.load(e, f, false)
		}
		if e.ok&(1<<fStat) == 0 || e.ok&(1<<fStatus) == 0 {
			continue
		}
		n := &hotNode{stamp: stamp}
		n.cputime = float64(e.stat.v[sUtime]+e.stat.v[sStime]) / float64(p.hz)
		n.vctx, n.ictx = uint64(e.status.u[stVctxsw]), uint64(e.status.u[stNvctxsw])
		if e.ok&(1<<fIO) != 0 {
			n.bread, n.bwrit = e.io[4], e.io[5]
		}
		n.bwtime = uint64(float64(e.stat.v[sDelayacct]) / float64(p.hz))
		if e.ok&(1<<fSchedstat) != 0 {
			n.qwtime = e.sched[1]
		}
		v := &n.vars
		var cpuDelta float64
		if o := prev[pid]; o != nil {
			cpuDelta = diffCounter(n.cputime, o.cputime)
			dt := diffCounter(n.stamp, o.stamp)
			n.cpuburn = float32(cpuDelta / dt)
			v.cpuburn = float64(n.cpuburn)
			v.iodemand = (diffCounter(float64(n.bread), float64(o.bread)) + diffCounter(float64(n.bwrit), float64(o.bwrit))) / dt
			v.ctxswitch = (diffCounter(float64(n.vctx), float64(o.vctx)) + diffCounter(float64(n.ictx), float64(o.ictx))) / dt
			v.iowait = diffCounter(float64(n.bwtime), float64(o.bwtime)) / dt
			v.schedwait = diffCounter(float64(n.qwtime), float64(o.qwtime)) / (dt * 1e9)
		}
		total += cpuDelta
		v.fname = e.stat.cmd
		if strings.HasPrefix(v.fname, "(") {
			v.fname = strings.TrimSuffix(v.fname[1:], ")")
		}
		if len(v.fname) > 255 {
			v.fname = v.fname[:255]
		}
		// PCP takes the arguments seven bytes into "%06d args".
		full := pidPrefix(pid) + e.psargs
		v.psargs = ""
		if len(full) > 7 {
			v.psargs = full[7:]
		}
		if len(v.psargs) > 255 {
			v.psargs = v.psargs[:255]
		}
		v.uid, v.gid = e.status.u[stUID], e.status.u[stGID]
		v.uname, v.gname = truncate(p.userName(v.uid), 63), truncate(p.groupName(v.gid), 63)
		v.virtualsize = float64(e.stat.v[sVsize] / 1024)
		v.residentsize = float64(e.stat.v[sRSS] * p.pageSize / 1024)
		cur[pid] = n
		if evalPredicate(h.tree, v) {
			h.active[pid] = true
			active += cpuDelta
		} else {
			inactive += cpuDelta
		}
	}
	h.refreshed[h.cur] = float64(h.now().Unix())
	h.idle[h.cur] = h.idleTicks()
	h.evals++
	if h.evals > 1 {
		cpus := float64(numCPUs(p.r.root))
		idle := diffCounter(float64(h.idle[h.cur]), float64(h.idle[h.cur^1])) / 100
		actual := diffCounter(h.refreshed[h.cur], h.refreshed[h.cur^1])
		transient := cpus*actual - (total + idle)
		if transient < 0 {
			transient = 0
		}
		h.haveTotal = true
		h.totals = [4]float64{transient / actual, idle / actual, active / actual, inactive / actual}
	}
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// pidPrefix is "%06d ".
func pidPrefix(pid int32) string {
	s := strconv.Itoa(int(pid))
	if len(s) < 6 {
		s = strings.Repeat("0", 6-len(s)) + s
	}
	return s + " "
}

// diffCounter is a counter's increase, a 64-bit wrap allowed for.
func diffCounter(now, before float64) float64 {
	d := now - before
	if d < 0 {
		d += math.MaxUint64 + 1.0
	}
	return d
}

// idleTicks is the idle time of /proc/stat's cpu line.
func (h *hotproc) idleTicks() uint64 {
	b, err := os.ReadFile(h.p.r.root + "/proc/stat")
	if err != nil || !strings.HasPrefix(string(b), "cpu ") {
		return 0
	}
	f := strings.Fields(string(b[:min(len(b), 512)]))
	if len(f) < 5 {
		return 0
	}
	v, _ := strconv.ParseUint(f[4], 10, 64)
	return v
}

// numCPUs counts the cpuN lines of /proc/stat (the online CPUs).
func numCPUs(root string) int {
	b, err := os.ReadFile(root + "/proc/stat")
	if err != nil {
		return 1
	}
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "cpu") && len(l) > 3 && l[3] >= '0' && l[3] <= '9' {
			n++
		}
	}
	return max(n, 1)
}

// global answers hotproc.control.* and hotproc.total.*.
func (h *hotproc) global(item uint32, a *pcp.Atom) int32 {
	t := func(v float64) {
		a.F = 0
		if h.haveTotal {
			a.F = float32(v)
		}
	}
	switch item {
	case 1:
		a.UL = h.interval
	case 8:
		a.CP = h.config
	case 9:
		a.UL = h.gen
	case 10:
		a.UL = 0
	case 2, 3, 4, 5: // cpuidle, cpuburn (active), cpuother.transient and .not_cpuburn (inactive)
		t(h.totals[[...]int{2: 1, 3: 2, 4: 0, 5: 3}[item]])
	case 6:
		t(h.totals[3] + h.totals[0])
	case 7:
		other := h.totals[0] + h.totals[3]
		a.F = 0
		if h.haveTotal && other+h.totals[2] != 0 {
			a.F = float32(other / (other + h.totals[2]) * 100)
		}
	default:
		return int32(pcp.ErrPMID)
	}
	return haveValue
}

// fetchPred answers hotproc.predicate.* for the hot processes (served to
// every client, as PCP's agent serves them).
func (h *hotproc) fetchPred(item uint32, pv pmda.ProfileView, indom pcp.InDom, typ pcp.Type, add func(int32, pcp.Type, *pcp.Atom) error) error {
	if item < 1 || item > 7 {
		return pcp.ErrPMID
	}
	var last error
	n := 0
	a := &h.p.atom // the agent's, under p.state: a local escapes through add
	for _, pid := range h.p.hot.pids {
		if !pv.Selects(indom, pid) {
			continue
		}
		node := h.nodes[h.cur][pid]
		if !h.active[pid] || node == nil {
			last = pcp.ErrInst
			continue
		}
		last = nil
		*a = pcp.Atom{}
		v := &node.vars
		switch item {
		case 1:
			a.F = float32(v.ctxswitch)
		case 2:
			a.UL = uint32(v.virtualsize)
		case 3:
			a.UL = uint32(v.residentsize)
		case 4:
			a.F = float32(v.iodemand)
		case 5:
			a.F = float32(v.iowait)
		case 6:
			a.F = float32(v.schedwait)
		case 7:
			a.F = node.cpuburn
		}
		if err := add(pid, typ, a); err != nil {
			return err
		}
		n++
	}
	if n == 0 && last != nil {
		return last
	}
	return nil
}

// store changes hotproc's settings (root clients only, checked by the
// caller).
func (h *hotproc) store(item uint32, set *pcp.ValueSet) error {
	switch item {
	case 1:
		v, err := u32Of(set)
		if err != nil {
			return err
		}
		h.interval = v
		if h.gen > 0 {
			// PCP's agent starts its timer again.
			h.last = h.now()
		}
		return nil
	case 8:
		s, err := stringOf(set)
		if err != nil {
			return err
		}
		switch h.setPredicate(s) {
		case -1:
			return pcp.ErrBadStore
		case 0:
			h.disable()
		default:
			h.gen++
			if h.gen == 1 {
				h.last = h.now()
			}
		}
		return nil
	case 10:
		if _, err := u32Of(set); err != nil {
			return err
		}
		h.load()
		return nil
	}
	return pcp.ErrPermission
}
