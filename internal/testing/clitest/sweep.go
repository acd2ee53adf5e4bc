package clitest

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

// Sweep draws random command lines over PCP's QA archives: archives
// (single, multi-volume, compressed, damaged, directories and lists),
// metric names from each archive's own namespace and the forms a user
// types (leaves, non-leaves, instance specifications, names that do not
// exist), times and intervals in PCP's syntax. Its seed is logged and
// GOPCP_SWEEP_SEED repeats a run; GOPCP_SWEEP sets how many cases a
// tool's sweep makes. Without GOPCP_SWEEP_SEED the seed is
// DefaultSweepSeed; GOPCP_SWEEP_SEED=random draws one. A Sweep is for
// one goroutine.
type Sweep struct {
	*rand.Rand
	Seed     uint64
	N        int
	archives []string
	nowhere  string // a host:port nothing listens on, for Extra's "-h"
}

// NewSweep seeds a sweep for t, with n cases unless GOPCP_SWEEP says.
func NewSweep(t *testing.T, n int) *Sweep {
	t.Helper()
	pcptest.NeedTool(t, "pminfo")
	// a fixed seed unless asked: CI runs the same cases every time, and
	// a difference found stays found
	seed := uint64(DefaultSweepSeed)
	if s := os.Getenv("GOPCP_SWEEP_SEED"); s == "random" {
		seed = rand.Uint64()
	} else if s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("GOPCP_SWEEP_SEED: %v", err)
		}
		seed = v
	}
	if s := os.Getenv("GOPCP_SWEEP"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			t.Fatalf("GOPCP_SWEEP=%q: want a count of cases", s)
		}
		n = v
	}
	t.Logf("seed %d (GOPCP_SWEEP_SEED=%d repeats this run), %d cases", seed, seed, n)
	return &Sweep{Rand: rand.New(rand.NewPCG(seed, 0x5eed)), Seed: seed, N: n, archives: qaArchives(t),
		nowhere: "localhost:" + strconv.Itoa(testbed.ReservedPort(t))}
}

// DefaultSweepSeed is the seed of a sweep run without GOPCP_SWEEP_SEED.
const DefaultSweepSeed = 1

var archiveFile = regexp.MustCompile(`^(.*)\.meta(\.[a-z0-9]+)?$`)

// qaArchives lists every archive of the QA directory by its base name,
// and the directories of archives.
func qaArchives(t *testing.T) []string {
	ents, err := os.ReadDir(QAArchives)
	if err != nil {
		pcptest.Missing(t, "QA archives are not installed (pcp-testsuite)")
	}
	seen := map[string]bool{}
	var out []string
	for _, e := range ents {
		p := filepath.Join(QAArchives, e.Name())
		if e.IsDir() {
			out = append(out, p)
			continue
		}
		if m := archiveFile.FindStringSubmatch(e.Name()); m != nil && !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, filepath.Join(QAArchives, m[1]))
		}
	}
	if len(out) == 0 {
		pcptest.Missing(t, "no QA archives in "+QAArchives)
	}
	sort.Strings(out)
	return out
}

// Archive draws an archive: mostly one, sometimes a list of archives
// of one host given with commas.
func (s *Sweep) Archive() string {
	if s.IntN(20) == 0 {
		vm := []string{"multi-vm00", "multi-vm01", "multi-vm02", "multi-vm03"}
		s.Shuffle(len(vm), func(i, j int) { vm[i], vm[j] = vm[j], vm[i] })
		k := 2 + s.IntN(3)
		for i := range vm[:k] {
			vm[i] = filepath.Join(QAArchives, vm[i])
		}
		return strings.Join(vm[:k], ",")
	}
	return s.archives[s.IntN(len(s.archives))]
}

// Pick draws one of xs.
func (s *Sweep) Pick(xs ...string) string { return xs[s.IntN(len(xs))] }

// Maybe is true with probability 1/n.
func (s *Sweep) Maybe(n int) bool { return s.IntN(n) == 0 }

var (
	namesMu    sync.Mutex
	namesCache = map[string][]string{}
	instCache  = map[string][]string{}
)

// Names is the archive's namespace (its leaves), read by package
// archive for one archive and by PCP's pminfo for a directory or a list;
// empty for an archive that does not open.
func (s *Sweep) Names(t *testing.T, archive string) []string {
	namesMu.Lock()
	defer namesMu.Unlock()
	if n, ok := namesCache[archive]; ok {
		return n
	}
	var names []string
	if a := openArchive(archive); a != nil {
		names, _ = a.Meta.Traverse("")
		a.Close()
	} else if st, err := os.Stat(archive); err != nil || st.IsDir() {
		names = strings.Fields(pcpOutput(t, "pminfo", "-a", archive))
	}
	namesCache[archive] = names
	return names
}

// openArchive opens a single archive, nil for a list, a directory or
// one that does not open.
func openArchive(name string) *archive.Archive {
	if strings.Contains(name, ",") {
		return nil
	}
	if st, err := os.Stat(name); err == nil && st.IsDir() {
		return nil
	}
	a, err := archive.Open(name, archive.Options{})
	if err != nil {
		return nil
	}
	return a
}

var quoted = regexp.MustCompile(`"([^"]*)"`)

// Instances are the external instance names of a metric's instance
// domain in the archive (the latest record of it).
func (s *Sweep) Instances(t *testing.T, archive, metric string) []string {
	key := archive + "\x00" + metric
	namesMu.Lock()
	defer namesMu.Unlock()
	if n, ok := instCache[key]; ok {
		return n
	}
	var insts []string
	if a := openArchive(archive); a != nil {
		if pmid, err := a.Meta.LookupName(metric); err == nil {
			if d, err := a.Meta.Desc(pmid); err == nil && d.InDom != pcp.InDomNull {
				if id, err := a.Meta.LatestInDom(d.InDom); err == nil {
					insts = id.Names
				}
			}
		}
		a.Close()
	} else {
		for _, m := range quoted.FindAllStringSubmatch(pcpOutput(t, "pmprobe", "-I", "-a", archive, metric), -1) {
			insts = append(insts, m[1])
		}
	}
	instCache[key] = insts
	return insts
}

func pcpOutput(t *testing.T, tool string, args ...string) string {
	cmd := exec.Command(pcptest.NeedTool(t, tool), args...)
	cmd.Env = append(os.Environ(), ArchiveEnv...)
	var out bytes.Buffer
	cmd.Stdout = &out
	_ = cmd.Run() // a damaged archive's names are those before the damage
	return out.String()
}

// Leaf draws a leaf of the archive's namespace, or a made-up name when
// PCP finds none.
func (s *Sweep) Leaf(t *testing.T, archive string) string {
	names := s.Names(t, archive)
	if len(names) == 0 {
		return s.Pick("sample.long.one", "kernel.all.load", "no.such.metric")
	}
	return names[s.IntN(len(names))]
}

// Metric draws a metric operand as users type them: mostly a leaf,
// otherwise a non-leaf, the root's first level, an instance
// specification (when inst is true: name[inst] with one or two of the
// metric's instances, or one that is not there), a leaf with a bad
// last component, or a name not in the namespace at all.
func (s *Sweep) Metric(t *testing.T, archive string, inst bool) string {
	leaf := s.Leaf(t, archive)
	switch k := s.IntN(20); {
	case k < 12:
		return leaf
	case k < 14:
		if i := strings.LastIndexByte(leaf, '.'); i > 0 {
			return leaf[:i]
		}
		return leaf
	case k == 14:
		head, _, _ := strings.Cut(leaf, ".")
		return head
	case k < 18 && inst:
		insts := s.Instances(t, archive, leaf)
		switch {
		case len(insts) == 0 || s.Maybe(4):
			return leaf + "[" + s.Pick("nosuch", "1", `"a b"`, "") + "]"
		case len(insts) > 1 && s.Maybe(2):
			return leaf + `["` + insts[s.IntN(len(insts))] + `","` + insts[s.IntN(len(insts))] + `"]`
		default:
			in := insts[s.IntN(len(insts))]
			if !strings.ContainsAny(in, " ,]\"") && s.Maybe(2) {
				return leaf + "[" + in + "]"
			}
			return leaf + `["` + in + `"]`
		}
	case k == 18:
		return leaf + ".nosuch"
	default:
		return s.Pick("no.such.metric", "nosuch", "sample", "kernel.all.load.", "a..b", "9bad", "pmcd.pmlogger.host")
	}
}

// Interval draws a sampling interval in PCP's syntax.
func (s *Sweep) Interval() string {
	return s.Pick("1", "0.5", "2", "5", "10", "30", "60", "0.25", "1.5", "7",
		"1s", "1sec", "2min", "1m", "1h", "1hour", "100msec", "250ms", "1 min", "1day",
		"0", "-1", "abc", "1x", "1.5min", "2m30s")
}

// Offset draws a time for -S, -T or -O: offsets from the window's ends
// in PCP's units, sometimes an absolute time or a malformed one.
func (s *Sweep) Offset() string {
	switch k := s.IntN(12); {
	case k < 4:
		return "+" + s.Pick("0", "1", "5", "10", "30", "45", "90", "0.5", "2.5")
	case k < 7:
		return s.Pick("+", "-", "") + s.Pick("1min", "2m", "30sec", "10s", "1h", "1hour", "3hours", "1day", "250msec", "2m30s")
	case k < 9:
		return "-" + s.Pick("0", "1", "5", "10", "30", "60", "600")
	case k == 9:
		return s.Pick("@00:00", "@12:00:00", "@ 10:30", "@Thu Nov 25 05:01:00 2004", "@2015-05-08 11:45:00",
			"@Mon Aug 18 13:00:00 2014", "@1970-01-01", "@tomorrow")
	case k == 10:
		return s.Pick("10", "60", "3600")
	default:
		return s.Pick("x", "+-1", "@notatime", "+1y", "")
	}
}

// Align draws an alignment for -A.
func (s *Sweep) Align() string {
	return s.Pick("1", "5", "10", "1min", "15min", "1h", "1hour", "2s", "0", "x")
}

// Zone draws a time zone option: -z or -Z with a zone.
func (s *Sweep) Zone() []string {
	if s.Maybe(2) {
		return []string{"-z"}
	}
	return []string{"-Z", s.Pick("UTC", "EST-10", "AEST-10AEDT", "America/New_York", "Australia/Melbourne", ":Europe/Berlin", "GMT+5", "XYZ")}
}

// Window draws a random subset of the time window and zone options,
// each option with its value as one group.
func (s *Sweep) Window() [][]string {
	var g [][]string
	if s.Maybe(3) {
		g = append(g, []string{"-S", s.Offset()})
	}
	if s.Maybe(4) {
		g = append(g, []string{"-T", s.Offset()})
	}
	if s.Maybe(6) {
		g = append(g, []string{"-O", s.Offset()})
	}
	if s.Maybe(8) {
		g = append(g, []string{"-A", s.Align()})
	}
	if s.Maybe(6) {
		g = append(g, s.Zone())
	}
	return g
}

// Shuffled returns the option groups in a random order, flattened, so
// that options come in the orders users give them.
func (s *Sweep) Shuffled(groups [][]string) []string {
	s.Shuffle(len(groups), func(i, j int) { groups[i], groups[j] = groups[j], groups[i] })
	var out []string
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// stdLong are the long names of PCP's standard options.
var stdLong = map[string]string{
	"-a": "--archive", "-h": "--host", "-S": "--start", "-T": "--finish",
	"-O": "--origin", "-A": "--align", "-Z": "--timezone", "-z": "--hostzone",
	"-s": "--samples", "-t": "--interval", "-n": "--namespace",
}

// Spell writes some option groups in their long forms (--name=value or
// --name value), with the tool's own long names beside PCP's standard
// ones; a tool's "" is an option without a long name.
func (s *Sweep) Spell(groups [][]string, long map[string]string) [][]string {
	for i, g := range groups {
		if len(g) == 0 || !s.Maybe(6) {
			continue
		}
		name, ok := long[g[0]]
		if !ok {
			name, ok = stdLong[g[0]]
		}
		if !ok || name == "" {
			continue
		}
		switch {
		case len(g) == 1:
			groups[i] = []string{name}
		case s.Maybe(2):
			groups[i] = []string{name + "=" + g[1]}
		default:
			groups[i] = []string{name, g[1]}
		}
	}
	return groups
}

// Extra draws an option users add by mistake or rarely: a second source,
// conflicting zones, the version or help, a namespace file, an unknown
// option. (Not -L: in-process agents are ours, their help our words.)
// The second source's host is a private port reserved to the test's end,
// which nothing listens on.
func (s *Sweep) Extra(archive string) []string {
	switch s.IntN(8) {
	case 0:
		return []string{"-h", s.nowhere}
	case 1:
		return []string{"-a", s.Archive()}
	case 2:
		return []string{"-z", "-Z", "UTC"}
	case 3:
		return []string{"-V"}
	case 4:
		return []string{"-?"}
	case 5:
		return []string{"-n", filepath.Join(QAArchives, "bigace.pmns")}
	case 6:
		return []string{"-n", "/nonexistent/pmns"}
	default:
		return []string{s.Pick("-q", "--nosuch", "-K", "--container=x")}
	}
}
