package webapi

import (
	"context"

	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// cache is what a web context knows of its host's metadata, kept as
// libpcp_web keeps it (domains, clusters, instance domains with their
// instances, metrics by name and by PMID), because pmproxy's answers depend
// on it: labels are merged from the levels loaded when a metric's or an
// instance's labels are first computed, and later answers keep them.
type cache struct {
	metrics  map[string]*metric
	pmids    map[pcp.PMID]*metric
	indoms   map[pcp.InDom]*indom
	domains  map[uint32]*domain
	clusters map[uint32]*cluster
	insts    int // instances kept, for the bound
}

func (c *cache) init() {
	*c = cache{
		metrics:  make(map[string]*metric),
		pmids:    make(map[pcp.PMID]*metric),
		indoms:   make(map[pcp.InDom]*indom),
		domains:  make(map[uint32]*domain),
		clusters: make(map[uint32]*cluster),
	}
}

func (c *cache) size() int { return len(c.pmids) + c.insts }

type domain struct {
	id       uint32
	labelset *pcp.LabelSet
}

type cluster struct {
	id       pcp.PMID // domain.cluster.0
	domain   *domain
	labelset *pcp.LabelSet
}

type indom struct {
	id       pcp.InDom
	domain   *domain
	labelset *pcp.LabelSet
	updated  bool
	insts    *instDict // in pmproxy's hash table order
	labels   string    // merged, computed once
	oneline  *string
	help     *string
}

type instance struct {
	inst     int32
	name     string
	labelset *pcp.LabelSet
	labels   string // merged when the instance was first seen
	updated  bool
}

// metric is one metric with every name the namespace gives it, and the
// values of the last fetch.
type metric struct {
	desc     pcp.Desc
	names    []string
	indom    *indom
	cluster  *cluster
	labelset *pcp.LabelSet
	labels   string // merged, computed once
	oneline  *string
	help     *string

	updated bool
	value   string   // a singular metric's value, encoded
	values  []*value // an instance domain's, in the order first seen
}

type value struct {
	inst    int32
	updated bool
	text    string
}

func (w *webContext) addDomain(id uint32) *domain {
	if d := w.cache.domains[id]; d != nil {
		return d
	}
	d := &domain{id: id}
	w.cache.domains[id] = d
	return d
}

func (w *webContext) addCluster(d *domain, pmid pcp.PMID) *cluster {
	key := pcp.NewPMID(d.id, pmid.Cluster(), 0)
	if c := w.cache.clusters[uint32(key)]; c != nil {
		return c
	}
	c := &cluster{id: key, domain: d}
	w.cache.clusters[uint32(key)] = c
	return c
}

func (w *webContext) addInDom(d *domain, id pcp.InDom) *indom {
	if id == pcp.InDomNull {
		return nil
	}
	if ip := w.cache.indoms[id]; ip != nil {
		return ip
	}
	ip := &indom{id: id, domain: d, insts: newInstDict()}
	w.cache.indoms[id] = ip
	return ip
}

// lookupMetric finds a metric by name, asking pmcd for what it lacks.
func (w *webContext) lookupMetric(ctx context.Context, name string) *metric {
	if m := w.cache.metrics[name]; m != nil {
		return m
	}
	pmid, err := w.src.LookupName(ctx, name)
	if err != nil {
		return nil
	}
	return w.newPMID(ctx, name, pmid)
}

// lookupPMID finds a metric by PMID.
func (w *webContext) lookupPMID(ctx context.Context, pmid pcp.PMID) *metric {
	if m := w.cache.pmids[pmid]; m != nil {
		return m
	}
	return w.newPMID(ctx, "", pmid)
}

func (w *webContext) newPMID(ctx context.Context, name string, pmid pcp.PMID) *metric {
	desc, err := w.src.LookupDesc(ctx, pmid)
	if err != nil {
		return nil
	}
	names, err := w.src.NameAll(ctx, pmid)
	if err != nil || len(names) == 0 {
		return nil
	}
	if m := w.cache.pmids[desc.PMID]; m != nil {
		// Another name of a metric already known: the first of its
		// names the cache has wins, as pmwebapi_add_metric finds it.
		for _, n := range names {
			if mm := w.cache.metrics[n]; mm != nil {
				return mm
			}
		}
		return m
	}
	m := &metric{desc: desc}
	m.names = append(m.names, names...)
	extra := name != ""
	for _, n := range names {
		if n == name {
			extra = false
		}
	}
	if extra {
		m.names = append(m.names, name)
	}
	d := w.addDomain(desc.PMID.Domain())
	m.indom = w.addInDom(d, desc.InDom)
	m.cluster = w.addCluster(d, desc.PMID)
	m.value = zeroValue(desc.Type)
	for _, n := range m.names {
		w.cache.metrics[n] = m
	}
	w.cache.pmids[desc.PMID] = m
	return m
}

func (w *webContext) domainLabels(ctx context.Context, d *domain) {
	if d.labelset == nil {
		d.labelset = firstSet(w.src.DomainLabels(ctx, d.id))
	}
}

func (w *webContext) clusterLabels(ctx context.Context, c *cluster) {
	if c.labelset == nil {
		c.labelset = firstSet(w.src.ClusterLabels(ctx, c.id))
	}
}

func (w *webContext) itemLabels(ctx context.Context, m *metric) {
	if m.labelset == nil {
		m.labelset = firstSet(w.src.ItemLabels(ctx, m.desc.PMID))
	}
}

// instanceLabels merges what is loaded above an instance (and its own set)
// as instance_labelsets does.
func (w *webContext) instanceLabels(ip *indom, in *instance) string {
	var own *pcp.LabelSet
	if in != nil {
		own = in.labelset
	}
	return webid.IdentifyingLabels([]*pcp.LabelSet{w.labelset, ip.domain.labelset, ip.labelset, own})
}

// addInstance records an instance (pmwebapi_add_instance: a lookup, then
// an insertion when it is new), its labels merged now and kept.
func (w *webContext) addInstance(ip *indom, inst int32, name string) *instance {
	if in := ip.insts.find(inst); in != nil {
		in.name = name
		return in
	}
	return w.newInstance(ip, inst, name)
}

// newInstance inserts an instance without looking first
// (pmwebapi_new_instance).
func (w *webContext) newInstance(ip *indom, inst int32, name string) *instance {
	in := &instance{inst: inst, name: name}
	in.labels = w.instanceLabels(ip, in)
	ip.insts.add(in)
	w.cache.insts++
	return in
}

// indomInstances refreshes an instance domain's instances and returns how
// many pmcd listed (pmwebapi_add_indom_instances).
func (w *webContext) indomInstances(ctx context.Context, ip *indom) int {
	ip.insts.each(func(in *instance) { in.updated = false })
	list, err := w.src.GetInDom(ctx, ip.id)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range list {
		if e.Name == "" {
			continue
		}
		w.addInstance(ip, e.Inst, e.Name).updated = true
		n++
	}
	return n
}

// instancesLabels loads the instance domain's labels and its instances'
// (pmwebapi_add_instances_labels).
func (w *webContext) instancesLabels(ctx context.Context, ip *indom) {
	if ip.labelset == nil {
		sets, err := w.src.InDomLabels(ctx, ip.id)
		ip.labelset = firstSet(sets, err)
		if err != nil {
			ip.updated = false
		}
	}
	if ip.updated {
		return
	}
	sets, err := w.src.InstancesLabels(ctx, ip.id)
	for i := range sets {
		if sets[i].NLabels <= 0 {
			continue
		}
		if in := ip.insts.find(sets[i].Inst); in != nil {
			s := sets[i]
			in.labelset = &s
		}
	}
	if err == nil {
		ip.updated = true
	}
}

// indomLabels computes the instance domain's merged labels once.
func (w *webContext) indomLabels(ip *indom) {
	if ip.labels == "" {
		ip.labels = w.instanceLabels(ip, nil)
	}
}

// lookupInstance asks pmcd for an instance the cache lacks.
func (w *webContext) lookupInstance(ctx context.Context, ip *indom, inst int32) *instance {
	name, err := w.src.NameInDom(ctx, ip.id, inst)
	if err != nil || name == "" {
		return nil
	}
	return w.newInstance(ip, inst, name)
}

// metricLabels computes a metric's merged labels once.
func (w *webContext) metricLabels(m *metric) string {
	if m.labels == "" {
		var ils *pcp.LabelSet
		if m.indom != nil {
			ils = m.indom.labelset
		}
		m.labels = webid.IdentifyingLabels([]*pcp.LabelSet{w.labelset, m.cluster.domain.labelset, ils, m.cluster.labelset, m.labelset})
	}
	return m.labels
}

// series is the identifier of one of a metric's names.
func (w *webContext) series(m *metric, name string) string {
	return webid.MetricID(name, w.metricLabels(m), m.desc.Sem.String(), m.desc.Type.String(), m.desc.Units.String()).String()
}

func (w *webContext) metricHelp(ctx context.Context, m *metric) {
	if m.oneline == nil {
		if t, err := w.src.LookupText(ctx, m.desc.PMID, pmapi.TextOneLine); err == nil {
			m.oneline = &t
		}
	}
	if m.help == nil {
		if t, err := w.src.LookupText(ctx, m.desc.PMID, pmapi.TextHelp); err == nil {
			m.help = &t
		}
	}
}

func (w *webContext) indomHelp(ctx context.Context, ip *indom) {
	if ip.oneline == nil {
		if t, err := w.src.LookupInDomText(ctx, ip.id, pmapi.TextOneLine); err == nil {
			ip.oneline = &t
		}
	}
	if ip.help == nil {
		if t, err := w.src.LookupInDomText(ctx, ip.id, pmapi.TextHelp); err == nil {
			ip.help = &t
		}
	}
}
