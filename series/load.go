package series

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/hostlabels"
	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/pcp"
)

// LoadOptions are a load's settings, pmseries.conf's [pmseries] and
// [discover] keys among them.
type LoadOptions struct {
	// MaxStreamLen trims each value stream to about this many entries
	// (stream.maxlen; 8640 when zero, none kept when negative).
	MaxStreamLen int64
	// StreamExpire is each value stream's time to live in seconds after
	// its last write (stream.expire; 86400 when zero, none when negative).
	StreamExpire int64
	// Exclude holds fnmatch patterns of metric names not loaded
	// (discover.exclude.metrics).
	Exclude []string
	// ExcludeInDoms holds instance domains whose metrics are not loaded
	// (discover.exclude.indoms).
	ExcludeInDoms []pcp.InDom
	// Include, when not empty, names the metrics loaded (a load
	// expression's metric.name filters): each name and those under it in
	// the namespace (loadinclude.go).
	Include []string
	// MetadataOnly loads metadata without values (pmseries -F).
	MetadataOnly bool
	// StreamsRefused, when not "", is Redis's refusal of every XADD
	// libpcp_web sends with the configured stream.maxlen, a text Redis
	// takes for no length (ProxyLoadOptions): no value is written, and
	// Refused hears of each entry.
	StreamsRefused string
	// Refused hears of each stream entry StreamsRefused keeps out: the
	// series (hex) and the entry's ID.
	Refused func(series, id string)
	// StreamsDeleted: stream.expire is seconds Redis takes and not above
	// zero, so the EXPIRE libpcp_web sends after each XADD deletes the
	// stream at once: no value is written.
	StreamsDeleted bool
	// BatchCommands is the number of commands sent in one pipelined round
	// trip (4096 when zero): the bound on what a load holds in memory
	// beyond the archive's metadata.
	BatchCommands int
	// Conns is the number of connections a batch is spread over, each key
	// on one of them (4 when zero).
	Conns int

	afterBatch func(n int) // tests: called after each batch is sent
	viaClient  bool        // tests: send through the resp.Client even to one server
	misroute   bool        // tests: send a cluster's commands all to one node
	redirected func()      // tests: called when a cluster redirects the loader
}

func (o *LoadOptions) defaults() {
	if o.MaxStreamLen == 0 {
		o.MaxStreamLen = 8640
	}
	if o.StreamExpire == 0 {
		o.StreamExpire = 86400
	}
	if o.BatchCommands <= 0 {
		o.BatchCommands = 4096
	}
	if o.Conns <= 0 {
		o.Conns = 4
	}
}

// LoadStats reports a load.
type LoadStats struct {
	Name     string // the source's context name (the archive's path)
	Source   ID     // the source identifier
	Records  int    // archive records processed
	Values   int    // stream entries sent
	Refused  int    // stream entries Redis already had (or had newer ones)
	Commands int    // commands sent
	// Unknown are the names of LoadOptions.Include the archive does not
	// have, for PCP's warning.
	Unknown []string
}

// loader is the state of one archive's load: what has been written (so
// that metadata goes once) and the label sets looked up, bounded by the
// archive's metadata.
type loader struct {
	a   *archive.Archive
	opt LoadOptions

	name, host     string
	nameID, hostID ID
	source         ID
	ctxSet         *pcp.LabelSet

	include  []string        // LoadOptions.Include's names the archive has
	mapped   map[string]bool // pcp:map:* entries sent: map key + string ID
	metrics  map[pcp.PMID]*metricState
	domains  map[uint32]*pcp.LabelSet
	clusters map[uint32]*pcp.LabelSet
	indoms   map[pcp.InDom]*indomState
	// what has been written, so that a write of what a key already
	// holds is left out
	written  map[string]instWritten // pcp:inst:series:* hashes
	labelled map[string]*annotation // instances' label hashes: their labels' first
	members  map[memberKey]bool     // label sets a metric's series were added to

	cur    *batch
	stats  LoadStats
	maxl   string // stream.maxlen
	ttl    string // stream.expire
	trimAt int    // entries a stream may gain before it is trimmed

	epoch   time.Time             // the load's start
	batches int                   // batches sent
	dirty   map[*streamState]bool // streams written since their last trim

	// following a growing archive (follow.go): even an empty batch is
	// sent, to move the follower's place on, and sent hears of each batch
	// Redis took
	follow bool
	sent   func(b *batch)

	txt      arena    // encoded XADDs
	args     argSlab  // commands' arguments
	newInsts []string // a record's instances new to a metric
	body     []byte   // an XADD's ID and fields being encoded
	num      []byte   // a value's text being formatted
}

type metricState struct {
	skip     bool
	desc     pcp.Desc
	names    []string
	sids     []ID
	bins     []string // sids as 20 bytes
	instKeys []string // pcp:instances:series:<sid>
	streams  []*streamState
	labels   []*pcp.LabelSet
	written  bool                // metadata sent
	fresh    bool                // metadata sent in the record being read
	insts    map[*instState]bool // instances sent for this metric
}

// streamState is a value stream written by the load: its key and when it
// was last given its time to live and trimmed.
type streamState struct {
	key   string // pcp:values:series:<sid>
	at    time.Duration
	added int  // entries since
	dirty bool // written since, in l.dirty
	batch int  // the last batch that wrote it
}

// Streams are given their time to live and trimmed (EXPIRE and XTRIM) at
// most once a second, or after trimAfter entries (or stream.maxlen when
// smaller), instead of with each entry as libpcp_web's XADD MAXLEN and
// EXPIRE do: EXPIRE counts in seconds, so a time to live set up to a
// second before a stream's last entry ends within that second of
// libpcp_web's; trimming whole nodes from the front ("~") later, but
// before the load ends, leaves the stream as trimming with each entry
// does (the nodes are the same, and a node goes once what follows it
// holds maxlen entries); and the two commands a value were a sixth of
// Redis's work.
const (
	refreshEvery = time.Second
	trimAfter    = 1000
)

// instWritten is what an instance's hash was last written with.
type instWritten struct {
	num    string
	nameID ID
}

// memberKey is a label's set of series and a metric whose series it has.
type memberKey struct {
	set string
	m   *metricState
}

type indomState struct {
	set   *pcp.LabelSet // the instance domain's own labels
	insts map[int32]*instState
	rec   *archive.InDom // the record last applied
	at    pcp.Timestamp  // the time it was looked up for
	seen  bool
}

type instState struct {
	name   string
	nameID ID
	id     ID
	labels string       // identifying labels, kept across a rename as libpcp_web keeps them
	anns   []annotation // its labels as first recorded
	cached bool         // its pcp:inst:series hash written (libpcp_web's instance->cached)
	bin    string       // the id as the 20 bytes that name its stream fields
	hex    string       // the id in hex, as keys name it
}

// ContextName is the context name PCP gives an archive loaded by path: the
// real path when the name is a file, else the name as given.
func ContextName(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		if abs, err := filepath.Abs(r); err == nil {
			return abs
		}
	}
	return p
}

// Load is the package's Load into the store's Redis.
func (s *Store) Load(ctx context.Context, archivePath string, opt LoadOptions) (LoadStats, error) {
	return Load(ctx, s.c, archivePath, opt)
}

// Load loads one archive into Redis in pipelined batches.
func Load(ctx context.Context, c resp.Client, archivePath string, opt LoadOptions) (LoadStats, error) {
	opt.defaults()
	a, err := archive.Open(archivePath, archive.Options{})
	if err != nil {
		return LoadStats{}, fmt.Errorf("cannot open archive %q: %w", archivePath, err)
	}
	defer a.Close()
	if err := CheckSchema(ctx, c); err != nil {
		return LoadStats{}, err
	}
	l := newLoader(a, ContextName(archivePath), opt)
	return l.run(ctx, c, l.read)
}

// CheckSchema reads pcp:version:schema, setting it when absent: another
// version is ErrSchema.
func CheckSchema(ctx context.Context, c resp.Client) error {
	r, err := c.Do(ctx, "GET", "pcp:version:schema")
	if err != nil {
		return fmt.Errorf("%w: %v", ErrRedis, err)
	}
	v, _ := r.Text()
	if r.IsNil() || v == "0" {
		if _, err := c.Do(ctx, "SET", "pcp:version:schema", strconv.Itoa(SchemaVersion)); err != nil {
			return fmt.Errorf("%w: setting schema version: %v", ErrRedis, err)
		}
		return nil
	}
	if n, _ := strconv.Atoi(v); n != SchemaVersion {
		return fmt.Errorf("%w (got v%s, expected v%d)", ErrSchema, v, SchemaVersion)
	}
	return nil
}

func newLoader(a *archive.Archive, name string, opt LoadOptions) *loader {
	l := &loader{
		a: a, opt: opt, name: name, host: a.Label.Hostname,
		mapped:   map[string]bool{},
		metrics:  map[pcp.PMID]*metricState{},
		domains:  map[uint32]*pcp.LabelSet{},
		clusters: map[uint32]*pcp.LabelSet{},
		indoms:   map[pcp.InDom]*indomState{},
		written:  map[string]instWritten{},
		labelled: map[string]*annotation{},
		members:  map[memberKey]bool{},
		maxl:     strconv.FormatInt(max(0, opt.MaxStreamLen), 10),
		ttl:      strconv.FormatInt(opt.StreamExpire, 10),
		trimAt:   int(max(1, min(trimAfter, opt.MaxStreamLen))),
	}
	l.nameID = StringID(l.name)
	l.hostID = StringID(l.host)
	l.ctxSet = l.labelsAt(uint32(pcp.LabelContext), uint32(pcp.PMIDNull), a.Label.Start)
	if l.ctxSet == nil || l.ctxSet.NLabels <= 0 {
		l.ctxSet, _ = hostlabels.Default(l.host)
	}
	js, _ := pcp.MergeLabelSets([]*pcp.LabelSet{l.ctxSet}, webid.Identifying)
	l.source = SourceID(js)
	l.stats.Name, l.stats.Source = l.name, l.source
	l.include, l.stats.Unknown = includes(a.Meta, opt.Include)
	l.cur = &batch{}
	l.txt.free = make(chan []byte, 64)
	l.epoch = time.Now()
	l.dirty = map[*streamState]bool{}
	return l
}

func (l *loader) labelsAt(typ, ident uint32, t pcp.Timestamp) *pcp.LabelSet {
	sets, err := l.a.Meta.LabelsAt(typ, ident, t)
	if err != nil || len(sets) == 0 {
		return nil
	}
	return &sets[0]
}

// run reads records with read in one goroutine while batches go to
// Redis in this one, at most three batches held at once: one being read
// and, to a single server, two in Redis's hands.
func (l *loader) run(ctx context.Context, c resp.Client, read func(context.Context, chan<- *batch) error) (LoadStats, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make(chan *batch)
	rerr := make(chan error, 1)
	go func() {
		defer close(out)
		rerr <- read(ctx, out)
	}()
	// a single server, or a cluster's nodes, get the pipelines in RESP
	// written here
	var raw []*rawConn
	var route func(string) int
	switch cc := c.(type) {
	case *resp.Pool:
		if !l.opt.viaClient {
			for i := 0; i < l.opt.Conns; i++ {
				raw = append(raw, &rawConn{addr: cc.Addr(), opt: cc.Options()})
			}
			n := len(raw)
			route = func(k string) int { return shardOf(k, n) }
		}
	case *resp.Cluster:
		if !l.opt.viaClient {
			var ok bool
			if raw, route, ok = clusterRoutes(ctx, cc); ok && l.opt.misroute {
				route = func(string) int { return 0 }
			}
		}
	}
	closeRaw := func() {
		for _, r := range raw {
			r.close()
		}
		raw = nil
	}
	defer func() { closeRaw() }()
	var serr error
	batches := 0
	acked := func(b *batch) {
		l.txt.release(b.blocks)
		b.blocks = nil
		if l.sent != nil {
			l.sent(b)
		}
		if l.opt.afterBatch != nil {
			batches++
			l.opt.afterBatch(batches)
		}
	}
	// to one server a batch is written before the replies to the one
	// before are read (prev)
	var prev *batch
	var prevParts [][][]string
	for b := range out {
		if serr != nil {
			continue // drain until the reader sees the cancel
		}
		l.stats.Commands += len(b.cmds)
		if raw == nil {
			d, err := send(ctx, c, b, l.opt.Conns)
			l.stats.Refused += d
			if err != nil {
				serr = fmt.Errorf("%s: %w", l.name, err)
				cancel()
				continue
			}
			acked(b)
			continue
		}
		parts := split(b, len(raw), route)
		d, err := stepAll(ctx, raw, prevParts, parts)
		l.stats.Refused += d
		if isRedirect(err) {
			// the cluster changed: resp.Cluster follows it from here,
			// the batches not answered sent again
			closeRaw()
			if l.opt.redirected != nil {
				l.opt.redirected()
			}
			for _, x := range []*batch{prev, b} {
				if x == nil {
					continue
				}
				d, err = send(ctx, c, x, l.opt.Conns)
				l.stats.Refused += d
				if err != nil {
					break
				}
				acked(x)
			}
			prev, prevParts = nil, nil
		}
		if err != nil {
			serr = fmt.Errorf("%s: %w", l.name, err)
			cancel()
			continue
		}
		if raw == nil {
			continue
		}
		if prev != nil {
			acked(prev)
		}
		prev, prevParts = b, parts
	}
	if serr == nil && prev != nil {
		d, err := stepAll(ctx, raw, prevParts, nil)
		l.stats.Refused += d
		if isRedirect(err) {
			closeRaw()
			if l.opt.redirected != nil {
				l.opt.redirected()
			}
			d, err = send(ctx, c, prev, l.opt.Conns)
			l.stats.Refused += d
		}
		if err != nil {
			serr = fmt.Errorf("%s: %w", l.name, err)
		} else {
			acked(prev)
		}
	}
	err := <-rerr
	if serr != nil {
		return l.stats, serr
	}
	return l.stats, err
}

// flush sends the batch being built, with the time to live and trimming
// of the streams that are due it. A follower's every batch may be its
// last for a while, and trims what it wrote.
func (l *loader) flush(ctx context.Context, out chan<- *batch) error {
	return l.flushLast(ctx, out, l.follow)
}

// flushLast is flush; the last batch of a load (last) trims every stream
// written since its last trim.
func (l *loader) flushLast(ctx context.Context, out chan<- *batch, last bool) error {
	l.cur.close()
	l.refresh(last)
	l.cur.blocks = l.txt.seal()
	if len(l.cur.cmds) == 0 && !l.follow {
		return nil // a follower's empty batch still moves its place on
	}
	select {
	case out <- l.cur:
	case <-ctx.Done():
		return ctx.Err()
	}
	l.batches++
	l.cur = &batch{cmds: make([][]string, 0, l.opt.BatchCommands+l.opt.BatchCommands/8), pos: l.cur.pos}
	return nil
}

// refresh adds the EXPIREs and XTRIMs due to the batch's streams.
func (l *loader) refresh(last bool) {
	now := time.Since(l.epoch) + 1 // never zero: zero is "never refreshed"
	for _, st := range l.cur.streams {
		if st.at != 0 && now-st.at < refreshEvery && st.added < l.trimAt {
			if !st.dirty {
				st.dirty = true
				l.dirty[st] = true
			}
			continue
		}
		if l.opt.StreamExpire > 0 {
			l.cur.add("EXPIRE", st.key, l.ttl)
		}
		l.trim(st)
		st.at = now
	}
	if last {
		for st := range l.dirty {
			l.trim(st)
		}
	}
}

func (l *loader) trim(st *streamState) {
	l.cur.add("XTRIM", st.key, "MAXLEN", "~", l.maxl)
	st.added = 0
	if st.dirty {
		st.dirty = false
		delete(l.dirty, st)
	}
}

func (l *loader) read(ctx context.Context, out chan<- *batch) error {
	l.writeSource()
	r := l.a.NewReader()
	defer r.Close()
	var res pcp.Result
	for {
		err := r.Fetch(&res)
		if errors.Is(err, pcp.ErrEOL) {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: fetch failed: %w", l.name, err)
		}
		l.stats.Records++
		l.record(&res)
		if l.cur.size() >= l.opt.BatchCommands {
			if err := l.flush(ctx, out); err != nil {
				return err
			}
		}
	}
	return l.flushLast(ctx, out, true)
}

// mapString sends HSET pcp:map:<m> <id> <s> once per load.
func (l *loader) mapString(m string, s string) ID {
	id := StringID(s)
	k := m + "\x00" + string(id[:])
	if !l.mapped[k] {
		l.mapped[k] = true
		l.cur.gather("HSET", "pcp:map:"+m, bin(id), s)
	}
	return id
}

func bin(id ID) string { return string(id[:]) }

func (l *loader) writeSource() {
	l.mapString("context.name", l.name)
	l.mapString("context.name", l.host)
	src := bin(l.source)
	l.cur.add("SADD", "pcp:source:context.name:"+l.nameID.String(), src)
	l.cur.add("SADD", "pcp:source:context.name:"+l.hostID.String(), src)
	l.cur.add("SADD", "pcp:context.name:source:"+l.source.String(), bin(l.nameID), bin(l.hostID))
	lat, long := location(l.ctxSet)
	l.cur.add("GEOADD", "pcp:source:location",
		strconv.FormatFloat(long, 'f', 8, 64), strconv.FormatFloat(lat, 'f', 8, 64), src)
}

func (l *loader) excluded(names []string) bool {
	for _, p := range l.opt.Exclude {
		for _, n := range names {
			if Fnmatch(p, n) {
				return true
			}
		}
	}
	return false
}

// domainSet is a domain's labels. A domain, cluster or instance domain
// without labels is asked again each time, as libpcp_web asks while it has
// none: archives often record them after the first values.
func (l *loader) domainSet(d uint32, t pcp.Timestamp) *pcp.LabelSet {
	s := l.domains[d]
	if s == nil {
		s = l.labelsAt(uint32(pcp.LabelDomain), d, t)
		l.domains[d] = s
	}
	return s
}

func (l *loader) indom(id pcp.InDom, t pcp.Timestamp) *indomState {
	s, ok := l.indoms[id]
	if !ok {
		s = &indomState{insts: map[int32]*instState{}}
		l.indoms[id] = s
	}
	return s
}

// indomLabels asks for an instance domain's labels while it has none.
func (l *loader) indomLabels(s *indomState, id pcp.InDom, t pcp.Timestamp) {
	if s.set == nil {
		s.set = l.labelsAt(uint32(pcp.LabelInDom), uint32(id), t)
	}
}

func (l *loader) newMetric(pmid pcp.PMID, t pcp.Timestamp) *metricState {
	m := &metricState{}
	desc, err := l.a.Meta.Desc(pmid)
	if err != nil {
		m.skip = true
		return m
	}
	names, err := l.a.Meta.Names(pmid)
	if err != nil || len(names) == 0 || l.excluded(names) || slices.Contains(l.opt.ExcludeInDoms, desc.InDom) || !l.included(names) {
		m.skip = true
		return m
	}
	m.desc, m.names = desc, names
	var indomSet *pcp.LabelSet
	dom := l.domainSet(pmid.Domain(), t)
	ck := uint32(pcp.NewPMID(pmid.Domain(), pmid.Cluster(), 0))
	cs := l.clusters[ck]
	if cs == nil {
		cs = l.labelsAt(uint32(pcp.LabelCluster), ck, t)
		l.clusters[ck] = cs
	}
	if desc.InDom != pcp.InDomNull {
		s := l.indom(desc.InDom, t)
		l.indomLabels(s, desc.InDom, t)
		indomSet = s.set
	}
	m.labels = []*pcp.LabelSet{l.ctxSet, dom, indomSet, cs,
		l.labelsAt(uint32(pcp.LabelItem), uint32(pmid), t)}
	js := webid.IdentifyingLabels(m.labels)
	sem, typ, units := desc.Sem.String(), desc.Type.String(), desc.Units.String()
	for _, n := range names {
		sid := MetricID(n, js, sem, typ, units)
		m.sids = append(m.sids, sid)
		m.bins = append(m.bins, bin(sid))
		m.instKeys = append(m.instKeys, "pcp:instances:series:"+sid.String())
		m.streams = append(m.streams, &streamState{key: "pcp:values:series:" + sid.String(), batch: -1})
	}
	m.insts = map[*instState]bool{}
	return m
}

func (l *loader) record(res *pcp.Result) {
	if len(res.Sets) == 0 {
		return // a <mark>: nothing is kept for it
	}
	t := res.Timestamp
	var stamp string
	for i := range res.Sets {
		vs := &res.Sets[i]
		if vs.NumVal == 0 {
			continue
		}
		m := l.metrics[vs.PMID]
		if m == nil {
			m = l.newMetric(vs.PMID, t)
			l.metrics[vs.PMID] = m
		}
		if m.skip {
			continue
		}
		if !m.written {
			l.writeMetric(m, vs.NumVal < 0 || m.desc.InDom == pcp.InDomNull)
		}
		if vs.NumVal > 0 && m.desc.InDom != pcp.InDomNull {
			if !instsSorted(vs.Values) {
				slices.SortFunc(vs.Values, func(a, b pcp.Value) int { return int(a.Inst) - int(b.Inst) })
			}
		}
		if l.opt.MetadataOnly {
			l.writeInstances(m, vs, t)
			m.fresh = false
			continue
		}
		if stamp == "" {
			stamp = streamID(t)
		}
		l.writeValues(m, vs, t, stamp)
		m.fresh = false
	}
}

// writeMetric sends a metric's metadata, and its labels when it has no
// instances to carry them.
func (l *loader) writeMetric(m *metricState, withLabels bool) {
	m.written, m.fresh = true, true
	d := &m.desc
	indom, pmid, sem := webid.InDomName(d.InDom), webid.PMIDName(d.PMID), d.Sem.String()
	typ, units := webid.TypeName(d.Type), webid.UnitsName(d.Units)
	for i, n := range m.names {
		nid := l.mapString("metric.name", n)
		sid := m.sids[i]
		l.cur.gather("SADD", "pcp:series:metric.name:"+nid.String(), m.bins[i])
		l.cur.add("SADD", "pcp:metric.name:series:"+sid.String(), bin(nid))
		l.cur.add("HSET", "pcp:desc:series:"+sid.String(), "indom", indom, "pmid", pmid,
			"semantics", sem, "source", bin(l.source), "type", typ, "units", units)
	}
	l.cur.gather("SADD", "pcp:series:context.name:"+l.nameID.String(), m.bins...)
	if withLabels {
		anns := annotations(m.labels)
		for _, sid := range m.sids {
			l.writeLabels(sid.String(), anns)
		}
		for i := range anns {
			l.labelMembers(&anns[i], m)
		}
	}
}

// writeLabels sends the label hashes of a series or instance: every
// label's value in one HSET, the flags of those not from the context in
// another.
func (l *loader) writeLabels(hash string, anns []annotation) {
	values := l.args.slice(2 + 2*len(anns))
	values = append(values, "HSET", "pcp:labelvalue:series:"+hash)
	var flags []string
	for i := range anns {
		a := &anns[i]
		l.labelIDs(a)
		if a.flags != pcp.LabelContext {
			if flags == nil {
				flags = l.args.slice(2 + 2*len(anns))
				flags = append(flags, "HSET", "pcp:labelflags:series:"+hash)
			}
			flags = append(flags, bin(a.nid), strconv.Itoa(int(a.flags)))
		}
		values = append(values, bin(a.nid), bin(a.vid))
	}
	if flags != nil {
		l.cur.add(flags...)
	}
	l.cur.add(values...)
}

// labelIDs maps a label's name and value (once per load) and keeps their
// identifiers and the key of the set of series having the value.
func (l *loader) labelIDs(a *annotation) {
	if a.set != "" {
		return
	}
	a.nid = l.mapString("label.name", a.name)
	a.vid = l.mapString("label."+a.nid.String()+".value", a.value)
	a.set = "pcp:series:label." + a.nid.String() + ".value:" + a.vid.String()
}

// labelMembers adds a metric's series to the set of a label's name and
// value, once per load: sets only grow.
func (l *loader) labelMembers(a *annotation, m *metricState) {
	l.labelIDs(a)
	k := memberKey{a.set, m}
	if l.members[k] {
		return
	}
	l.members[k] = true
	l.cur.gather("SADD", a.set, m.bins...)
}

// instance finds an instance of a metric's domain at time t, following
// the archive's instance domain as it changes (a new instance, or a new
// name for one, as libpcp_web refreshes it).
func (l *loader) instance(id pcp.InDom, inst int32, t pcp.Timestamp) *instState {
	return l.instances(id, t).insts[inst]
}

// instances is an instance domain as it is at time t.
func (l *loader) instances(id pcp.InDom, t pcp.Timestamp) *indomState {
	s := l.indom(id, t)
	if !s.seen || s.at != t {
		s.seen, s.at = true, t
		if rec, err := l.a.Meta.InDomAt(id, t); err == nil && rec != s.rec {
			s.rec = rec
			// as libpcp_web refreshes: the domain's labels first, new
			// instances hashed with the instance domain's labels as they
			// were, then those asked for
			sets := []*pcp.LabelSet{l.ctxSet, l.domainSet(id.Domain(), t), s.set}
			labels, anns := webid.IdentifyingLabels(sets), annotations(sets)
			for i, n := range rec.Names {
				if rec.Delta && rec.Deleted != nil && rec.Deleted[i] || n == "" {
					continue
				}
				old := s.insts[rec.Insts[i]]
				switch {
				case old == nil:
					s.insts[rec.Insts[i]] = &instState{name: n, nameID: StringID(n),
						id: InstanceID(n, labels), labels: labels, anns: anns}
				case old.name != n:
					s.insts[rec.Insts[i]] = &instState{name: n, nameID: StringID(n),
						id: InstanceID(n, old.labels), labels: old.labels, anns: old.anns}
				}
			}
			l.indomLabels(s, id, t)
		}
	}
	return s
}

// useInstance sends what an instance of a metric needs: the metric's
// membership in the instance's name and label sets and its instance
// identifier (appended to ids, which the caller adds to the metric's
// instance sets) the first time the metric has it, and the instance's own
// hash and labels when libpcp_web writes them (the instance not yet
// written, or the metric new in this record) unless they were last
// written as they are now: libpcp_web writes the same hash again for
// every metric new in a record, a tenth of the commands of an archive
// with many instances, and a write of what a key holds changes nothing.
func (l *loader) useInstance(m *metricState, in *instState, inst int32, ids []string) []string {
	full := !in.cached || m.fresh
	if !full && m.insts[in] {
		return ids
	}
	if !m.insts[in] {
		m.insts[in] = true
		l.mapString("inst.name", in.name)
		l.cur.gather("SADD", "pcp:series:inst.name:"+in.nameID.String(), m.bins...)
		if in.bin == "" {
			in.bin = bin(in.id)
		}
		ids = append(ids, in.bin)
		for i := range in.anns {
			l.labelMembers(&in.anns[i], m)
		}
	}
	if full {
		in.cached = true
		l.writeInstance(in, inst)
	}
	return ids
}

// writeInstance sends an instance's hash and label hashes unless they
// were last written with what they would be written with now (a key's
// writes all go in order on one connection).
func (l *loader) writeInstance(in *instState, inst int32) {
	if in.hex == "" {
		in.hex = in.id.String()
	}
	num := strconv.Itoa(int(inst))
	k := "pcp:inst:series:" + in.hex
	if w := l.written[k]; w.num != num || w.nameID != in.nameID {
		l.written[k] = instWritten{num, in.nameID}
		l.cur.add("HSET", k, "inst", num, "name", bin(in.nameID), "source", bin(l.source))
	}
	if len(in.anns) > 0 && l.labelled[in.hex] != &in.anns[0] {
		l.labelled[in.hex] = &in.anns[0]
		l.writeLabels(in.hex, in.anns)
	}
}

func (l *loader) writeInstances(m *metricState, vs *pcp.ValueSet, t pcp.Timestamp) {
	if m.desc.InDom == pcp.InDomNull || vs.NumVal <= 0 {
		return
	}
	var ids []string
	for i := range vs.Values {
		inst := vs.Values[i].Inst
		if in := l.instance(m.desc.InDom, inst, t); in != nil {
			ids = l.useInstance(m, in, inst, ids)
		}
	}
	l.addInstances(m, ids)
}

// addInstances adds instance identifiers to each series' instance set.
func (l *loader) addInstances(m *metricState, ids []string) {
	if len(ids) == 0 {
		return
	}
	for _, k := range m.instKeys {
		l.cur.gather("SADD", k, ids...)
	}
}

func (l *loader) writeValues(m *metricState, vs *pcp.ValueSet, t pcp.Timestamp, stamp string) {
	// the entry's ID and fields, encoded once for every name's stream
	body := resp.AppendBulk(l.body[:0], stamp)
	pairs := 0
	switch {
	case vs.NumVal < 0:
		body = resp.AppendBulk(body, "-1")
		l.num = strconv.AppendInt(l.num[:0], int64(vs.NumVal), 10)
		body = appendBulkBytes(body, l.num)
		pairs++
	case m.desc.InDom == pcp.InDomNull:
		var ok bool
		if l.num, ok = appendValue(l.num[:0], vs, &vs.Values[0], m.desc.Type); !ok {
			return
		}
		body = resp.AppendBulk(body, "")
		body = appendBulkBytes(body, l.num)
		pairs++
	default:
		ids := l.newInsts[:0]
		insts := l.instances(m.desc.InDom, t).insts
		for i := range vs.Values {
			v := &vs.Values[i]
			in := insts[v.Inst]
			if in == nil {
				continue
			}
			ids = l.useInstance(m, in, v.Inst, ids)
			var ok bool
			if l.num, ok = appendValue(l.num[:0], vs, v, m.desc.Type); !ok {
				continue
			}
			body = resp.AppendBulk(body, in.bin)
			body = appendBulkBytes(body, l.num)
			pairs++
		}
		l.addInstances(m, ids)
		l.newInsts = ids[:0]
		if pairs == 0 {
			return
		}
	}
	l.body = body
	if l.opt.StreamsRefused != "" || l.opt.StreamsDeleted {
		if l.opt.Refused != nil && l.opt.StreamsRefused != "" {
			for _, k := range m.streams {
				l.opt.Refused(strings.TrimPrefix(k.key, "pcp:values:series:"), stamp)
			}
		}
		return
	}
	for _, k := range m.streams {
		e := l.txt.room(len(body) + len(k.key) + 48)
		e = append(e, '*')
		e = strconv.AppendInt(e, int64(3+2*pairs), 10)
		e = append(e, "\r\n$4\r\nXADD\r\n"...)
		e = resp.AppendBulk(e, k.key)
		e = append(e, body...)
		cmd := l.args.slice(3)
		l.cur.add(append(cmd, encodedXADD, k.key, l.txt.keep(e))...)
		k.added++
		if k.batch != l.batches {
			k.batch = l.batches
			l.cur.streams = append(l.cur.streams, k)
		}
		l.stats.Values++
	}
}

// instsSorted reports whether values are in instance order.
func instsSorted(vs []pcp.Value) bool {
	for i := 1; i < len(vs); i++ {
		if vs[i].Inst < vs[i-1].Inst {
			return false
		}
	}
	return true
}
