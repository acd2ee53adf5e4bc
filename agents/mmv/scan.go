package mmv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/mmv/mmvfile"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/pmns"
)

// Limits pmdammv sets: the largest cluster a file may ask for (12 bits),
// the largest item (10 bits), and the most entries of a section it takes
// (more, and it ignores the whole section).
const (
	maxCluster = 1<<12 - 1
	maxItem    = 1<<10 - 1
)

// sectionLimit is the most entries a table of contents section of that
// type may hold. (A switch and a constant error below, not a map and
// fmt.Errorf: those run at package init, which every tool linking the
// agent for -L would pay.)
func sectionLimit(typ int32) (int32, bool) {
	switch typ {
	case mmv.TOCMetrics:
		return maxItem, true
	case mmv.TOCInDoms:
		return 1<<22 - 1, true
	case mmv.TOCLabels:
		return 1<<8 - 1, true
	}
	return 0, false
}

// maxFiles bounds the directory entries one scan looks at.
const maxFiles = 1 << 16

// maxFileSize is the largest file the agent maps: a file libpcp_mmv or
// package mmv writes within parseLimits is far smaller (a string slot,
// the largest record, is 256 bytes: 2^19 of them are 128 MiB).
const maxFileSize = 1 << 28

// parseLimits bound what one file may make the agent decode (see
// mmvfile.Limits); a file beyond them is skipped with a log line.
var parseLimits = mmvfile.Limits{TOC: 64, Section: 1 << 17, Total: 1 << 19}

// state is what one scan of the directory found.
type state struct {
	files   []*source
	names   *pmns.Tree
	metrics map[pcp.PMID]*metric
	indoms  map[pcp.InDom]*indom
}

// source is one mapped file.
type source struct {
	name    string
	f       *mmvfile.File
	cluster uint32
	pid     int32 // the writer's, for a Process-flagged file
	gen     uint64
	metrics []mmvfile.Metric // the metrics section pmdammv uses, if in range
	values  []mmvfile.Value
	labels  []mmvfile.Label
	// path, dev and ino name the mapped file, so that a fetch can tell
	// whether it was cut short under the mapping (see cut); pathz is
	// path NUL-terminated, as statPath takes it.
	path     string
	pathz    []byte
	dev, ino uint64
}

// cut reports whether the mapped file is now shorter than its mapping:
// reads past its end within the last page then give zeros, not a fault.
// A file removed or replaced leaves the mapping whole.
func (src *source) cut() bool {
	var st syscall.Stat_t
	if statPath(src.pathz, &st) != nil || st.Dev != src.dev || st.Ino != src.ino {
		return false
	}
	return st.Size < int64(len(src.f.B))
}

// metric is a served metric: its descriptor and the file it came from.
type metric struct {
	desc pcp.Desc
}

type indom struct {
	insts  []pmda.Instance
	known  map[int32]bool // the instances' numbers, for merging
	labels []pcp.LabelSet // the instances' label sets, built once
}

func (a *agent) emptyState() *state {
	s := &state{names: pmns.New(), metrics: map[pcp.PMID]*metric{}, indoms: map[pcp.InDom]*indom{}}
	for i, n := range []string{"reload", "debug", "files"} {
		_ = s.names.Add(a.prefix+".control."+n, pcp.NewPMID(a.domain, 0, uint32(i)))
	}
	return s
}

// metric is the descriptor of pmid: a control metric's or a file's.
func (s *state) metric(pmid pcp.PMID) *metric {
	if pmid.Cluster() == 0 && pmid.Item() <= 2 {
		return &metric{desc: pcp.Desc{PMID: pmid, Type: pcp.Type32, InDom: pcp.InDomNull, Sem: pcp.SemInstant}}
	}
	return s.metrics[pmid]
}

func (s *state) close() {
	for _, f := range s.files {
		_ = syscall.Munmap(f.f.B)
	}
	s.files = nil
}

// scan is pmdammv's map_stats: it maps every regular, non-hidden file of
// the directory in directory order, then builds names, descriptors and
// instance domains file by file, section by section, into s, an empty
// state already in force: a fault part way through leaves the files
// mapped so far in the agent's state, released by the rescan that
// follows.
func (a *agent) scan(s *state) {
	a.reload = 0
	d, err := os.Open(a.dir)
	if err != nil {
		return
	}
	// In name order, as pmdammv's scandir sorts them (alphasort in the
	// C locale): it decides the clusters chosen, the duplicates dropped
	// and the order of names.
	ents, _ := d.ReadDir(maxFiles)
	d.Close()
	slices.SortFunc(ents, func(x, y os.DirEntry) int { return strings.Compare(x.Name(), y.Name()) })
	problems := map[string]string{}
	for _, e := range ents {
		name := e.Name()
		if name[0] == '.' {
			continue
		}
		path := filepath.Join(a.dir, name)
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		err = a.open(s, name, path, st.Size())
		if errors.Is(err, mmvfile.ErrInFlux) {
			a.reload = 1 // look again at the next request
		}
		if err != nil && !errors.Is(err, errSkip) {
			problems[name] = err.Error()
			// One line per file and problem, not one per rescan.
			if a.skipped[name] != err.Error() {
				a.log.Printf("%s: skipping %s: %v", a.prefix, path, err)
			}
		}
	}
	a.skipped = problems
	for _, src := range s.files {
		a.build(s, src)
	}
}

// errCut is a fault while parsing a mapping: the file was cut short
// after its size was taken.
var errCut error = cutError{}

type cutError struct{}

func (cutError) Error() string { return "cut short while being read: " + mmvfile.ErrFormat.Error() }
func (cutError) Unwrap() error { return mmvfile.ErrFormat }

// parseMapped parses a fresh mapping, turning a fault reading it into
// errCut, so that the file is skipped and the scan goes on (faults are
// panics under the agent's lock, see enter).
func parseMapped(b []byte) (f *mmvfile.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			f, err = nil, errCut
		}
	}()
	return mmvfile.Parse(b, parseLimits)
}

// errSkip marks files pmdammv passes over silently.
var errSkip = errors.New("skipped")

// open maps and checks one file, adding it to s.files.
func (a *agent) open(s *state, name, path string, size int64) error {
	if size < mmv.HeaderSize {
		return fmt.Errorf("%d bytes: %w", size, mmvfile.ErrFormat)
	}
	if size > maxFileSize {
		return fmt.Errorf("%d bytes, more than %d: %w", size, maxFileSize, mmvfile.ErrTooLarge)
	}
	fd, err := os.Open(path)
	if err != nil {
		return err
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(int(fd.Fd()), &st); err != nil {
		fd.Close()
		return err
	}
	b, err := syscall.Mmap(int(fd.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	fd.Close()
	if err != nil {
		return err
	}
	f, err := parseMapped(b)
	if errors.Is(err, errCut) {
		a.reload = 1 // it may be whole again by the next request
	}
	if err == nil && f.Process != 0 && f.Flags&mmv.Process != 0 && !a.alive(f.Process) {
		err = errSkip // the writer has gone
	}
	var cluster uint32
	if err == nil {
		cluster, err = chooseCluster(s, f.Cluster)
	}
	if err != nil {
		_ = syscall.Munmap(b)
		return err
	}
	src := &source{name: name, f: f, cluster: cluster, gen: f.G1, path: path,
		pathz: append([]byte(path), 0), dev: st.Dev, ino: st.Ino}
	if f.Flags&mmv.Process != 0 {
		src.pid = f.Process
	}
	s.files = append(s.files, src)
	return nil
}

// chooseCluster is pmdammv's: a requested cluster is used even when
// another file has it; none requested takes the lowest unused from 1.
func chooseCluster(s *state, requested uint32) (uint32, error) {
	if requested != 0 {
		if requested > maxCluster {
			return 0, fmt.Errorf("cluster %d: %w", requested, mmvfile.ErrFormat)
		}
		return requested, nil
	}
	next := uint32(1)
	// pmdammv restarts its scan at the second file after each hit; kept,
	// since the cluster a file gets is visible.
	for i := 0; i < len(s.files); i++ {
		if s.files[i].cluster == next {
			next++
			i = 0
		}
	}
	if next > maxCluster {
		return 0, errSkip
	}
	return next, nil
}

// build adds one file's metrics and instance domains, in TOC order, with
// pmdammv's rules: a section of more than MaxCount entries is ignored; a
// metric whose full name is not a PCP name, is taken, or whose item does
// not fit in 10 bits is dropped; instance domains already seen gain the
// instances they lack.
func (a *agent) build(s *state, src *source) {
	f := src.f
	// Parse appends each TOC entry's records in TOC order; next is where
	// the records of the next entry of each type start.
	next := map[int32]int{}
	for _, toc := range f.TOC {
		at := next[toc.Type]
		next[toc.Type] = at + int(toc.Count)
		if lim, ok := sectionLimit(toc.Type); ok && toc.Count > lim {
			continue
		}
		n := int(toc.Count)
		switch toc.Type {
		case mmv.TOCMetrics:
			src.metrics = f.Metrics[at : at+n]
			for k, m := range src.metrics {
				if m.Item > maxItem || slices.ContainsFunc(src.metrics[:k], func(o mmvfile.Metric) bool { return o.Item == m.Item }) {
					continue // an item too big, or one an earlier metric has
				}
				a.addMetric(s, src, m)
			}
		case mmv.TOCInDoms:
			// Each domain's instance count and offset are checked only
			// against the file's size, so many domains naming one large
			// range could make decoding quadratic in it: together they
			// may name no more instances than the file holds records of.
			budget := len(f.Instances)
			for _, d := range f.InDoms[at : at+n] {
				if int64(d.Count) > int64(budget) {
					a.log.Printf("%s: %s: instance domain %d: more instances than the file's %d", a.prefix, src.name, d.Serial, len(f.Instances))
					continue
				}
				budget -= int(d.Count)
				a.addInDom(s, src, d)
			}
		case mmv.TOCValues:
			src.values = f.Values[at : at+n]
		case mmv.TOCLabels:
			src.labels = f.Labels[at : at+n]
		}
	}
}

func validName(name string) bool {
	if name == "" || !isAlpha(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !isAlpha(c) && !(c >= '0' && c <= '9') && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func (a *agent) addMetric(s *state, src *source, m mmvfile.Metric) {
	name := a.prefix + "."
	if src.f.Flags&mmv.NoPrefix == 0 {
		name += src.name + "."
	}
	name += m.Name
	if !validName(name) {
		return
	}
	if _, err := s.names.Lookup(name); err == nil {
		return
	}
	pmid := pcp.NewPMID(a.domain, src.cluster, m.Item)
	desc := pcp.Desc{PMID: pmid, Type: pcp.Type(m.Type), Sem: pcp.Sem(m.Sem), Units: pcp.UnpackUnits(m.Units), InDom: pcp.InDomNull}
	if m.Type == mmv.Elapsed {
		desc.Type, desc.Sem = pcp.Type64, pcp.SemCounter
		desc.Units = pcp.Units{DimTime: 1, ScaleTime: pcp.TimeUSec}
	} else if m.Sem == 0 {
		desc.Sem = pcp.SemCounter
	}
	if m.InDom != 0 && m.InDom != 0xffffffff {
		desc.InDom = pcp.NewInDom(a.domain, (src.cluster<<11|m.InDom)&(1<<22-1))
	}
	if _, dup := s.metrics[pmid]; !dup {
		s.metrics[pmid] = &metric{desc: desc}
	}
	_ = s.names.Add(name, pmid)
}

func (a *agent) addInDom(s *state, src *source, d mmvfile.InDom) {
	if d.Serial >= 1<<22 {
		return
	}
	ins, err := src.f.InstancesAt(d.First, d.Count)
	if err != nil {
		a.log.Printf("%s: %s: instance domain %d: %v", a.prefix, src.name, d.Serial, err)
		return
	}
	id := pcp.NewInDom(a.domain, (src.cluster<<11|d.Serial)&(1<<22-1))
	dom := s.indoms[id]
	if dom == nil {
		dom = &indom{known: map[int32]bool{}}
		s.indoms[id] = dom
	}
	for _, in := range ins {
		if !dom.known[in.Internal] {
			dom.known[in.Internal] = true
			dom.insts = append(dom.insts, pmda.Instance{ID: in.Internal, Name: in.External})
		}
	}
}
