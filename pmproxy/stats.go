package pmproxy

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/mmv/mmvfile"
	"github.com/gopcp/gopcp/pcp"
)

// pmproxy's own metrics are MMV files in $PCP_TMP_DIR/pmproxy, which the
// pmproxy_init agent (domain 4) serves as pmproxy.*: "server" (cluster 1,
// no prefix: pmproxy.pid, pmproxy.cpu.user, ...) and "webgroup" (cluster
// 7: pmproxy.webgroup.gc.context.scans, ...), with PCP 6.0.3's names,
// clusters, items, types, semantics and units. PCP's pmproxy writes its
// redis, series, search and discover files only when Redis is on, and a
// "pcp" and "http" file with no metrics; ours has no Redis.
const (
	statsServer   = "server"
	statsWebgroup = "webgroup"
)

// Stats is pmproxy's instrumentation: the server file, refreshed by Run,
// and the webgroup file, set by Sweep.
type Stats struct {
	dir              string
	server, webgroup *mmv.Registry // webgroup nil until StartWebgroup

	cpuUser, cpuSys, cpuTotal *mmv.Value
	maxRSS, dataSize          *mmv.Value
	gcScans, gcDrops          *mmv.Value

	mu        sync.Mutex
	dataStart uint64 // the Go runtime's mapped bytes at the first refresh
	sample    []metrics.Sample
}

// ErrStatsOwned is a stats file another live process writes (another
// pmproxy on the same PCP_TMP_DIR): it is left alone.
var ErrStatsOwned = errors.New("pmproxy: statistics file belongs to another live process")

// StartStats writes pmproxy's server statistics file in dir
// ($PCP_TMP_DIR/pmproxy), which must exist, as PCP's pmproxy needs it to
// (its packaging makes it); StartWebgroup adds the webgroup file. A file
// there that another live process writes is not touched: ErrStatsOwned.
// Close removes the files.
func StartStats(dir string) (*Stats, error) {
	for _, name := range []string{statsServer, statsWebgroup} {
		if err := checkOwner(filepath.Join(dir, name)); err != nil {
			return nil, err
		}
	}
	s := &Stats{dir: dir}
	var err error
	s.server, err = mmv.New(statsServer, mmv.Options{Dir: dir, Cluster: 1, Flags: mmv.Process | mmv.NoPrefix})
	if err != nil {
		return nil, err
	}
	pid := os.Getpid()
	none := pcp.Units{}
	msec := pcp.Units{DimTime: 1, ScaleTime: pcp.TimeMSec}
	kbyte := pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceKByte}
	var pidValue *mmv.Value
	var discard [4]*mmv.Value
	// PCP's help texts are facts about each metric; ours say the same in
	// our words, and where ours are computed differently.
	err = addStats(s.server, []statDef{
		{0, "pid", mmv.Uint32, mmv.SemDiscrete, none, "pmproxy's process identifier",
			"The process identifier of this pmproxy", []mmv.Label{{Name: "pid", Value: strconv.Itoa(pid)}}, &pidValue},
		{1, "cpu.user", mmv.Uint64, mmv.SemCounter, msec, "user CPU time",
			"CPU time this process has spent in user mode (getrusage(2))", nil, &s.cpuUser},
		{2, "cpu.sys", mmv.Uint64, mmv.SemCounter, msec, "system CPU time",
			"CPU time this process has spent in the kernel (getrusage(2))", nil, &s.cpuSys},
		{3, "cpu.total", mmv.Uint64, mmv.SemCounter, msec, "user and system CPU time",
			"CPU time this process has spent in user mode and in the kernel (getrusage(2))", nil, &s.cpuTotal},
		{4, "mem.maxrss", mmv.Uint64, mmv.SemInstant, kbyte, "largest resident set size",
			"The largest resident set size this process has had (getrusage(2))", nil, &s.maxRSS},
		{5, "mem.datasz", mmv.Uint64, mmv.SemInstant, kbyte, "data size grown since start",
			"Memory the Go runtime has mapped for this process beyond what it had at the first refresh (PCP's pmproxy counts the growth of its break, sbrk(2))", nil, &s.dataSize},
		{6, "map.context.size", mmv.Uint32, mmv.SemInstant, none, "entries in the context map",
			"Entries in the reverse map of context names, which only the series store (Redis) fills: zero here", nil, &discard[0]},
		{7, "map.metric.size", mmv.Uint32, mmv.SemInstant, none, "entries in the metric names map",
			"Entries in the reverse map of metric names, which only the series store (Redis) fills: zero here", nil, &discard[1]},
		{8, "map.label.size", mmv.Uint32, mmv.SemInstant, none, "entries in the label names map",
			"Entries in the reverse map of label names, which only the series store (Redis) fills: zero here", nil, &discard[2]},
		{9, "map.instance.size", mmv.Uint32, mmv.SemInstant, none, "entries in the instance names map",
			"Entries in the reverse map of instance names, which only the series store (Redis) fills: zero here", nil, &discard[3]},
	})
	if err != nil {
		return nil, err
	}
	if err := s.server.Start(); err != nil {
		return nil, err
	}
	pidValue.SetUint(uint64(pid))
	s.sample = []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	s.Refresh()
	return s, nil
}

// StartWebgroup writes the webgroup statistics file beside the server
// file. PCP's pmproxy makes it once it has switched user (the server file
// before), so a daemon's is its service user's.
func (s *Stats) StartWebgroup() error {
	if err := checkOwner(filepath.Join(s.dir, statsWebgroup)); err != nil {
		return err
	}
	r, err := mmv.New(statsWebgroup, mmv.Options{Dir: s.dir, Cluster: 7, Flags: mmv.Process})
	if err != nil {
		return err
	}
	none := pcp.Units{}
	var scans, drops *mmv.Value
	err = addStats(r, []statDef{
		{1, "gc.context.scans", mmv.Uint32, mmv.SemInstant, none, "contexts looked at by the last sweep",
			"Web contexts the most recent sweep of expired contexts looked at", nil, &scans},
		{2, "gc.context.drops", mmv.Uint32, mmv.SemInstant, none, "contexts forgotten by the last sweep",
			"Web contexts the most recent sweep of expired contexts forgot", nil, &drops},
	})
	if err == nil {
		err = r.Start()
	}
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.webgroup, s.gcScans, s.gcDrops = r, scans, drops
	s.mu.Unlock()
	return nil
}

// statDef is one metric of a statistics file.
type statDef struct {
	item   uint32
	name   string
	typ    mmv.Type
	sem    mmv.Semantics
	units  pcp.Units
	short  string
	help   string
	labels []mmv.Label
	dst    **mmv.Value
}

func addStats(r *mmv.Registry, defs []statDef) error {
	for _, d := range defs {
		m, err := r.AddMetric(d.name, d.typ, d.sem, mmv.MetricOptions{
			Item: d.item, ZeroItem: d.item == 0, Units: d.units, ShortHelp: d.short, LongHelp: d.help, Labels: d.labels,
		})
		if err != nil {
			return err
		}
		*d.dst = m.Value()
	}
	return nil
}

// checkOwner refuses a file whose header names another process that is
// alive, as written with the Process flag.
func checkOwner(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	f, err := mmvfile.Parse(b, mmvfile.Limits{})
	if err != nil || f.Flags&mmv.Process == 0 || f.Process <= 0 || int(f.Process) == os.Getpid() {
		return nil // not a live writer's: replaced as libpcp_mmv replaces it
	}
	if ownfile.Alive(int(f.Process)) {
		return fmt.Errorf("%w: %s (process %d)", ErrStatsOwned, path, f.Process)
	}
	return nil
}

// Refresh sets the server file's process figures.
func (s *Stats) Refresh() {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		usr := uint64(ru.Utime.Nano() / 1e6)
		sys := uint64(ru.Stime.Nano() / 1e6)
		s.cpuUser.SetUint(usr)
		s.cpuSys.SetUint(sys)
		s.cpuTotal.SetUint(usr + sys)
		s.maxRSS.SetUint(uint64(ru.Maxrss)) // kilobytes on Linux
	}
	metrics.Read(s.sample)
	if s.sample[0].Value.Kind() == metrics.KindUint64 {
		total := s.sample[0].Value.Uint64()
		if s.dataStart == 0 {
			s.dataStart = total
		}
		if total > s.dataStart {
			s.dataSize.SetUint((total - s.dataStart) / 1024)
		} else {
			s.dataSize.SetUint(0)
		}
	}
}

// Run refreshes the server file every interval (PCP's pmproxy: every
// second) until ctx ends.
func (s *Stats) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.Refresh()
		}
	}
}

// Sweep records a sweep of expired web contexts (webapi.Options.OnSweep)
// in the webgroup file, once StartWebgroup has made it.
func (s *Stats) Sweep(scanned, dropped int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.webgroup == nil {
		return
	}
	s.gcScans.SetUint(uint64(min(scanned, 1<<32-1)))
	s.gcDrops.SetUint(uint64(min(dropped, 1<<32-1)))
}

// Close removes the files.
func (s *Stats) Close() error {
	err := s.server.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.webgroup != nil {
		err = errors.Join(err, s.webgroup.Close())
	}
	return err
}
