package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// simpleRoot is the simple agent's namespace, domain 253.
const simpleRoot = `root {
	simple
}

simple {
	numfetch	253:0:0
	color	253:0:1
	time
	now	253:2:4
}

simple.time {
	user	253:1:2
	sys	253:1:3
}
`

var (
	pointerRE = regexp.MustCompile(`dump from 0x[0-9a-f]+`)
	pidRE     = regexp.MustCompile(`\(pid: \d+\)`)
	timerRE   = regexp.MustCompile(`Timer: [0-9.]+ seconds`)
	// the values of simple.now and simple.time follow the clock
	clockRE = regexp.MustCompile(`(?m)^(  253\.(1\.[23]|2\.4) .*\n(?:(?:    inst|   value).*\n)*)`)
	// and so do the values a store of them shows before replacing them
	clockStoreRE = regexp.MustCompile(`(?m)^(253\.(?:1\.[23]|2\.4)(?: \[\d+\])?: )\S+ ->`)
)

// mask hides what differs from run to run: addresses, process numbers,
// timings and clock readings.
func mask(s string) string {
	s = pointerRE.ReplaceAllString(s, "dump from ADDR")
	s = pidRE.ReplaceAllString(s, "(pid: PID)")
	s = timerRE.ReplaceAllString(s, "Timer: T seconds")
	s = clockStoreRE.ReplaceAllString(s, "${1}CLOCK ->")
	return clockRE.ReplaceAllString(s, "CLOCK\n")
}

// runDbpmda runs prog on script with -e, stdout and stderr merged in the
// order written, from dir. The wait for an agent's credentials is 60 s,
// not dbpmda's 3 (PCP's Python agent takes longer than that to start on
// a loaded machine, and PCP's dbpmda then prints a timeout ours did not
// meet); a -q in args comes later and wins.
func runDbpmda(t *testing.T, prog, dir, script string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(prog, append([]string{"-e", "-f", "-q", "60"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", prog, err, out)
	}
	return string(out)
}

// world holds the agents and namespaces the scripts use.
type world struct {
	dir, sampleRoot, simpleRoot string
	pcpSample, pcpSimple        string
	ourSample, ourSimple        string
	env                         []string
}

// shared is the world every test uses, built once.
var shared struct {
	sync.Mutex
	w   *world
	dbp string
}

// TestMain removes the world and the commands built for the tests, also
// when a test ended while building them.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// newWorld returns the shared world, building it the first time, and
// our dbpmda.
func newWorld(t *testing.T) *world {
	t.Helper()
	shared.Lock()
	defer shared.Unlock()
	if shared.w == nil {
		shared.w = buildWorld(t)
		shared.dbp = pcptest.GoCommand(t, ".")
	}
	return shared.w
}

func ourDbpmda(t *testing.T) string {
	newWorld(t)
	return shared.dbp
}

func buildWorld(t *testing.T) *world {
	t.Helper()
	// Everyone may read it: PCP's agents drop to user pcp before they
	// read their configuration and help.
	dir, err := pcptest.ProcessDir("gopcp-dbpmda-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	w := &world{dir: dir}
	pmdas := "/var/lib/pcp/pmdas"
	w.pcpSample = filepath.Join(pmdas, "sample", "pmdasample")
	w.sampleRoot = filepath.Join(pmdas, "sample", "root")
	for _, f := range []string{w.pcpSample, w.sampleRoot, filepath.Join(pmdas, "simple", "simple.c")} {
		if _, err := os.Stat(f); err != nil {
			pcptest.Missing(t, "PCP's sample and simple agents: "+err.Error())
		}
	}
	w.simpleRoot = filepath.Join(w.dir, "simple.root")
	os.WriteFile(w.simpleRoot, []byte(simpleRoot), 0o644)
	// PCP's simple agent, compiled as the guide does, reading its
	// configuration from the private PCP_PMDAS_DIR.
	os.MkdirAll(filepath.Join(w.dir, "pmdas", "simple"), 0o755)
	os.WriteFile(filepath.Join(w.dir, "pmdas", "simple", "simple.conf"), []byte("sec,min,hour\n"), 0o644)
	os.WriteFile(filepath.Join(w.dir, "domain.h"), []byte("#define SIMPLE 253\n"), 0o644)
	w.pcpSimple = filepath.Join(w.dir, "pmdasimple-c")
	pcptest.Compile(t, pcptest.C{
		Src: filepath.Join(pmdas, "simple", "simple.c"), Out: w.pcpSimple, CFlags: []string{"-O1", "-I", w.dir},
		Libs: pcptest.PMDALibs, Headers: pcptest.PMDAHeaders,
	})
	w.ourSample = pcptest.GoCommand(t, "../pmdasample")
	w.ourSimple = pcptest.GoCommand(t, "../pmdasimple")
	// A PCP_VAR_DIR of the world's own: PCP's Python agent saves its
	// instance cache (config/pmda/253.1), which must not go into the
	// system's directory.
	varEnv, err := testbed.VarDirEnv(w.dir)
	if err != nil {
		t.Fatal(err)
	}
	w.env = []string{"PCP_PMDAS_DIR=" + filepath.Join(w.dir, "pmdas"), varEnv}
	// Help databases for PCP's agents, built by PCP's newhelp.
	newhelp := pcptest.NeedTool(t, "newhelp")
	var src []byte
	src, err = os.ReadFile(filepath.Join(pmdas, "simple", "help"))
	if err != nil {
		t.Fatal(err)
	}
	helpSrc := filepath.Join(w.dir, "simple.help")
	os.WriteFile(helpSrc, []byte(strings.ReplaceAll(string(src), "@ SIMPLE.", "@ 253.")), 0o644)
	if out, err := exec.Command(newhelp, "-n", w.simpleRoot, "-o", filepath.Join(w.dir, "pmdas", "simple", "help"), helpSrc).CombinedOutput(); err != nil {
		t.Fatalf("newhelp: %v\n%s", err, out)
	}
	return w
}

func (w *world) script(t *testing.T, name, sample, simple string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer("@SAMPLE@", sample, "@SIMPLE@", simple, "@DIR@", w.dir)
	return r.Replace(string(b))
}

func compare(t *testing.T, what, got, want string) {
	t.Helper()
	got, want = mask(got), mask(want)
	if got == want {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("%s: first difference at line %d:\nours:  %q\nPCP's: %q\n\nours:\n%s\nPCP's:\n%s", what, i+1, g, w, got, want)
			return
		}
	}
}

// TestAgainstPCP runs each script through PCP's dbpmda and ours with the
// same agent (PCP's own, then ours) and compares everything printed.
func TestAgainstPCP(t *testing.T) {
	theirs := pcptest.NeedTool(t, "dbpmda")
	w := newWorld(t)
	ours := ourDbpmda(t)
	cases := []struct {
		name, script, root string
		sample, simple     string
	}{
		{"PCP's sample agent", "sample.script", w.sampleRoot, w.pcpSample, ""},
		{"our sample agent", "sample.script", w.sampleRoot, w.ourSample, ""},
		{"PCP's simple agent", "simple.script", w.simpleRoot, "", w.pcpSimple},
		{"our simple agent", "simple.script", w.simpleRoot, "", w.ourSimple},
		{"errors", "errors.script", w.sampleRoot, "", ""},
		// a scanner error leaves the statement open into the next line
		// (and at the end of input, a syntax error)
		{"after a scanner error", "continue.script", w.sampleRoot, w.pcpSample, ""},
		// values as strtod and strtof read them: NaNs with a sign or
		// payload, hex floats, ERANGE told before text left over
		{"float stores", "floatstores.script", w.sampleRoot, w.pcpSample, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			script := w.script(t, c.script, c.sample, c.simple)
			want := runDbpmda(t, theirs, w.dir, script, w.env, "-n", c.root)
			got := runDbpmda(t, ours, w.dir, script, w.env, "-n", c.root)
			if !strings.Contains(want, "PMID") && c.name != "errors" {
				t.Fatalf("PCP's dbpmda did not get answers:\n%s", want)
			}
			compare(t, c.script, got, want)
		})
	}
}

// TestOurSimpleAsPCPs runs the simple script through our dbpmda with our
// simple agent, as a daemon and in-process (open dso simple_init), and
// through PCP's dbpmda with PCP's simple agent: the agents must answer
// alike, apart from the help text, which is our own.
func TestOurSimpleAsPCPs(t *testing.T) {
	theirs := pcptest.NeedTool(t, "dbpmda")
	w := newWorld(t)
	ours := ourDbpmda(t)
	script := w.script(t, "simple.script", "", w.pcpSimple)
	want := runDbpmda(t, theirs, w.dir, script, w.env, "-n", w.simpleRoot)
	noText := func(s string) string {
		// drop the answers to text requests (after their header line):
		// PCP's prose against ours
		var out []string
		skip, header := false, false
		for _, l := range strings.Split(s, "\n") {
			switch {
			case isCommand(l):
				skip, header = strings.HasPrefix(l, "text "), strings.HasPrefix(l, "text ")
			case header:
				header = false
			case skip:
				continue
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
	daemon := runDbpmda(t, ours, w.dir, w.script(t, "simple.script", "", w.ourSimple), w.env, "-n", w.simpleRoot)
	daemon = strings.ReplaceAll(daemon, w.ourSimple, w.pcpSimple)
	daemon = strings.ReplaceAll(daemon, "Start pmdasimple PMDA", "Start pmdasimple-c PMDA")
	compare(t, "our pmdasimple", noText(daemon), noText(want))

	// The library must be there to be opened, as with PCP's dbpmda,
	// though the agent run is the Go one its entry point names.
	if err := os.WriteFile(w.dir+"/pmda_simple.so", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dsoScript := strings.Replace(script, "open pipe "+w.pcpSimple+" -d 253 -l "+w.dir+"/simple.log",
		"open dso "+w.dir+"/pmda_simple.so simple_init 253", 1)
	dso := runDbpmda(t, ours, w.dir, dsoScript, w.env, "-n", w.simpleRoot)
	dso = strings.Replace(dso, "open dso "+w.dir+"/pmda_simple.so simple_init 253\n",
		"open pipe "+w.pcpSimple+" -d 253 -l "+w.dir+"/simple.log\nStart pmdasimple-c PMDA: "+w.pcpSimple+" -d 253 -l "+w.dir+"/simple.log\n", 1)
	dso = strings.Replace(dso, "PMDA:                   "+w.dir+"/pmda_simple.so\nConnection:             dso\nDSO Interface Version:  7\n",
		"PMDA:                   "+w.pcpSimple+"\nConnection:             daemon (pid: 1)\n", 1)
	// a DSO's answer is dumped in pmResult's older form (TestDSOFetchLikePCP)
	dso = dsoDumpRE.ReplaceAllString(dso, "__pmResult dump from $1 timestamp: $2.${3}000 $4.${5}000000")
	// and its failures are worded by callback, not as error PDUs
	// (TestDSOFetchLikePCP)
	dso = dsoErrRE.ReplaceAllString(dso, "Error PDU: ")
	dso = dsoNoneRE.ReplaceAllString(dso, "")
	dso = strings.ReplaceAll(dso, "Info: DSO label() returns 0\n", "Info: __pmDecodeLabel() returns 0 label sets\n")
	dso = dsoLeafRE.ReplaceAllString(dso, "   $1")
	compare(t, "our simple agent in-process", noText(dso), noText(want))
}

var (
	dsoErrRE  = regexp.MustCompile(`Error: DSO \w+\(\) failed: `)
	dsoNoneRE = regexp.MustCompile(`(?m)^Warning: DSO \w+\(\) returns 0\n`)
	dsoLeafRE = regexp.MustCompile(`(?m)^       leaf (\S+)$`)
)

var dsoDumpRE = regexp.MustCompile(`(?m)^pmResult dump from (0x[0-9a-f]+) timestamp: (\d+)\.(\d{6}) (\d\d:\d\d:\d\d)\.(\d{3})`)

// TestDSOFetchLikePCP fetches from PCP's sample agent as a DSO with PCP's
// dbpmda and from ours in-process with our dbpmda: a DSO's answer is
// dumped as PCP's pmResult of old (microseconds, and milliseconds in the
// time), with and without descriptors.
func TestDSOFetchLikePCP(t *testing.T) {
	theirs := pcptest.NeedTool(t, "dbpmda")
	const dso = "/var/lib/pcp/pmdas/sample/pmda_sample.so"
	if _, err := os.Stat(dso); err != nil {
		pcptest.Missing(t, "PCP's sample DSO: "+err.Error())
	}
	w := newWorld(t)
	ours := ourDbpmda(t)
	script := "open dso " + dso + " sample_init 29\nfetch 29.0.5\nfetch 29.0.5 29.0.6\ngetdesc on\nfetch 29.0.6 sample.long.one sample.string.hullo\n"
	root := "/var/lib/pcp/pmdas/sample/root"
	// PCP's DSO warns that it has no help file of its own here
	want := clitest.DropNotices(runDbpmda(t, theirs, w.dir, script, w.env, "-n", root))
	got := runDbpmda(t, ours, w.dir, script, w.env, "-n", root)
	if !strings.Contains(want, "pmResult dump from") {
		t.Fatalf("PCP's dbpmda did not fetch:\n%s", want)
	}
	compare(t, "a DSO's fetch", got, want)

	// A DSO is called, not sent PDUs: PCP's dbpmda words its failures
	// by the callback ("Error: DSO desc() failed"), notes callbacks
	// that find nothing, and checks the library before the entry point.
	script = "open dso /nonexistent/pmda.so sample_init 29\nopen dso " + dso + " nosuch_init 29\nopen dso " + dso + " sample_init 29\n" +
		"desc 29.0.999\ndesc sample.nosuch\nfetch 29.0.5 sample.nosuch\ninstance 29.1 99\ninstance 29.99\n" +
		"label indom 29.99\nlabel domain\nname 29.0.5\nname 29.0.9999\npmid sample.long\n" +
		"children sample.long\nchildren sample.nosuch\ntraverse sample.nosuch\ntraverse sample.string\nclose\n"
	want = clitest.DropNotices(runDbpmda(t, theirs, w.dir, script, w.env, "-n", root))
	got = runDbpmda(t, ours, w.dir, script, w.env, "-n", root)
	if !strings.Contains(want, "Error: DSO desc() failed") {
		t.Fatalf("PCP's dbpmda did not refuse a descriptor:\n%s", want)
	}
	compare(t, "a DSO's failures", got, want)
}

// isCommand reports whether an echoed line starts a command of the
// simple script.
func isCommand(l string) bool {
	for _, c := range []string{"open", "getdesc", "desc", "fetch", "instance", "text", "name", "children",
		"traverse", "pmid", "store", "profile", "getiname", "status", "label", "close", "quit"} {
		if strings.HasPrefix(l, c+" ") || l == c {
			return true
		}
	}
	return false
}

// TestPythonAgent drives PCP's Python simple agent (python3-pcp) with
// PCP's dbpmda and ours.
func TestPythonAgent(t *testing.T) {
	theirs := pcptest.NeedTool(t, "dbpmda")
	py := "/var/lib/pcp/pmdas/simple/pmdasimple.python"
	if _, err := os.Stat(py); err != nil {
		pcptest.Missing(t, "PCP's pmdasimple.python: "+err.Error())
	}
	// the system's Python has python3-pcp; one earlier in $PATH (pyenv,
	// virtualenv) may not
	python := ""
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if err := exec.Command(p, "-c", "import pcp.pmda").Run(); err == nil {
			python = p
			break
		}
	}
	if python == "" {
		pcptest.Missing(t, "python3-pcp is not installed")
	}
	w := newWorld(t)
	ours := ourDbpmda(t)
	b, err := os.ReadFile("testdata/python.script")
	if err != nil {
		t.Fatal(err)
	}
	script := strings.NewReplacer("@PYTHON@", py, "/usr/bin/python3", python).Replace(string(b))
	want := runDbpmda(t, theirs, w.dir, script, w.env, "-n", w.simpleRoot)
	got := runDbpmda(t, ours, w.dir, script, w.env, "-n", w.simpleRoot)
	if !strings.Contains(want, `[  2] inst: 2 name: "hour"`) {
		t.Fatalf("PCP's dbpmda did not get answers from the Python agent:\n%s", want)
	}
	compare(t, "python.script", got, want)
	// The agent saved its instance cache in the world's PCP_VAR_DIR.
	if _, err := os.Stat(filepath.Join(w.dir, "var", "config", "pmda", "253.1")); err != nil {
		t.Errorf("PCP's Python agent saved no instance cache in the private PCP_VAR_DIR: %v", err)
	}
}

// TestUnixSocketAgent connects both dbpmdas to our pmdasimple waiting on
// a Unix socket (-u), one agent each, and compares.
func TestUnixSocketAgent(t *testing.T) {
	theirs := pcptest.NeedTool(t, "dbpmda")
	w := newWorld(t)
	ours := ourDbpmda(t)
	var outs []string
	for i, prog := range []string{theirs, ours} {
		sock := filepath.Join(w.dir, "simple"+itoa(int32(i))+".socket")
		agent := exec.Command(w.ourSimple, "-u", sock, "-l", filepath.Join(w.dir, "socket.log"))
		agent.Env = append(os.Environ(), w.env...)
		if err := agent.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { agent.Wait(); close(done) }()
		t.Cleanup(func() { agent.Process.Kill(); <-done })
		for j := 0; j < 500; j++ {
			if _, err := os.Stat(sock); err == nil {
				break
			}
			select {
			case <-done:
				t.Fatal("agent exited")
			default:
			}
			exec.Command("sleep", "0.01").Run()
		}
		script := "open socket unix " + sock + "\ndesc simple.color\nfetch simple.numfetch simple.color\ninstance 253.0\nstatus\nclose\n"
		out := runDbpmda(t, prog, w.dir, script, w.env, "-n", w.simpleRoot)
		outs = append(outs, strings.ReplaceAll(out, sock, "SOCKET"))
	}
	if !strings.Contains(outs[0], "Connect to PMDA on socket SOCKET") || !strings.Contains(outs[0], "value 201") {
		t.Fatalf("PCP's dbpmda did not get answers:\n%s", outs[0])
	}
	compare(t, "unix socket", outs[1], outs[0])
}

// TestSilentAgent opens an agent that never sends its credentials: both
// dbpmdas give up after -q seconds with the same warnings.
func TestSilentAgent(t *testing.T) {
	theirs := pcptest.NeedTool(t, "dbpmda")
	w := newWorld(t)
	ours := ourDbpmda(t)
	script := w.script(t, "hang.script", "", "")
	want := runDbpmda(t, theirs, w.dir, script, w.env, "-q", "1", "-n", w.sampleRoot)
	got := runDbpmda(t, ours, w.dir, script, w.env, "-q", "1", "-n", w.sampleRoot)
	if !strings.Contains(want, "no version exchange") {
		t.Fatalf("PCP's dbpmda:\n%s", want)
	}
	compare(t, "hang.script", got, want)
}
