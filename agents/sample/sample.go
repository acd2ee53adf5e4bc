// Package sample is PCP's sample agent (domain 29) in Go: the test bed
// agent with a metric of nearly every type, semantics, unit and instance
// domain shape, values that change in known ways, stores that change the
// agent's state, and metrics that fail on purpose. Its names, PMIDs,
// descriptors, instance domains, instance names, labels and values follow
// PCP 6.0.3's pmdasample; its help text is its own.
//
// The changing values (sample.mirage's instances, sample.drift,
// sample.lights, sample.dodgey.*, sample.proc.*, ...) come from the same
// pseudo-random sequences PCP's agent uses, so a fresh agent asked the
// same questions gives the same answers.
//
// New's agent is safe for concurrent use: the agent's state has one lock.
package sample

import (
	"log"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// Domain is the sample agent's domain number, SAMPLE in PCP's domain.h.
const Domain = 29

// Name is the agent's daemon name.
const Name = "pmdasample"

// Options adjust an agent.
type Options struct {
	// DSO marks the agent as running inside pmcd rather than as a
	// daemon: its dynamic names then start "sampledso." as PCP's
	// in-process sample agent's do, and its label says "sample DSO".
	DSO bool
	// PMDAsDir is PCP_PMDAS_DIR, where sample/dynamic.indom lists the
	// instances of sample.dynamic.*; empty means pcp.conf's.
	PMDAsDir string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Log receives the agent's log; nil discards it.
	Log *log.Logger
	// Exit is called when a store of -1 into sample.control asks a
	// daemon agent to stop, after the store is answered; nil ignores it,
	// as PCP's in-process agent does.
	Exit func()
}

// agent is the sample agent's state, behind one lock.
type agent struct {
	mu      sync.Mutex
	domain  uint32
	dso     bool
	now     func() time.Time
	log     *log.Logger
	dynPath string

	defs  []*def   // by item, nil where none (a map's lookup was a quarter of a fetch)
	magic pcp.Desc // sample.dynamic.meta.metric's descriptor
	// magicUnits is the descriptor's units word as stored, padding
	// included, which PCP's agent gives back as it was.
	magicUnits uint32
	begun      time.Time
	// fetchNow is the clock reading of the fetch in progress, and
	// fetchProf its instance profile.
	fetchNow  time.Time
	fetchProf pmda.ProfileView
	// atom holds the value being handed to a fetch's add function,
	// under mu: a local's address given to the function would move it
	// to the heap, an allocation per value.
	atom pcp.Atom
	// dataBase is the data size when the agent started, for
	// sample.datasize's growth; -1 until the first fetch of it in pmcd.
	dataBase int64
	// procDone, dynDone and ghostDone say sample.proc's table,
	// sample.dynamic's counters and the ghosts' state have moved on in
	// this fetch.
	procDone, dynDone, ghostDone bool
	rnd                          rand48
	scr                          scrambler
	pid                          uint32
	exit                         func()

	ctx perContext

	// instance domains
	colour, bin, family, hordes, events, ghosts []pmda.Instance
	dodgey, dynamic, many, scramble             []pmda.Instance
	mirage                                      mirage
	proc                                        procs
	dyn                                         dynamicState

	// The values behind the metrics, named for them; x is the counter
	// colour and the mirages share, the *wrap ones the wrapping
	// counters, neg* the sample.negative.* values, and the light and
	// magnitude fields hold a value and how many more fetches it lasts.
	x                int32
	control          int32
	drift            int32
	sign             int32
	step             int32
	writeMe          int32
	long             int32
	ulong            uint32
	longlong         int64
	ulonglong        uint64
	float            float32
	double           float64
	str              string
	aggr             []byte
	binVal           [9]int32
	lightColour      int64
	lightFetches     int64
	magnitude        int64
	magnitudeFetches int64
	nbyte            int32
	rapid            uint32
	rapidCtr         uint64
	wrap             int32
	uwrap            uint32
	llwrap           int64
	ullwrap          uint64
	swrap            int32
	uswrap           uint32
	llswrap          int64
	ullswrap         uint64
	errorCode        int32
	notReady         int32
	dodgeyCtl        int32
	tmpDodgey        int32
	newDodgey        int32
	manyCount        int32
	scrambleV        int64
	negL             int32
	negLL            int64
	negF             float32
	negD             float64
	constGrad        uint32
	constValue       uint32
	constAt          time.Time
	scaleStep        [7]float64
	scaleN           [7]int
	updown           updown
	visible          int32 // ghosts visible, -1 for none and hidden names
	ghostState       int32
	mirageCtl        time.Time
	mirageGap        time.Duration
	eventFetch       int32 // fetches of fungus's records, settable
	eventX           int32 // fetches of bogus's records
	hiresFetch       int32
	hiresX           int32
	streams          eventStreams
}

type updown struct {
	obs, dir, click, min, max int32
	repeat, step              uint32
}

// New returns the sample agent for domain (normally Domain).
func New(domain uint32, opts Options) (*pmda.Agent, error) {
	h, err := help()
	if err != nil {
		return nil, err
	}
	s := newAgent(domain, opts)
	name := Name
	if opts.DSO {
		name = "sample DSO"
	}
	metrics, indoms := s.metrics(), indomTable()
	h.Apply(Domain, metrics, indoms)
	return pmda.New(pmda.Config{
		Name:          name,
		Domain:        domain,
		Metrics:       metrics,
		InDoms:        indoms,
		Labels:        []pmda.Label{{Name: "role", Value: "testing"}},
		ClusterLabels: map[uint32][]pmda.Label{0: {{Name: "cluster", Value: "zero"}}},
		Fetcher:       s,
		// PCP's agent asks for clients' credentials.
		Flags: pdu.FlagAuth,
		Log:   opts.Log,
	})
}

func newAgent(domain uint32, opts Options) *agent {
	s := &agent{
		domain: domain,
		dso:    opts.DSO,
		now:    opts.Now,
		log:    opts.Log,
		rnd:    newRand48(),
		scr:    scrambler{seed: 44321},
		exit:   opts.Exit,
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = log.New(discard{}, "", 0)
	}
	dir := opts.PMDAsDir
	if dir == "" {
		dir, _ = pcpconf.Get("PCP_PMDAS_DIR")
	}
	if dir != "" {
		s.dynPath = filepath.Join(dir, "sample", "dynamic.indom")
	}
	top := uint32(0)
	for i := range defs {
		top = max(top, defs[i].item)
	}
	s.defs = make([]*def, top+1)
	for i := range defs {
		s.defs[defs[i].item] = &defs[i]
	}
	s.magic = pcp.Desc{
		PMID: pcp.NewPMID(domain, 0, itemDynamicMetaMetric), Type: pcp.Type32, InDom: pcp.InDomNull,
		Sem: pcp.SemDiscrete, Units: u(1, -1, 0, pcp.SpaceByte, pcp.TimeSec, 0),
	}
	s.magicUnits = s.magic.Units.Pack()
	s.begun = s.now()
	s.dataBase = -1
	if !opts.DSO {
		s.dataBase = int64(dataSize())
	}
	s.colour = names(0, []string{"red", "green", "blue"})
	s.family = names(0, []string{"colleen", "terry", "emma", "cathy", "fat bald bastard"})
	s.events = names(0, []string{"fungus", "bogus"})
	s.ghosts = names(1, []string{"Obambo", "Banjhakri", "Mogwai", "Pocong", "Hitodama", "Krahang", "Zmeu", "Duppy"})
	for i := int32(1); i <= 9; i++ {
		s.bin = append(s.bin, pmda.Instance{ID: i * 100, Name: "bin-" + itoa(i*100),
			Labels: []pmda.Label{{Name: "bin", Value: i * 100}}})
		s.binVal[i-1] = i * 100
	}
	s.scramble = append([]pmda.Instance(nil), s.bin...)
	for i := int32(0); i < 500; i++ {
		s.hordes = append(s.hordes, pmda.Instance{ID: i, Name: itoa(i)})
	}
	s.drift, s.sign, s.step, s.writeMe = 200, -1, 20, 2
	s.long, s.ulong, s.longlong, s.ulonglong, s.float, s.double = 13, 13, 13, 13, 13, 13
	s.str = "13"
	s.aggr = []byte("13")
	s.dodgeyCtl, s.tmpDodgey = 5, 5
	s.redoDodgey()
	s.manyCount = 5
	s.redoMany()
	s.negL, s.negLL, s.negF, s.negD = -10000, -10000, -10000, -10000
	s.constValue = 10485760
	for i := range s.scaleStep {
		s.scaleStep[i] = 1
	}
	s.updown = updown{dir: 1, click: 5, repeat: 5, max: 200, step: 10}
	s.visible, s.ghostState = -1, 23
	s.proc.rnd.seed = 1
	s.streams = newEvents()
	s.mirageGap = 10 * time.Second
	s.redoMirage()
	s.redoDynamic(false)
	return s
}

// names builds an instance table numbered from first.
func names(first int32, list []string) []pmda.Instance {
	insts := make([]pmda.Instance, len(list))
	for i, n := range list {
		insts[i] = pmda.Instance{ID: first + int32(i), Name: n}
	}
	return insts
}

// indomTable gives pmda.New the instance domains with their labels; their
// members come from the agent (pmda.InstanceLister).
func indomTable() []pmda.InDom {
	var t []pmda.InDom
	for serial := colourInDom; serial <= procInDom; serial++ {
		d := pmda.InDom{InDom: pcp.NewInDom(0, serial)}
		switch serial {
		case colourInDom:
			d.Labels = []pmda.Label{{Name: "model", Value: "RGB"}}
		case familyInDom:
			d.Labels = []pmda.Label{{Name: "clan", Value: "mcdonell"}}
		}
		t = append(t, d)
	}
	return t
}

// metrics is the table for pmda.New: every metric, without help. The
// names are the dynamic ones only, which the agent serves itself.
func (s *agent) metrics() []pmda.Metric {
	ms := make([]pmda.Metric, 0, len(defs))
	for _, d := range defs {
		m := pmda.Metric{Desc: pcp.Desc{
			PMID: pcp.NewPMID(s.domain, 0, d.item), Type: d.typ, InDom: pcp.InDomNull,
			Sem: d.sem, Units: d.units,
		}}
		if d.indom != noInDom {
			m.Desc.InDom = pcp.NewInDom(s.domain, d.indom)
		}
		ms = append(ms, m)
	}
	return ms
}

// dataGrowth is sample.datasize: kilobytes the process's data has grown
// since the agent started (a daemon) or since the first fetch of it (in
// pmcd), as PCP's agent measures its heap.
func (s *agent) dataGrowth() uint32 {
	now := int64(dataSize())
	if s.dataBase < 0 {
		s.dataBase = now
	}
	return uint32(max(now-s.dataBase, 0))
}

func itoa(i int32) string { return strconv.Itoa(int(i)) }

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// def is the definition of item, nil for an item the agent has not.
func (s *agent) def(item uint32) *def {
	if int(item) < len(s.defs) {
		return s.defs[item]
	}
	return nil
}
