package pmcd

import (
	"context"
	"log"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/hostlabels"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// pmcdVersion and pmcdBuild are the PCP version and build this pmcd
// reports, those whose behaviour it follows.
const (
	pmcdVersion = "6.0.3"
	pmcdBuild   = "1"
)

// pmcdAgent serves pmcd.* from the Server's state. It is safe for
// concurrent use.
type pmcdAgent struct {
	s   Server
	ctl *Controls

	mu  sync.Mutex
	cpu map[pmda.Client]cpuMark // per client, for cputime.per_pdu_in

	hostCache hostCache

	// atom holds the value being handed to FetchSet's add, which keeps
	// no reference to it: a pointer to a local would escape at every
	// value. The pmda.Agent serialises fetches, so one will do.
	atom pcp.Atom
}

// cpuMark is where a client's last fetch of cputime.per_pdu_in left off.
type cpuMark struct {
	cpuMS float64
	pdus  uint64
}

// New builds pmcd's agent for domain (2 in PCP's pmcd.conf), serving
// pmcd.* from s; log is where pmda.Agent writes.
func New(domain uint32, s Server, log *log.Logger) (*pmda.Agent, error) {
	ms, indoms := Table()
	return pmda.New(pmda.Config{
		Name:    "pmcd",
		Domain:  domain,
		Metrics: ms,
		InDoms:  indoms,
		Fetcher: &pmcdAgent{s: s, ctl: s.Controls(), cpu: map[pmda.Client]cpuMark{}},
		Log:     log,
		// PCP's pmcd agent declares interface 6 (no label callbacks).
		Interface: 6,
	})
}

// Fetch is not used: FetchSet answers every fetch.
func (p *pmcdAgent) Fetch(context.Context, *pmda.Metric, int32) (pcp.Atom, error) {
	return pcp.Atom{}, pcp.ErrPMID
}

// EndContext forgets a client's cputime mark.
func (p *pmcdAgent) EndContext(c pmda.Client) {
	p.mu.Lock()
	delete(p.cpu, c)
	p.mu.Unlock()
}

// Instances lists the instance domains whose members come and go.
func (p *pmcdAgent) Instances(_ context.Context, _ pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	switch indom.Serial() {
	case pmcdInDomRegister:
		out := make([]pmda.Instance, NumRegisters)
		for i := range out {
			out[i] = pmda.Instance{ID: int32(i), Name: strconv.Itoa(i)}
		}
		return out, nil
	case pmcdInDomBufs:
		return bufInstances, nil
	case pmcdInDomAgents:
		var out []pmda.Instance
		for _, a := range p.s.Agents(false) {
			out = append(out, pmda.Instance{ID: int32(a.Domain()), Name: a.Name()})
		}
		return out, nil
	case pmcdInDomClients:
		var out []pmda.Instance
		for _, c := range p.s.Clients() {
			out = append(out, pmda.Instance{ID: c.Seq(), Name: strconv.Itoa(int(c.Seq()))})
		}
		return out, nil
	case pmcdInDomLoggers:
		var out []pmda.Instance
		for _, l := range findLoggers() {
			out = append(out, pmda.Instance{ID: l.pid, Name: l.name})
		}
		return out, nil
	case pmcdInDomPmies:
		var out []pmda.Instance
		for _, e := range findPmies() {
			out = append(out, pmda.Instance{ID: e.pid, Name: e.name})
		}
		return out, nil
	}
	return nil, pcp.ErrInDom
}

// FetchSet builds every value set of pmcd's agent.
func (p *pmcdAgent) FetchSet(_ context.Context, c pmda.Client, pmid pcp.PMID, pv pmda.ProfileView, add func(inst int32, t pcp.Type, a *pcp.Atom) error) error {
	one := func(t pcp.Type, a pcp.Atom) error {
		p.atom = a
		return add(pcp.InstNull, t, &p.atom)
	}
	ctl := p.ctl
	switch pmid.Cluster() {
	case 0:
		return p.fetchGlobal(c, pmid, pv, add, one)
	case 1, 2:
		counts := &ctl.PDUIn
		if pmid.Cluster() == 2 {
			counts = &ctl.PDUOut
		}
		item := pmid.Item()
		var n uint64
		switch {
		case item == 16:
			for i := range counts {
				n += counts[i].Load()
			}
		case item < 16 && item != 11:
			n = counts[item].Load()
		case item > 16 && item <= 24:
			n = counts[item-1].Load()
		default:
			return pcp.ErrPMID
		}
		return one(pcp.TypeU32, pcp.Atom{UL: uint32(n)})
	case 3:
		indom := pcp.NewInDom(pmid.Domain(), pmcdInDomLoggers)
		host := p.hostname()
		for _, l := range findLoggers() {
			if !pv.Selects(indom, l.pid) {
				continue
			}
			var a pcp.Atom
			t := pcp.TypeString
			switch pmid.Item() {
			case 0:
				a.UL, t = uint32(l.port), pcp.TypeU32
			case 1:
				a.CP = l.pmcdHost
			case 2:
				a.CP = l.archive
			case 3:
				a.CP = host
			default:
				return pcp.ErrPMID
			}
			if err := add(l.pid, t, &a); err != nil {
				return err
			}
		}
		return nil
	case 4:
		return p.fetchAgents(pmid, pv, add)
	case 5:
		return p.fetchPmies(pmid, pv, add)
	case 6:
		indom := pcp.NewInDom(pmid.Domain(), pmcdInDomClients)
		for _, cl := range p.s.Clients() {
			if !pv.Selects(indom, cl.Seq()) {
				continue
			}
			var a pcp.Atom
			switch pmid.Item() {
			case 0:
				a.CP = cl.Whoami()
			case 1:
				a.CP = cl.Start().Format("Mon Jan _2 15:04:05 2006")
			case 2:
				a.CP = cl.Container()
			default:
				return pcp.ErrPMID
			}
			if err := add(cl.Seq(), pcp.TypeString, &a); err != nil {
				return err
			}
		}
		return nil
	case 7:
		cpu := cpuMillis()
		switch pmid.Item() {
		case 0:
			return one(pcp.TypeU64, pcp.Atom{ULL: uint64(cpu)})
		case 1:
			var in uint64
			for i := range ctl.PDUIn {
				in += ctl.PDUIn[i].Load()
			}
			p.mu.Lock()
			last, seen := p.cpu[c]
			p.cpu[c] = cpuMark{cpuMS: cpu, pdus: in}
			p.mu.Unlock()
			var d float64
			switch {
			case !seen && in > 0:
				d = cpu * 1000 / float64(in)
			case seen && in > last.pdus:
				d = 1000 * (cpu - last.cpuMS) / float64(in-last.pdus)
			}
			return one(pcp.TypeDouble, pcp.Atom{D: d})
		}
		return pcp.ErrPMID
	case 8:
		return p.fetchFeature(pmid, one)
	}
	return pcp.ErrPMID
}

func (p *pmcdAgent) fetchGlobal(_ pmda.Client, pmid pcp.PMID, pv pmda.ProfileView, add func(int32, pcp.Type, *pcp.Atom) error, one func(pcp.Type, pcp.Atom) error) error {
	s, ctl := p.s, p.ctl
	u32 := func(v uint32) error { return one(pcp.TypeU32, pcp.Atom{UL: v}) }
	i32 := func(v int32) error { return one(pcp.Type32, pcp.Atom{L: v}) }
	str := func(v string) error { return one(pcp.TypeString, pcp.Atom{CP: v}) }
	switch pmid.Item() {
	case 0:
		return i32(ctl.Debug.Load())
	case 1:
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return u32(uint32(m.HeapInuse / 1024))
	case 2:
		n := uint32(0)
		for _, a := range s.Agents(false) {
			if a.Alive() {
				n++
			}
		}
		return u32(n)
	case 3:
		return u32(uint32(s.NumClients()))
	case 4:
		return u32(uint32(s.AgentTimeout() / time.Second))
	case 5:
		return str(timezone())
	case 6:
		return str(simABI())
	case 7:
		return str(pmcdVersion)
	case 8:
		indom := pcp.NewInDom(pmid.Domain(), pmcdInDomRegister)
		for i := range ctl.Registers {
			if pv.Selects(indom, int32(i)) {
				p.atom = pcp.Atom{L: ctl.Registers[i].Load()}
				if err := add(int32(i), pcp.Type32, &p.atom); err != nil {
					return err
				}
			}
		}
		return nil
	case 9:
		return i32(boolInt(ctl.Trace.Load()&TraceConn != 0))
	case 10:
		return i32(boolInt(ctl.Trace.Load()&TracePDU != 0))
	case 11:
		return i32(traceBufs)
	case 12, 13, 15:
		return i32(0)
	case 14:
		return i32(boolInt(ctl.Trace.Load()&TraceNoBuf != 0))
	case 16:
		return str(services())
	case 17:
		return u32(uint32(highestFD()))
	case 18, 19:
		indom := pcp.NewInDom(pmid.Domain(), pmcdInDomBufs)
		for _, b := range bufInstances {
			if pv.Selects(indom, b.ID) {
				if err := add(b.ID, pcp.Type32, &pcp.Atom{}); err != nil {
					return err
				}
			}
		}
		return nil
	case 20:
		return str(pmcdBuild)
	case 21:
		return str(p.hostname())
	case 22:
		return u32(uint32(ctl.Sighups.Load()))
	case 23:
		return one(pcp.TypeU64, pcp.Atom{ULL: uint64(os.Getpid())})
	case 24:
		return u32(ctl.Seqnum.Load() + 1)
	case 25:
		// As PCP's: the configured labels pmcd last saw, else as they
		// are now; the host's names are not among them.
		if l := ctl.Labels.Load(); l != nil {
			return str(*l)
		}
		l := hostlabels.Configured(hostlabels.SysconfDir())
		if len(l) == 0 {
			return str("")
		}
		set, err := l.Set()
		if err != nil {
			return str("")
		}
		return str(set.JSON)
	case 26:
		return str(zoneinfo(p.s.TZ()))
	}
	return pcp.ErrPMID
}

func (p *pmcdAgent) fetchAgents(pmid pcp.PMID, pv pmda.ProfileView, add func(int32, pcp.Type, *pcp.Atom) error) error {
	indom := pcp.NewInDom(pmid.Domain(), pmcdInDomAgents)
	for _, a := range p.s.Agents(true) {
		inst := int32(a.Domain())
		if !pv.Selects(indom, inst) {
			continue
		}
		at := &p.atom
		*at = pcp.Atom{}
		t := pcp.TypeU32
		switch pmid.Item() {
		case 0:
			at.UL = a.Type()
		case 1:
			t, at.L = pcp.Type32, a.Status()
		case 2:
			at.UL = uint32(boolInt(a.Fenced()))
		case 3:
			t, at.CP = pcp.TypeString, a.Name()
		default:
			return pcp.ErrPMID
		}
		if err := add(inst, t, at); err != nil {
			return err
		}
	}
	return nil
}

func (p *pmcdAgent) fetchPmies(pmid pcp.PMID, pv pmda.ProfileView, add func(int32, pcp.Type, *pcp.Atom) error) error {
	indom := pcp.NewInDom(pmid.Domain(), pmcdInDomPmies)
	for _, e := range findPmies() {
		if !pv.Selects(indom, e.pid) {
			continue
		}
		var a pcp.Atom
		t := pcp.TypeU32
		st := e.stats
		switch pmid.Item() {
		case 0:
			t, a.CP = pcp.TypeString, st.config
		case 1:
			t, a.CP = pcp.TypeString, st.logfile
		case 2:
			t, a.CP = pcp.TypeString, st.host
		case 3:
			a.UL = st.numRules
		case 4:
			a.UL = st.actions
		case 5:
			a.UL = st.evalTrue
		case 6:
			a.UL = st.evalFalse
		case 7:
			a.UL = st.evalUnknown
		case 8:
			t, a.F = pcp.TypeFloat, st.evalExpected
		case 9:
			a.UL = st.evalActual
		default:
			return pcp.ErrPMID
		}
		if err := add(e.pid, t, &a); err != nil {
			return err
		}
	}
	return nil
}

// The server features pmcd.feature.* report, by item.
func (p *pmcdAgent) fetchFeature(pmid pcp.PMID, one func(pcp.Type, pcp.Atom) error) error {
	f := p.s.Features()
	var v bool
	switch pmid.Item() {
	case 0, 1, 6, 9: // secure, compress, discovery, client certs
	case 8:
		v = f.Local
	case 2: // ipv6
		v = true
	case 3, 7: // authentication offered, containers
		v = true
	case 4:
		v = f.CredsRequired
	case 5:
		v = f.UnixSocket
	default:
		return pcp.ErrPMID
	}
	return one(pcp.TypeU32, pcp.Atom{UL: uint32(boolInt(v))})
}

// hostname is pmcd.hostname: -H's name, else the host's.
func (p *pmcdAgent) hostname() string {
	if h := p.s.Hostname(); h != "" {
		return h
	}
	return p.hostCache.get()
}

// hostCache keeps the host's name for a second: fetched often, it rarely
// changes. The name and when it was read are swapped in together, so a
// fetch reads them with one load, without a lock.
type hostCache struct {
	cur atomic.Pointer[hostRead]
}

// hostRead is a name and when it was read.
type hostRead struct {
	name string
	at   time.Time
}

func (h *hostCache) get() string {
	// time.Since a time with a monotonic reading reads only the
	// monotonic clock, where time.Now reads the wall clock too.
	if r := h.cur.Load(); r != nil && time.Since(r.at) <= time.Second {
		return r.name
	}
	// Two fetches may both read it; either answer is the host's name.
	r := &hostRead{name: hostname(), at: time.Now()}
	h.cur.Store(r)
	return r.name
}

// Store changes what pmcd lets clients change, with PCP's checks and
// codes: the debug flags, the agent timeout, the registers, tracing,
// fencing agents off (root on the Unix socket only), a client's whoami and
// container, the configuration sequence number, and the push buttons
// (dumptrace, dumpconn, sighup). Anything else is PM_ERR_PMID.
func (p *pmcdAgent) Store(ctx context.Context, c pmda.Client, set *pcp.ValueSet) error {
	s, ctl := p.s, p.ctl
	id := set.PMID
	strs := id.Cluster() == 6
	if !strs && set.NumVal > 0 && set.ValFmt != pcp.ValInSitu {
		return pcp.ErrConv
	}
	if set.NumVal < 1 {
		return pcp.ErrInst
	}
	first := &set.Values[0]
	val := first.LVal
	switch id.Cluster() {
	case 0:
		switch id.Item() {
		case 0:
			ctl.Debug.Store(val)
		case 4:
			if val < 0 {
				return pcp.ErrSign
			}
			ctl.Timeout.Store(int64(time.Duration(val) * time.Second))
			ctl.TimeoutSet.Store(true)
		case 8:
			for _, v := range set.Values {
				if v.Inst < 0 || v.Inst >= NumRegisters {
					return pcp.ErrInst
				}
				ctl.Registers[v.Inst].Store(v.LVal)
			}
		case 9, 10, 14:
			bit := map[uint32]int32{9: TraceConn, 10: TracePDU, 14: TraceNoBuf}[id.Item()]
			if val != 0 && val != 1 {
				return pcp.ErrBadStore
			}
			for {
				old := ctl.Trace.Load()
				nv := old &^ bit
				if val == 1 {
					nv |= bit
				}
				if ctl.Trace.CompareAndSwap(old, nv) {
					break
				}
			}
		case 11:
			if val < 0 {
				return pcp.ErrSign
			}
			// The trace buffer's size is fixed in this pmcd.
		case 12:
			s.Logf("trace dump requested: this pmcd keeps no trace buffer")
		case 13:
			s.DumpConnections()
		case 15:
			s.Logf("pmcd reset via pmcd.control.sighup")
			s.Rescan(context.WithoutCancel(ctx))
		case 24:
			ctl.Seqnum.Add(1)
		default:
			return pcp.ErrPMID
		}
	case 4:
		if id.Item() != 2 {
			return pcp.ErrPMID
		}
		return p.fence(c, set)
	case 6:
		if id.Item() != 0 && id.Item() != 2 {
			return pcp.ErrPMID
		}
		if set.NumVal != 1 {
			return pcp.ErrInst
		}
		a, err := pcp.ExtractValue(set.ValFmt, first, pcp.TypeString, pcp.TypeString)
		if err != nil {
			return err
		}
		if id.Item() == 0 {
			return s.SetWhoami(c, a.CP)
		}
		return s.SetContainer(context.WithoutCancel(ctx), c, a.CP)
	default:
		return pcp.ErrPMID
	}
	return nil
}

// fence sets pmcd.agent.fenced: a fenced agent gets no requests and its
// domain answers PM_ERR_PMDAFENCED. Only root, known by a Unix-socket
// client's credentials, may; pmcd's own agent is never fenced.
func (p *pmcdAgent) fence(c pmda.Client, set *pcp.ValueSet) error {
	if uid, ok := p.s.ClientUID(c); !ok || uid != 0 {
		return pcp.ErrPermission
	}
	order := p.s.Agents(false)
	for _, v := range set.Values {
		if v.LVal != 0 && v.LVal != 1 {
			return pcp.ErrBadStore
		}
		found := false
		for _, a := range order {
			if a.Own() {
				continue
			}
			if v.Inst == pcp.InstNull || int32(a.Domain()) == v.Inst {
				a.SetFenced(v.LVal == 1)
				found = true
			}
		}
		if !found && v.Inst != pcp.InstNull {
			return pcp.ErrInst
		}
	}
	return nil
}

func boolInt(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// cpuMillis is pmcd's CPU time, user and system, in milliseconds.
func cpuMillis() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec)*1000 + float64(t.Usec)/1000 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// highestFD is the largest open file descriptor of this process.
func highestFD() int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0
	}
	hi := 0
	for _, e := range entries {
		if n, err := strconv.Atoi(e.Name()); err == nil && n > hi {
			hi = n
		}
	}
	return hi
}

// simABI is pmcd.simabi: the machine name PCP's build records.
func simABI() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x86_64"
	case "arm64":
		return "aarch64"
	case "386":
		return "ia32"
	case "ppc64le":
		return "ppc64le"
	case "s390x":
		return "s390x"
	}
	return runtime.GOARCH
}
