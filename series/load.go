package series

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/hostlabels"
	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/pcp"
)

// LoadOptions are a load's settings, pmseries.conf's [pmseries] and
// [discover] keys among them.
type LoadOptions struct {
	// MaxStreamLen trims each value stream to about this many entries
	// (stream.maxlen; 8640 when zero).
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
	// BatchCommands is the number of commands sent in one pipelined round
	// trip (4096 when zero): the bound on what a load holds in memory
	// beyond the archive's metadata.
	BatchCommands int
	// Conns is the number of connections a batch is spread over, each key
	// on one of them (4 when zero).
	Conns int

	afterBatch func(n int) // tests: called after each batch is sent
	viaClient  bool        // tests: send through go-redis even to one server
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
	labelled map[string]bool // label values mapped (name ID + value)

	cur   *batch
	stats LoadStats
	maxl  string

	// following a growing archive (follow.go): even an empty batch is
	// sent, to move the follower's place on, and sent hears of each batch
	// Redis took
	follow bool
	sent   func(b *batch)

	txt  arena   // value texts
	args argSlab // XADDs' arguments
}

type metricState struct {
	skip    bool
	desc    pcp.Desc
	names   []string
	sids    []ID
	streams []string // pcp:values:series:<sid>
	labels  []*pcp.LabelSet
	written bool                // metadata sent
	fresh   bool                // metadata sent in the record being read
	insts   map[*instState]bool // instances sent for this metric
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

// Load loads one archive into Redis in pipelined batches.
func Load(ctx context.Context, c redis.UniversalClient, archivePath string, opt LoadOptions) (LoadStats, error) {
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
func CheckSchema(ctx context.Context, c redis.UniversalClient) error {
	v, err := c.Get(ctx, "pcp:version:schema").Result()
	if err == redis.Nil || err == nil && v == "0" {
		if err := c.Set(ctx, "pcp:version:schema", strconv.Itoa(SchemaVersion), 0).Err(); err != nil {
			return fmt.Errorf("%w: setting schema version: %v", ErrRedis, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrRedis, err)
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
		labelled: map[string]bool{},
		maxl:     strconv.FormatInt(opt.MaxStreamLen, 10),
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
	l.cur = &batch{expire: map[string]bool{}}
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
// Redis in this one, at most two batches held at once.
func (l *loader) run(ctx context.Context, c redis.UniversalClient, read func(context.Context, chan<- *batch) error) (LoadStats, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make(chan *batch, 1)
	rerr := make(chan error, 1)
	go func() {
		defer close(out)
		rerr <- read(ctx, out)
	}()
	// a single server gets the pipelines in RESP written here
	var raw []*rawConn
	if sc, ok := c.(*redis.Client); ok && !l.opt.viaClient && plainTCP(sc.Options()) {
		for i := 0; i < l.opt.Conns; i++ {
			raw = append(raw, &rawConn{addr: sc.Options().Addr})
		}
		defer func() {
			for _, r := range raw {
				r.close()
			}
		}()
	}
	var serr error
	batches := 0
	for b := range out {
		if serr != nil {
			continue // drain until the reader sees the cancel
		}
		l.stats.Commands += len(b.cmds)
		d, err := send(ctx, c, raw, b, l.opt.StreamExpire, l.opt.Conns)
		l.stats.Refused += d
		if err != nil {
			serr = fmt.Errorf("%s: %w", l.name, err)
			cancel()
			continue
		}
		if l.sent != nil {
			l.sent(b)
		}
		if l.opt.afterBatch != nil {
			batches++
			l.opt.afterBatch(batches)
		}
	}
	err := <-rerr
	if serr != nil {
		return l.stats, serr
	}
	return l.stats, err
}

func (l *loader) flush(ctx context.Context, out chan<- *batch) error {
	if len(l.cur.cmds) == 0 && !l.follow {
		return nil // a follower's empty batch still moves its place on
	}
	select {
	case out <- l.cur:
	case <-ctx.Done():
		return ctx.Err()
	}
	l.cur = &batch{expire: map[string]bool{}, cmds: make([][]string, 0, l.opt.BatchCommands), pos: l.cur.pos}
	return nil
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
		if len(l.cur.cmds) >= l.opt.BatchCommands {
			if err := l.flush(ctx, out); err != nil {
				return err
			}
		}
	}
	return l.flush(ctx, out)
}

// mapString sends HSET pcp:map:<m> <id> <s> once per load.
func (l *loader) mapString(m string, s string) ID {
	id := StringID(s)
	k := m + "\x00" + string(id[:])
	if !l.mapped[k] {
		l.mapped[k] = true
		l.cur.add("HSET", "pcp:map:"+m, bin(id), s)
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
			if ok, _ := path.Match(p, n); ok {
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
		m.streams = append(m.streams, "pcp:values:series:"+sid.String())
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
			slices.SortFunc(vs.Values, func(a, b pcp.Value) int { return int(a.Inst) - int(b.Inst) })
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
	all := make([]string, 0, 2+len(m.sids))
	all = append(all, "SADD", "pcp:series:context.name:"+l.nameID.String())
	for i, n := range m.names {
		nid := l.mapString("metric.name", n)
		sid := m.sids[i]
		all = append(all, bin(sid))
		l.cur.add("SADD", "pcp:series:metric.name:"+nid.String(), bin(sid))
		l.cur.add("SADD", "pcp:metric.name:series:"+sid.String(), bin(nid))
		l.cur.add("HSET", "pcp:desc:series:"+sid.String(), "indom", indom, "pmid", pmid,
			"semantics", sem, "source", bin(l.source), "type", typ, "units", units)
	}
	l.cur.add(all...)
	if withLabels {
		anns := annotations(m.labels)
		for _, sid := range m.sids {
			for _, a := range anns {
				l.writeLabel(sid.String(), a, m.sids)
			}
		}
	}
}

func (l *loader) writeLabel(hash string, a annotation, sids []ID) {
	nid := l.mapString("label.name", a.name)
	nhex := nid.String()
	vid := l.mapString("label."+nhex+".value", a.value)
	if a.flags != pcp.LabelContext {
		l.cur.add("HSET", "pcp:labelflags:series:"+hash, bin(nid), strconv.Itoa(int(a.flags)))
	}
	l.cur.add("HSET", "pcp:labelvalue:series:"+hash, bin(nid), bin(vid))
	l.labelMembers(a, sids)
}

// labelMembers adds series to the set of a label's name and value.
func (l *loader) labelMembers(a annotation, sids []ID) {
	set := make([]string, 0, 2+len(sids))
	set = append(set, "SADD", "pcp:series:label."+StringID(a.name).String()+".value:"+StringID(a.value).String())
	for _, s := range sids {
		set = append(set, bin(s))
	}
	l.cur.add(set...)
}

// instance finds an instance of a metric's domain at time t, following
// the archive's instance domain as it changes (a new instance, or a new
// name for one, as libpcp_web refreshes it).
func (l *loader) instance(id pcp.InDom, inst int32, t pcp.Timestamp) *instState {
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
	return s.insts[inst]
}

// useInstance sends what an instance of a metric needs: the instance's
// own hash, names and labels when libpcp_web would send them (the
// instance not yet written, or the metric new in this record), and else
// the metric's membership in the instance's sets the first time the
// metric has it (which libpcp_web leaves out when another metric of the
// instance domain saw the instance first).
func (l *loader) useInstance(m *metricState, s *indomState, in *instState, inst int32) {
	full := !in.cached || m.fresh
	if !full && m.insts[in] {
		return
	}
	m.insts[in] = true
	l.mapString("inst.name", in.name)
	set := make([]string, 0, 2+len(m.sids))
	set = append(set, "SADD", "pcp:series:inst.name:"+in.nameID.String())
	for _, sid := range m.sids {
		set = append(set, bin(sid))
	}
	l.cur.add(set...)
	for _, sid := range m.sids {
		l.cur.add("SADD", "pcp:instances:series:"+sid.String(), bin(in.id))
	}
	ih := in.id.String()
	if full {
		in.cached = true
		l.cur.add("HSET", "pcp:inst:series:"+ih, "inst", strconv.Itoa(int(inst)),
			"name", bin(in.nameID), "source", bin(l.source))
	}
	for _, a := range in.anns {
		if full {
			l.writeLabel(ih, a, m.sids)
		} else {
			l.labelMembers(a, m.sids)
		}
	}
}

func (l *loader) writeInstances(m *metricState, vs *pcp.ValueSet, t pcp.Timestamp) {
	if m.desc.InDom == pcp.InDomNull || vs.NumVal <= 0 {
		return
	}
	s := l.indom(m.desc.InDom, t)
	for i := range vs.Values {
		inst := vs.Values[i].Inst
		if in := l.instance(m.desc.InDom, inst, t); in != nil {
			l.useInstance(m, s, in, inst)
		}
	}
}

func (l *loader) writeValues(m *metricState, vs *pcp.ValueSet, t pcp.Timestamp, stamp string) {
	fields := l.args.slice(8 + 2*len(vs.Values))
	fields = append(fields, "XADD", "", "MAXLEN", "~", l.maxl, stamp)
	switch {
	case vs.NumVal < 0:
		fields = append(fields, "-1", strconv.Itoa(int(vs.NumVal)))
	case m.desc.InDom == pcp.InDomNull:
		v, ok := formatValue(&l.txt, vs, &vs.Values[0], m.desc.Type)
		if !ok {
			return
		}
		fields = append(fields, "", v)
	default:
		s := l.indom(m.desc.InDom, t)
		for i := range vs.Values {
			v := &vs.Values[i]
			in := l.instance(m.desc.InDom, v.Inst, t)
			if in == nil {
				continue
			}
			l.useInstance(m, s, in, v.Inst)
			txt, ok := formatValue(&l.txt, vs, v, m.desc.Type)
			if !ok {
				continue
			}
			if in.bin == "" {
				in.bin = bin(in.id)
			}
			fields = append(fields, in.bin, txt)
		}
		if len(fields) == 6 {
			return
		}
	}
	for i, k := range m.streams {
		f := fields
		if i < len(m.streams)-1 {
			f = append(l.args.slice(len(fields)), fields...)
		}
		f[1] = k
		l.cur.add(f...)
		l.cur.expire[k] = true
		l.stats.Values++
	}
}

// plainTCP is a client of one server over TCP with nothing to negotiate
// (no password, TLS or database), which the loader's
// own RESP pipelines can reach directly.
func plainTCP(o *redis.Options) bool {
	return (o.Network == "" || o.Network == "tcp") && o.Password == "" && o.Username == "" &&
		o.TLSConfig == nil && o.DB == 0 && o.CredentialsProvider == nil
}
