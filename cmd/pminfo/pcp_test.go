package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// compare says how a case's output is compared with PCP's pminfo.
type compare int

const (
	exact compare = iota
	// values masks the numbers after "value " (and aggregates' hex, such
	// as sample.sysinfo's) and times of day on both sides, for metrics
	// whose values change between the two runs.
	values
	// lines drops the instance lines of sample.scramble.bin, whose
	// instances change at every fetch by design, and of sample.mirage and
	// sample.mirage_longlong, whose instances the agent draws again every
	// 10 s (so a run of PCP's and ours either side of that differ), and
	// sorts the lines on both sides.
	lines
)

var (
	numberValue = regexp.MustCompile(`value -?[0-9][0-9.e+-]*`)
	hexValue    = regexp.MustCompile(`value \[[0-9a-f]+\]`)
	timeOfDay   = regexp.MustCompile(`[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]+`)
)

func mask(c compare, s string) string {
	s = maskAnonHelp(s)
	switch c {
	case values:
		s = hexValue.ReplaceAllString(numberValue.ReplaceAllString(s, "value N"), "value [HEX]")
		return timeOfDay.ReplaceAllString(s, "HH:MM:SS")
	case lines:
		s = mask(values, s)
		var l []string
		skip := false
		for _, line := range strings.Split(s, "\n") {
			switch {
			case line == "sample.scramble.bin", line == "sample.mirage", line == "sample.mirage_longlong":
				skip = true
			case !strings.HasPrefix(line, " "):
				skip = false
			case skip && strings.HasPrefix(line, "    inst "):
				continue
			}
			l = append(l, line)
		}
		sort.Strings(l)
		return strings.Join(l, "\n")
	}
	return s
}

// TestAgainstPCP runs PCP's pminfo and this one with the same arguments
// against one pmcd with PCP's sample agent and compares stdout, stderr and
// the exit status.
func TestAgainstPCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	// "unreachable host": a private port reserved to the test's end, which
	// nothing listens on (no other test run is handed it meanwhile).
	nowhere := "localhost:" + strconv.Itoa(testbed.ReservedPort(t))
	// PCP loads the system's derived metric definitions, which this
	// pminfo does not implement; they show up where names are not checked
	// against pmcd's (a -n namespace without a context), so such cases run
	// with them turned off.
	noDerived := testbed.StartPMCD(t, testbed.Options{Env: []string{"PCP_DERIVED_CONFIG="}})
	nsFile := filepath.Join(t.TempDir(), "pmns")
	const ns = "root {\n    sample\n    other\n}\nsample {\n    long\n}\n" +
		"sample.long {\n    one\t29:0:0\n    ten\t29:0:1\n    alias\t29:0:0\n}\nother {\n    nothere\t29:999:1\n}\n"
	if err := os.WriteFile(nsFile, []byte(ns), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		noHost bool // the arguments do not get -h host
		cmp    compare
		// fresh runs each side against its own new pmcd, for the sample
		// agent's event records, which advance at every fetch
		fresh bool
		// plain runs against a bed without derived metric definitions
		plain bool
		// clock marks values that move with the agent's clock
		// (sample.ulonglong.bin adds the seconds since it started):
		// PCP's pminfo runs before ours and after it, and the case is
		// run again until the two agree, so that ours saw the same
		// second and the comparison stays exact
		clock bool
	}{
		{name: "names", args: []string{"sample"}},
		{name: "whole namespace", args: nil},
		{name: "pmid", args: []string{"-m", "sample.long"}},
		{name: "fullpmid", args: []string{"-M", "sample.long", "sample.ulong"}},
		{name: "desc", args: []string{"-d", "sample.long", "sample.float", "sample.string"}},
		{name: "desc all sample", args: []string{"-d", "sample"}},
		{name: "fullindom", args: []string{"-I", "sample.colour", "sample.bin"}},
		{name: "oneline", args: []string{"-t", "sample"}},
		{name: "helptext", args: []string{"-T", "sample.long", "sample.colour"}},
		{name: "oneline fullpmid", args: []string{"-tM", "sample.long.one"}},
		{name: "fetch long", args: []string{"-f", "sample.long"}},
		{name: "fetch ulong", args: []string{"-f", "sample.ulong", "sample.longlong", "sample.ulonglong"}, clock: true},
		{name: "fetch float double", args: []string{"-f", "sample.float", "sample.double"}},
		{name: "fetch string", args: []string{"-f", "sample.string.hullo", "sample.string.write_me"}},
		{name: "fetch indom", args: []string{"-f", "sample.bin", "sample.part_bin"}},
		{name: "fetch colour", args: []string{"-f", "sample.colour"}, cmp: values},
		{name: "anonymous metrics", args: []string{"-m", "event"}},
		{name: "anonymous metrics detail", args: []string{"-dMtTf", "event", "sample.long.one"}},
		{name: "anonymous pmid", args: []string{"-m", "511.0.2"}},
		{name: "fetch no values", args: []string{"-f", "sample.noinst", "sample.bad.unknown", "sample.bad.nosupp"}},
		{name: "fetchall", args: []string{"-F", "sample.colour", "sample.long.one"}, cmp: values},
		{name: "desc fetch help", args: []string{"-dfT", "sample.long.ten", "sample.colour"}, cmp: values},
		{name: "long options", args: []string{"--desc", "--fetch", "--pmid", "sample.long.hundred"}},
		{name: "verify", args: []string{"-v", "sample"}},
		{name: "verify bad", args: []string{"-v", "sample.bad"}},
		{name: "batch 1", args: []string{"-b", "1", "-f", "sample.long"}},
		{name: "batch 3", args: []string{"-b3", "-dm", "sample.long", "sample.ulong"}},
		{name: "pmid arg", args: []string{"-m", "29.0.6"}},
		{name: "pmid arg desc", args: []string{"-d", "29.0.5", "sample.long.one"}},
		{name: "indom arg", args: []string{"29.1"}},
		{name: "indom arg text", args: []string{"-tT", "29.1", "29.2"}},
		{name: "indom arg full", args: []string{"-It", "29.1"}},
		{name: "unknown pmid", args: []string{"-m", "29.999.999"}},
		{name: "digits only", args: []string{"29"}},
		{name: "unknown metric", args: []string{"no.such.metric"}},
		{name: "unknown and known", args: []string{"-m", "sample.long.one", "nosuch", "sample.long.ten"}},
		{name: "pmcd subtree", args: []string{"-m", "pmcd.pmlogger"}},
		{name: "pmcd desc", args: []string{"-d", "pmcd.control"}},
		{name: "changing values", args: []string{"-f", "sample.seconds", "sample.milliseconds"}, cmp: values},
		{name: "labels", args: []string{"-l", "sample.colour", "sample.long.one", "29.1"}},
		{name: "labels anonymous", args: []string{"-l", "event.flags"}},
		{name: "labels all sample", args: []string{"-l", "sample"}, cmp: lines},
		{name: "labels pmcd", args: []string{"-l", "pmcd.agent", "pmcd.control", "pmcd.pdu_in"}},
		{name: "series", args: []string{"-s", "sample.long.one", "sample.colour"}},
		{name: "series all sample", args: []string{"-s", "sample"}, cmp: lines},
		{name: "labels series desc fetch", args: []string{"-dfls", "sample.bin", "sample.long"}},
		{name: "batch 0", args: []string{"-b", "0", "-m", "sample.long"}},
		{name: "batch negative", args: []string{"-b", "-1", "sample.long"}},
		{name: "derived missing file", args: []string{"-c", "/nonexistent/derived", "sample.long.one"}},
		{name: "container attribute", args: []string{"--container=foo", "sample.long.one"}},
		{name: "events summary", args: []string{"-f", "sample.event"}, cmp: values, fresh: true},
		{name: "events unpacked", args: []string{"-x", "sample.event"}, cmp: values, fresh: true},
		{name: "events unpacked detail", args: []string{"-dx", "sample.event.records", "sample.event.highres_records", "sample.event.no_indom_records"}, cmp: values, fresh: true},
		{name: "namespace names only", args: []string{"-n", nsFile, "-m"}, plain: true},
		{name: "namespace with pmcd", args: []string{"-n", nsFile, "-df", "sample", "other"}},
		{name: "namespace pmid", args: []string{"-n", nsFile, "-m", "29.0.0", "sample.long.hundred"}},
		{name: "uniqnames duplicate", args: []string{"-N", nsFile, "-m"}, noHost: true},
		{name: "namespace parse error", args: []string{"-n", "/etc/hosts", "sample"}, noHost: true},
		{name: "fetch all sample", args: []string{"-f", "sample"}, cmp: lines, fresh: true},
		{name: "fetchall all sample", args: []string{"-F", "sample"}, cmp: lines, fresh: true},
		{name: "everything all sample", args: []string{"-dfmMtTlsI", "sample"}, cmp: lines, fresh: true},
		{name: "needs profile", args: []string{"-f", "sample.needprofile", "sample.bad.fetch.again"}},
		{name: "needs profile forced", args: []string{"-F", "sample.needprofile", "sample.long.ten"}, cmp: values},
		{name: "bad option", args: []string{"-y"}, noHost: true},
		{name: "bad long option", args: []string{"--bogus"}, noHost: true},
		{name: "missing argument", args: []string{"-Z"}, noHost: true},
		{name: "missing long argument", args: []string{"sample", "--host"}, noHost: true},
		{name: "no argument allowed", args: []string{"--fetch=yes"}, noHost: true},
		{name: "help", args: []string{"-?"}, noHost: true},
		{name: "long help", args: []string{"--help"}, noHost: true},
		{name: "version", args: []string{"-V"}, noHost: true},
		{name: "bad batch", args: []string{"-b", "x", "sample"}, noHost: true},
		{name: "host and archive", args: []string{"-h", "a", "-a", "b"}, noHost: true},
		{name: "two hosts", args: []string{"-h", "a", "-h", "b"}, noHost: true},
		{name: "time window live", args: []string{"-h", "a", "-O", "@10:00"}, noHost: true},
		{name: "Z and z", args: []string{"-Z", "UTC", "-z"}, noHost: true},
		{name: "hostzone without source", args: []string{"-z"}, noHost: true},
		{name: "unreachable host", args: []string{"-h", nowhere, "sample"}, noHost: true},
		{name: "bad host spec", args: []string{"-h", "foo:bar:", "sample"}, noHost: true},
		{name: "bad host spec bracket", args: []string{"-h", "pcp://[::1", "sample"}, noHost: true},
		{name: "local desc fetch", args: append(localSample(), "-dfm", "sample.long", "sample.colour", "sample.string.hullo"), noHost: true},
		// PCP's sample DSO finds no help text where Debian installs it
		// (dsohelp), so help is not compared here
		{name: "local labels", args: append(localSample(), "-l", "sample.long.one", "sample.colour", "29.1"), noHost: true},
		{name: "local fetchall", args: append(localSample(), "-F", "sample.needprofile", "sample.bin"), noHost: true},
		{name: "local verify", args: append(localSample(), "-v", "sample.bad", "sample.long"), noHost: true},
		// dynamic subtrees answered by the DSO: traversal, names,
		// PMIDs and values below sample.secret and sample.ghosts
		{name: "local dynamic names", args: append(localSample(), "sample.secret", "sample.ghosts"), noHost: true},
		{name: "local dynamic pmid fetch", args: append(localSample(), "-mdf", "sample.secret.foo.bar.max.redirect", "sample.secret.bar", "sample.secret.nosuch"), noHost: true},
		{name: "local dynamic children", args: append(localSample(), "-M", "sample.secret.foo"), noHost: true},
		{name: "local no agent", args: []string{"-L", "-K", "clear", "-n", "/var/lib/pcp/pmdas/sample/root", "-f", "sample.long.one"}, noHost: true},
		{name: "local bad spec", args: []string{"-L", "-K", "add,29", "sample"}, noHost: true},
		// a traversal stopped by a dynamic subtree without its agent:
		// the names found before it are still reported
		{name: "local traversal stopped", args: append(localDynamicNoAgent(), "-f"), noHost: true},
		{name: "local traversal stopped names", args: localDynamicNoAgent(), noHost: true},
		{name: "local traversal stopped operands", args: append(localDynamicNoAgent(), "b", "dyn", "a"), noHost: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			pcpBed, ourBed := bed, bed
			if tt.plain {
				pcpBed, ourBed = noDerived, noDerived
			}
			if tt.fresh {
				pcpBed = testbed.StartPMCD(t, testbed.Options{})
				ourBed = testbed.StartPMCD(t, testbed.Options{})
			}
			if !tt.noHost {
				args = append([]string{"-h", pcpBed.Host()}, tt.args...)
			}
			pcpArgs := args
			if !tt.noHost {
				args = append([]string{"-h", ourBed.Host()}, tt.args...)
			}
			var (
				want           testbed.Result
				stdout, stderr bytes.Buffer
				code           int
			)
			for try := 0; ; try++ {
				want = pcpBed.Run("pminfo", pcpArgs...)
				stdout.Reset()
				stderr.Reset()
				code = run(context.Background(), append([]string{"pminfo"}, args...), &stdout, &stderr)
				if !tt.clock {
					break
				}
				if after := pcpBed.Run("pminfo", pcpArgs...); after.Stdout == want.Stdout {
					break
				}
				if try == 20 {
					t.Fatalf("pminfo %s: PCP's output changed across each of %d runs of ours", strings.Join(pcpArgs, " "), try+1)
				}
			}
			if got, w := mask(tt.cmp, stdout.String()), mask(tt.cmp, want.Stdout); got != w {
				t.Errorf("pminfo %s: stdout differs\n%s", strings.Join(args, " "), diff(w, got))
			}
			if got, w := clitest.DropNotices(stderr.String()), clitest.DropNotices(want.Stderr); got != w {
				t.Errorf("pminfo %s: stderr differs\n%s", strings.Join(args, " "), diff(w, got))
			}
			if code != want.ExitCode {
				t.Errorf("pminfo %s: exit %d, PCP's %d", strings.Join(args, " "), code, want.ExitCode)
			}
		})
	}
}

// diff shows the first differing line of PCP's output and ours.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b || (i >= len(w)) != (i >= len(g)) {
			return "line " + itoa(i+1) + ":\n  PCP:  " + quote(a, i < len(w)) + "\n  ours: " + quote(b, i < len(g))
		}
	}
	return "(equal)"
}

func quote(s string, present bool) string {
	if !present {
		return "<none>"
	}
	return "\"" + s + "\""
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i)) }

func fmtInt(i int) string {
	var b []byte
	if i == 0 {
		return "0"
	}
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}

// localSample are the options of a local context with PCP's sample DSO
// (ours: the sample agent registered under its entry point).
func localSample() []string {
	return []string{"-L", "-K", "clear", "-K", "add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init",
		"-n", "/var/lib/pcp/pmdas/sample/root"}
}

// localDynamicNoAgent is a local context with PCP's sample DSO over a
// namespace whose second subtree is dynamic, of a domain without an agent.
func localDynamicNoAgent() []string {
	return []string{"-L", "-K", "clear", "-K", "add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init",
		"-n", testdataPath("dynamic-noagent.pmns")}
}

// testdataPath is a file of testdata by its absolute name, for PCP's
// tools, which run in the bed's directory.
func testdataPath(name string) string {
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return p
}
