package pmcd_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// bedStarters are the two daemons the live tests compare.
var bedStarters = []struct {
	name  string
	start func(testing.TB, testbed.Options) *testbed.PMCD
}{{"PCP", testbed.StartPMCD}, {"gopcp", testbed.StartGoPMCD}}

// childOf finds the live process (not a zombie) whose parent is pid and
// whose command line, its arguments each followed by a space, contains
// word; 0 for none.
func childOf(t *testing.T, pid int, word string) int {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		stat, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		// The parent pid is the field after the ")" that ends the name.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(pid) || f[0] == "Z" {
			continue
		}
		cmd, _ := os.ReadFile(d + "/cmdline")
		if strings.Contains(strings.ReplaceAll(string(cmd), "\x00", " "), word) {
			n, _ := strconv.Atoi(filepath.Base(d))
			return n
		}
	}
	return 0
}

// eventually runs check until it reports true, for at most 45 seconds:
// pmcd acts on a signal in its own time, slowly on a loaded machine.
func eventually(t *testing.T, what string, check func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		ok, last := check()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %s", what, last)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// processGone reports whether pid has exited: no such process, or a
// zombie its parent has not yet waited for (PCP's pmcd reaps its agents
// when it gets round to it).
func processGone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) > 0 && f[0] == "Z"
}

// TestKilledAgentBackAfterSIGHUP kills the sample agent of PCP's pmcd
// and of ours, with automatic restarts off: the other agent still
// answers, sample's metrics give PM_ERR_NOAGENT in PCP's words, and
// after SIGHUP sample is back. Both daemons must print the same.
func TestKilledAgentBackAfterSIGHUP(t *testing.T) {
	t.Parallel()
	outs := compareAtEnd(t)
	for _, b := range bedStarters {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			bed := b.start(t, testbed.Options{Env: []string{"PMCD_RESTART_AGENTS=0"}})
			pid := childOf(t, bed.PID(), "pmdasample")
			if pid == 0 {
				t.Fatal("no sample agent process")
			}
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			eventually(t, "sample after SIGKILL", func() (bool, string) {
				res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.long.one", "pmcd.version")
				want := "sample.long.one\nNo value(s) available!\n"
				ok := strings.Contains(res.Stdout, "pmcd.version\n    value \"6.0.3\"") &&
					(strings.Contains(res.Stderr+res.Stdout, "No PMCD agent for domain of request") || strings.Contains(res.Stdout, want))
				return ok, res.Stdout + res.Stderr
			})
			res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.long.one", "pmcd.version")
			outs.record(b.name, "dead", res.Stdout+res.Stderr)
			if err := syscall.Kill(bed.PID(), syscall.SIGHUP); err != nil {
				t.Fatal(err)
			}
			eventually(t, "sample after SIGHUP", func() (bool, string) {
				res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.long.one")
				return res.Err == nil && strings.Contains(res.Stdout, "value 1\n"), res.Stdout + res.Stderr
			})
			res = bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.long.one", "pmcd.agent.status", "pmcd.sighups", "pmcd.seqnum")
			outs.record(b.name, "back", res.Stdout+res.Stderr)
		})
	}
}

// outputs collects what each daemon printed at each step, for comparing
// once the parallel subtests are done.
type outputs struct {
	mu sync.Mutex
	m  map[string]map[string]string // step -> daemon -> output
}

func (o *outputs) record(daemon, step, out string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m[step] == nil {
		o.m[step] = map[string]string{}
	}
	o.m[step][daemon] = out
}

// compareAtEnd returns outputs that are compared, PCP's pmcd against
// ours, when t's subtests have finished.
func compareAtEnd(t *testing.T) *outputs {
	o := &outputs{m: map[string]map[string]string{}}
	t.Cleanup(func() {
		for step, by := range o.m {
			if len(by) == 2 && by["PCP"] != by["gopcp"] {
				t.Errorf("%s: ours:\n%s\nPCP's:\n%s", step, by["gopcp"], by["PCP"])
			}
		}
	})
	return o
}

// addSampleTwo installs a second sample agent in bed's configuration, as
// an Install script would, for pmcd to start at its next SIGHUP: domain
// 30, one name (sampletwo.one, the PMID of sample.long.one in domain 30),
// a pmcd.conf line and a subtree of the namespace. It returns the
// configuration as it was and the line it added.
func addSampleTwo(t *testing.T, bed *testbed.PMCD) (conf, line string) {
	t.Helper()
	confPath := bed.ConfPath()
	nsPath := filepath.Join(bed.Dir(), "pmns", "root")
	old, err := os.ReadFile(confPath)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := os.ReadFile(nsPath)
	if err != nil {
		t.Fatal(err)
	}
	item := regexp.MustCompile(`PMID: 29\.(\d+)\.(\d+)`).FindStringSubmatch(
		bed.Run("pminfo", "-h", bed.Host(), "-m", "sample.long.one").Stdout)
	if item == nil {
		t.Fatal("no PMID for sample.long.one")
	}
	bin := filepath.Join(bed.Install().Var("PCP_PMDAS_DIR"), "sample", "pmdasample")
	line = "sampletwo\t30\tpipe\tbinary\t" + bin + " -d 30\n"
	writeFile(t, nsPath, strings.Replace(string(ns), "root {", "root {\n\tsampletwo", 1)+
		"\nsampletwo {\n\tone\t30:"+item[1]+":"+item[2]+"\n}\n")
	writeFile(t, confPath, string(old)+line)
	return string(old), line
}

// TestSIGHUPReconfigures edits pmcd.conf and the namespace of a running
// pmcd, as installing an agent does, and signals it: the new agent is
// started and its names known (and, with ours, it runs in pmcd's agent
// directory); then removing sample's line stops sample.
// PCP's pmcd and ours must agree at each step.
func TestSIGHUPReconfigures(t *testing.T) {
	t.Parallel()
	outs := compareAtEnd(t)
	for _, b := range bedStarters {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			bed := b.start(t, testbed.Options{})
			confPath := bed.ConfPath()
			conf, second := addSampleTwo(t, bed)
			if err := syscall.Kill(bed.PID(), syscall.SIGHUP); err != nil {
				t.Fatal(err)
			}
			eventually(t, "new agent after SIGHUP", func() (bool, string) {
				res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sampletwo.one", "sample.long.one")
				return res.Err == nil && strings.Contains(res.Stdout, "sampletwo.one\n    value 1\n"), res.Stdout + res.Stderr
			})
			res := bed.Run("pminfo", "-h", bed.Host(), "-d", "-f", "pmcd.agent.name", "pmcd.agent.type", "sampletwo", "pmcd.seqnum")
			outs.record(b.name, "installed", res.Stdout+res.Stderr)
			// Ours runs the new agent in $PCP_LOG_DIR/pmcd (the bed's
			// log/pmcd), where its default log, sample.log, appears.
			if _, err := os.Stat(filepath.Join(bed.Dir(), "log", "pmcd", "sample.log")); err != nil && b.name == "gopcp" {
				t.Errorf("the new agent did not run in $PCP_LOG_DIR/pmcd: %v", err)
			}
			// By its domain: sampletwo runs the same program, and the order
			// of /proc (lexical) may list it first.
			sample := childOf(t, bed.PID(), "pmdasample -d 29")
			if sample == 0 {
				t.Fatal("no sample agent process")
			}
			// Remove sample from pmcd.conf (its names stay).
			var kept []string
			for _, l := range strings.Split(conf+second, "\n") {
				if !strings.HasPrefix(l, "sample\t") {
					kept = append(kept, l)
				}
			}
			writeFile(t, confPath, strings.Join(kept, "\n"))
			if err := syscall.Kill(bed.PID(), syscall.SIGHUP); err != nil {
				t.Fatal(err)
			}
			eventually(t, "sample gone after SIGHUP", func() (bool, string) {
				res := bed.Run("pminfo", "-h", bed.Host(), "-f", "pmcd.agent.name", "sample.long.one")
				gone := !strings.Contains(res.Stdout, `"sample"`) && processGone(sample)
				return gone, res.Stdout + res.Stderr
			})
			res = bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.long.one", "pmcd.sighups", "pmcd.numagents", "pmcd.agent.name", "pmcd.seqnum")
			outs.record(b.name, "removed", res.Stdout+res.Stderr)
		})
	}
}

// writeFile replaces a file's contents, making sure its modification
// time moves on, which is how pmcd tells that it changed.
func writeFile(t *testing.T, path, text string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	later := st.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
}
