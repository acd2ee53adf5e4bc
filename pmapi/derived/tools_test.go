package derived_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

const qaArchives = "/var/lib/pcp/testsuite/archives"

// toolCase is one command line run by PCP's tool and by ours.
type toolCase struct {
	name string
	tool string
	args []string
	// env is PCP_DERIVED_CONFIG's setting: "unset" leaves it out, so
	// that PCP's defaults load; anything else, "" included, is its value
	// (with @ standing for testdata's absolute path).
	env string
	// noHost runs without -h, the arguments naming another source.
	noHost bool
	mask   func(string) string
}

// TestMain removes the tools and the pmcd built for the tests.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// result is what a tool run gives.
type result struct {
	stdout, stderr string
	code           int
}

func runTool(t *testing.T, path string, env []string, args []string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return result{stdout.String(), stderr.String(), code}
}

// setEnv returns env with PCP_DERIVED_CONFIG set as the case says.
func setEnv(env []string, tc toolCase, testdata string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PCP_DERIVED_CONFIG=") {
			out = append(out, kv)
		}
	}
	if tc.env != "unset" {
		out = append(out, "PCP_DERIVED_CONFIG="+strings.ReplaceAll(tc.env, "@", testdata))
	}
	return out
}

// pmvalTimes masks pmval's times of day and its start and end lines.
var pmvalHeader = regexp.MustCompile(`(?m)^(start|end|host|archive):.*$`)

func pmvalMask(s string) string {
	return clitest.Times(pmvalHeader.ReplaceAllString(s, "$1: X"))
}

// anonMask blanks the help text of the anonymous metrics event.flags
// and event.missed on both sides, since gopcp words it afresh: only
// where the text appears is compared.
func anonMask(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	anon, help := false, false
	for _, line := range lines {
		switch {
		case help && line == "":
			help = false
		case help:
			continue
		case line == "Help:":
			help = anon
		case line != "" && line[0] != ' ':
			anon = strings.HasPrefix(line, "event.flags") || strings.HasPrefix(line, "event.missed")
			if anon {
				line = bracketed.ReplaceAllString(line, "[ANON]")
			}
		case anon && strings.HasPrefix(line, "    ["):
			line = bracketed.ReplaceAllString(line, "[ANON]")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

var bracketed = regexp.MustCompile(`\[[^]]*\]$`)

func toolCases() []toolCase {
	var cases []toolCase
	add := func(name, tool, env string, args ...string) {
		cases = append(cases, toolCase{name: name, tool: tool, env: env, args: args})
	}
	good, bad, dir := "@/good.conf", "@/bad.conf", "@/dir"
	// pminfo: names, traversal, children, metadata, values, help
	add("names", "pminfo", good, "derived")
	add("names -c", "pminfo", "", "-c", good, "derived")
	add("names --derived", "pminfo", "", "--derived="+good, "derived")
	add("non-leaf", "pminfo", good, "derived.sub")
	add("deeper non-leaf", "pminfo", good, "derived.sub.deep")
	add("leaf", "pminfo", good, "derived.sum")
	add("desc", "pminfo", good, "-d", "derived")
	add("fetch", "pminfo", good, "-f", "derived")
	add("pmid", "pminfo", good, "-m", "derived")
	add("full pmid", "pminfo", good, "-M", "derived.sum", "derived.sub.pick")
	add("oneline", "pminfo", good, "-t", "derived")
	add("help", "pminfo", good, "-T", "derived.help", "derived.onlyone", "derived.sum")
	add("labels", "pminfo", good, "-l", "derived.sum", "derived.scaled")
	add("everything", "pminfo", good, "-dfmtT", "derived")
	add("instances", "pminfo", good, "-I", "derived.scaled", "derived.match")
	add("mixed with real", "pminfo", good, "-df", "sample.long", "derived.sum", "sample.bin")
	add("no such derived", "pminfo", good, "derived.nosuch")
	add("whole namespace", "pminfo", good)
	add("verify", "pminfo", good, "-v", "derived")
	add("fetch -c twice", "pminfo", "", "-c", good, "-c", "@/dir", "-f", "derived.sum", "dir")
	add("directory", "pminfo", dir, "-df", "dir")
	add("path list", "pminfo", good+":"+dir, "-m", "dir", "derived.count")
	add("bad definitions", "pminfo", bad, "-d", "bad")
	add("bad definitions -c", "pminfo", "", "-c", bad, "-f", "bad")
	add("bad operand", "pminfo", bad, "-d", "bad.missing")
	add("bad types", "pminfo", bad, "-f", "bad.types", "bad.indom", "bad.units")
	add("name of a real metric", "pminfo", bad, "-m", "sample.long.one")
	add("missing -c file", "pminfo", "", "-c", "@/nosuch.conf", "derived")
	add("missing --derived file", "pminfo", "", "--derived=@/nosuch.conf", "sample.long.one")
	add("missing config path", "pminfo", "@/nosuch.conf", "sample.long.one")
	add("defaults unset", "pminfo", "unset", "-d", "disk.dev", "kernel.all.cpu")
	add("defaults empty", "pminfo", "", "-d", "disk.dev", "kernel.all.cpu")
	add("defaults unset names", "pminfo", "unset")
	add("defaults empty names", "pminfo", "")
	add("anon", "pminfo", "", "-dmt", "event")
	add("anon unset", "pminfo", "unset", "-dmtf", "event.flags", "event.missed")
	add("anon help", "pminfo", good, "-T", "event")
	// pmval
	add("pmval sum", "pmval", good, "-s", "2", "-t", "0.1", "derived.sum")
	add("pmval instances", "pmval", good, "-s", "2", "-t", "0.1", "derived.scaled")
	add("pmval pick", "pmval", good, "-s", "2", "-t", "0.1", "derived.sub.pick")
	add("pmval const", "pmval", good, "-s", "1", "derived.sub.deep.const")
	add("pmval match", "pmval", good, "-s", "1", "derived.match")
	add("pmval rate", "pmval", good, "-s", "3", "-t", "0.1", "derived.rate")
	add("pmval float", "pmval", good, "-s", "1", "-f", "3", "derived.float")
	add("pmval --derived", "pmval", "", "--derived="+good, "-s", "1", "derived.ratio")
	add("pmval -c missing", "pmval", "", "--derived=@/nosuch.conf", "-s", "1", "sample.long.one")
	add("pmval bad", "pmval", bad, "-s", "1", "bad.missing")
	add("pmval unknown", "pmval", good, "-s", "1", "derived.nosuch")
	add("pmval defined", "pmval", good, "-s", "1", "derived.defined")
	add("pmval logic", "pmval", good, "-s", "1", "derived.logic")
	add("pmval dir", "pmval", dir, "-s", "1", "dir.two")
	// pmprobe
	add("pmprobe names", "pmprobe", good, "derived")
	add("pmprobe values", "pmprobe", good, "-v", "derived")
	add("pmprobe instances", "pmprobe", good, "-i", "derived.scaled", "derived.match", "derived.nomatch")
	add("pmprobe external", "pmprobe", good, "-I", "derived.scaled")
	add("pmprobe --derived", "pmprobe", "", "--derived="+good, "-v", "derived.sum", "derived.sub")
	add("pmprobe bad", "pmprobe", bad, "-v", "bad")
	add("pmprobe dir", "pmprobe", dir, "-v", "dir")
	add("pmprobe missing file", "pmprobe", "", "--derived=@/nosuch.conf", "sample.long.one")
	add("pmprobe defaults", "pmprobe", "unset", "kernel.all.cpu", "disk.dev")
	// pmstore finds derived names too; pmcd has no agent to store them
	add("pmstore derived", "pmstore", good, "derived.sum", "5")
	add("pmstore anon", "pmstore", good, "event.flags", "1")
	add("pmstore bad", "pmstore", bad, "bad.missing", "1")
	// local contexts (PCP's sample DSO there, gopcp's in-process agent
	// here), whose namespace libpcp walks without binding
	local := []string{"-L", "-K", "clear", "-K", "add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init",
		"-n", "/var/lib/pcp/pmdas/sample/root"}
	addLocal := func(name, tool, env string, args ...string) {
		cases = append(cases, toolCase{name: name, tool: tool, env: env, args: append(slices.Clone(local), args...), noHost: true})
	}
	addLocal("local names", "pminfo", good, "derived")
	addLocal("local desc", "pminfo", good, "-d", "derived.sum", "derived.scaled", "derived.sub")
	addLocal("local fetch", "pminfo", good, "-f", "derived.sum", "derived.match", "derived.sub.pick")
	addLocal("local bad", "pminfo", bad, "-d", "bad")
	addLocal("local -c", "pminfo", "", "-c", dir, "-f", "dir")
	addLocal("local pmprobe", "pmprobe", good, "-v", "derived.sum", "derived.scaled", "derived.count")
	addLocal("local pmval", "pmval", good, "-s", "1", "derived.scaled")
	// a namespace without a context: libpcp's table of global
	// definitions, nothing bound
	ns := "/var/lib/pcp/pmdas/sample/root"
	cases = append(cases,
		toolCase{name: "namespace names", tool: "pminfo", env: good, args: []string{"-n", ns, "derived"}, noHost: true},
		toolCase{name: "namespace pmids", tool: "pminfo", env: good, args: []string{"-n", ns, "-m", "derived.sub", "event", "sample.long.one"}, noHost: true},
		toolCase{name: "namespace bad", tool: "pminfo", env: bad, args: []string{"-n", ns, "-m", "bad"}, noHost: true},
		toolCase{name: "namespace -c", tool: "pminfo", env: "", args: []string{"-n", ns, "-c", dir, "dir"}, noHost: true},
		toolCase{name: "namespace whole", tool: "pminfo", env: good, args: []string{"-n", ns}, noHost: true},
	)
	for i := range cases {
		if cases[i].tool == "pmval" {
			cases[i].mask = pmvalMask
		}
	}
	return cases
}

// archiveCases run PCP's tools and ours on QA archives.
func archiveCases() []toolCase {
	arch := qaArchives + "/20041125"
	conf := "@/archive.conf"
	linux := qaArchives + "/20190628.04.03"
	return []toolCase{
		{noHost: true, name: "archive names", tool: "pminfo", env: conf, args: []string{"-a", arch, "arch"}},
		{noHost: true, name: "archive desc", tool: "pminfo", env: conf, args: []string{"-a", arch, "-d", "arch"}},
		{noHost: true, name: "archive fetch", tool: "pminfo", env: conf, args: []string{"-a", arch, "-f", "arch.mem", "arch.load", "arch.sel"}},
		{noHost: true, name: "archive -c", tool: "pminfo", env: "", args: []string{"-a", arch, "-c", conf, "-dm", "arch"}},
		{noHost: true, name: "archive missing", tool: "pminfo", env: conf, args: []string{"-a", arch, "-d", "arch.missing"}},
		{noHost: true, name: "archive defaults", tool: "pminfo", env: "unset", args: []string{"-a", arch, "-d", "disk.dev", "kernel.all.cpu"}},
		{noHost: true, name: "archive pmval rate", tool: "pmval", env: conf, args: []string{"-a", arch, "-t", "10", "-s", "5", "arch.cpu"}, mask: pmvalMask},
		{noHost: true, name: "archive pmval delta", tool: "pmval", env: conf, args: []string{"-a", arch, "-t", "10", "-s", "4", "arch.disk"}, mask: pmvalMask},
		{noHost: true, name: "archive pmval select", tool: "pmval", env: conf, args: []string{"-a", arch, "-s", "3", "arch.sel.hd"}, mask: pmvalMask},
		{noHost: true, name: "archive pmval --derived", tool: "pmval", env: "", args: []string{"-a", arch, "--derived=" + conf, "-s", "3", "arch.load"}, mask: pmvalMask},
		{noHost: true, name: "archive pmval raw", tool: "pmval", env: conf, args: []string{"-a", arch, "-r", "-s", "3", "arch.sel.hd"}, mask: pmvalMask},
		{noHost: true, name: "archive pmval precision", tool: "pmval", env: conf, args: []string{"-a", arch, "-f", "2", "-s", "3", "arch.mem"}, mask: pmvalMask},
		{noHost: true, name: "archive pmval missing", tool: "pmval", env: conf, args: []string{"-a", arch, "-s", "2", "arch.missing"}, mask: pmvalMask},
		{noHost: true, name: "archive pmval infinity", tool: "pmval", env: conf, args: []string{"-a", arch, "-t", "10", "arch.inf"}, mask: pmvalMask},
		{noHost: true, name: "archive pmval -infinity -f", tool: "pmval", env: conf, args: []string{"-a", arch, "-t", "10", "-f", "2", "arch.ninf"}, mask: pmvalMask},
		{noHost: true, name: "archive pmprobe", tool: "pmprobe", env: conf, args: []string{"-a", arch, "-v", "arch"}},
		{noHost: true, name: "defaults archive help", tool: "pminfo", env: "unset", args: []string{"-a", linux, "-dT", "kernel.cpu.util", "disk.dev.await"}},
		{noHost: true, name: "defaults archive oneline", tool: "pminfo", env: "unset", args: []string{"-a", linux, "-t", "disk.dev"}},
		{noHost: true, name: "defaults archive fetch", tool: "pminfo", env: "unset", args: []string{"-a", linux, "-f", "kernel.cpu.util"}},
		{noHost: true, name: "defaults archive pmval", tool: "pmval", env: "unset", args: []string{"-a", linux, "-t", "5", "-s", "4", "kernel.cpu.util.user"}, mask: pmvalMask},
		{noHost: true, name: "defaults archive pmval empty", tool: "pmval", env: "", args: []string{"-a", linux, "-t", "5", "-s", "4", "kernel.cpu.util.user"}, mask: pmvalMask},
		{noHost: true, name: "defaults archive pmprobe", tool: "pmprobe", env: "unset", args: []string{"-a", linux, "-v", "kernel.cpu.util", "disk.dev.await"}},
		{noHost: true, name: "archive pmprobe -i", tool: "pmprobe", env: conf, args: []string{"-a", arch, "-i", "arch.sel.hd", "arch.disk"}},
	}
}

// TestToolsAgainstPCP runs PCP's pminfo, pmval and pmprobe and gopcp's
// with the same derived metric configuration, live against one private
// pmcd with PCP's sample agent and on a QA archive, and compares
// stdout, stderr and exit status.
func TestToolsAgainstPCP(t *testing.T) {
	pcptest.NeedTool(t, "pminfo")
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	bed := testbed.StartPMCD(t, testbed.Options{Env: []string{"PCP_DERIVED_CONFIG="}})
	live := toolCases()
	all := append(live, archiveCases()...)
	for i, tc := range all {
		t.Run(tc.name, func(t *testing.T) {
			args := make([]string, len(tc.args))
			for j, a := range tc.args {
				args[j] = strings.ReplaceAll(a, "@", testdata)
			}
			if !tc.noHost {
				args = append([]string{"-h", bed.Host()}, args...)
			}
			if i >= len(live) {
				if _, err := os.Stat(qaArchives); err != nil {
					pcptest.Missing(t, "no QA archives: "+err.Error())
				}
			}
			cmd, err := bed.Command(context.Background(), tc.tool, args...)
			if err != nil {
				t.Fatal(err)
			}
			env := setEnv(cmd.Env, tc, testdata)
			want := runTool(t, cmd.Path, env, args)
			got := runTool(t, pcptest.GoCommandWith(t, "github.com/gopcp/gopcp/cmd/"+tc.tool, pcptest.Build{Companion: true}), env, args)
			mask := func(s string) string {
				s = anonMask(s)
				if tc.mask != nil {
					s = tc.mask(s)
				}
				return s
			}
			line := tc.tool + " " + strings.Join(args, " ")
			if g, w := mask(got.stdout), mask(want.stdout); g != w {
				t.Errorf("%s: stdout differs\n%s", line, firstDiff(w, g))
			}
			if g, w := clitest.DropNotices(got.stderr), clitest.DropNotices(want.stderr); g != w {
				t.Errorf("%s: stderr differs\n%s", line, firstDiff(w, g))
			}
			if got.code != want.code {
				t.Errorf("%s: exit %d, PCP's %d", line, got.code, want.code)
			}
		})
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  PCP:  %q\n  ours: %q", i+1, a, b)
		}
	}
	return ""
}
