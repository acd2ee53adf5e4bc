package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

const pmdaproc = "/usr/share/pcp/lib/pmdaproc.sh"

// pmdaprocSnippet extracts from PCP's pmdaproc.sh the commands that edit
// pmcd.conf, from the line matching first to the line matching last of
// the named function, to run them as the reference.
func pmdaprocSnippet(t *testing.T, fn, first, last string) string {
	t.Helper()
	b, err := os.ReadFile(pmdaproc)
	if err != nil {
		pcptest.Missing(t, "PCP's pmdaproc.sh: "+err.Error())
	}
	var out []string
	in, on := false, false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, fn+"()") {
			in = true
		}
		if in && strings.Contains(l, first) {
			on = true
		}
		if on {
			out = append(out, l)
			if strings.Contains(l, last) {
				return strings.Join(out, "\n")
			}
		}
	}
	t.Fatalf("%s: no %s ... %s in %s", pmdaproc, first, last, fn)
	return ""
}

var confs = []string{
	"# Performance Metrics Domain Specifications\n#\n# a comment\n\npmcd\t2\tdso\tpmcd_init\t/var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\nlinux\t60\tpipe\tbinary\t/var/lib/pcp/pmdas/linux/pmdalinux\nsample\t29\tpipe\tbinary\t/var/lib/pcp/pmdas/sample/pmdasample -d 29\n\n[access]\ndisallow \".*\" : store;\nallow \"local:*\" : all;\n",
	"pmcd\t2\tdso\tpmcd_init\tx.so\nsimple\t253\tpipe\tbinary\t/old/pmdasimple -d 253\n",
	"pmcd 2 dso pmcd_init x.so\nsimple 254 pipe binary /old/simple\nother 253 pipe binary /other\n  indented 40 pipe binary /x\n",
	"",
}

// TestConfAgainstPmdaproc edits pmcd.conf files with our install and
// remove and with the commands of PCP's pmdaproc.sh, and compares the
// files and warnings.
func TestConfAgainstPmdaproc(t *testing.T) {
	add := pmdaprocSnippet(t, "__pmda_add", "echo >$tmp/pmcd.body", "pmcd.warn ] && cat")
	cull := pmdaprocSnippet(t, "__pmda_cull", "$PCP_AWK_PROG <$PCP_PMCDCONF_PATH", "END")
	for i, conf := range confs {
		for _, op := range []string{"add", "cull"} {
			dir := t.TempDir()
			path := filepath.Join(dir, "pmcd.conf")
			os.WriteFile(path, []byte(conf), 0o644)
			line := "simple\t253\tpipe binary /usr/lib/pmdasimple -d 253"
			script := "tmp=" + dir + "/tmp; mkdir $tmp; PCP_AWK_PROG=awk; PCP_PMCDCONF_PATH=" + path + "\n"
			if op == "add" {
				script += "myname=simple; mydomain=253; set -- \"" + line + "\"\n" + add + "\n"
			} else {
				script += "set -- simple 253\n" + cull + "\ncp $tmp/pmcd.conf " + path + ".culled\n[ -f $tmp/pmcd.warn ] && cat $tmp/pmcd.warn >&2\n"
			}
			cmd := exec.Command("bash", "-c", script)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cmd.Run()
			var want []byte
			if op == "add" {
				want, _ = os.ReadFile(path)
			} else {
				want, _ = os.ReadFile(path + ".culled")
			}
			var got []byte
			var warnings []string
			if op == "add" {
				got, warnings, _ = confEdit([]byte(conf), path, "simple", "253", line)
			} else {
				got, warnings, _ = confCull([]byte(conf), path, "simple", "253")
			}
			if !bytes.Equal(got, want) {
				t.Errorf("conf %d %s:\nours:\n%q\npmdaproc.sh's:\n%q", i, op, got, want)
			}
			gotW := strings.Join(warnings, "\n")
			if gotW != "" {
				gotW += "\n"
			}
			if gotW != stderr.String() {
				t.Errorf("conf %d %s warnings:\nours:\n%s\npmdaproc.sh's:\n%s", i, op, gotW, stderr.String())
			}
		}
	}
}

// TestNamespaceAgainstPCP adds agents' namespaces to a copy of the
// system's namespace and removes subtrees from it with our code and with
// PCP's pmnsadd and pmnsdel, and compares the files.
func TestNamespaceAgainstPCP(t *testing.T) {
	pmnsadd := pcptest.NeedTool(t, "pmnsadd")
	pmnsdel := pcptest.NeedTool(t, "pmnsdel")
	sysRoot, err := os.ReadFile("/var/lib/pcp/pmns/root")
	if err != nil {
		pcptest.Missing(t, "the system namespace: "+err.Error())
	}
	type step struct {
		op, name, symbol, domain, frag string
	}
	frag := func(agent string) string {
		b, err := os.ReadFile(filepath.Join("/var/lib/pcp/pmdas", agent, "pmns"))
		if err != nil {
			pcptest.Missing(t, agent+"'s namespace: "+err.Error())
		}
		return string(b)
	}
	cases := [][]step{
		{{"add", "simple", "SIMPLE", "253", frag("simple")}},
		{{"add", "sample", "SAMPLE", "29", frag("sample")}, {"del", "sample.dynamic", "", "", ""}, {"del", "sample.long", "", "", ""}},
		{{"add", "simple", "SIMPLE", "253", frag("simple")}, {"add", "simple", "SIMPLE", "254", frag("simple")}},
		{{"del", "kernel.all", "", "", ""}, {"del", "disk", "", "", ""}},
	}
	for i, steps := range cases {
		dir := t.TempDir()
		theirs, ours := filepath.Join(dir, "theirs"), filepath.Join(dir, "ours")
		os.WriteFile(theirs, sysRoot, 0o644)
		os.WriteFile(ours, sysRoot, 0o644)
		for _, s := range steps {
			ns, err := loadNamespace(ours)
			if err != nil {
				t.Fatal(err)
			}
			var cmd *exec.Cmd
			if s.op == "add" {
				text := strings.ReplaceAll(s.frag, s.symbol+":", s.domain+":")
				fragPath := filepath.Join(dir, "pmns")
				os.WriteFile(fragPath, []byte(text), 0o644)
				// pmdaproc.sh deletes the old subtree first
				exec.Command(pmnsdel, "-n", theirs, s.name).Run()
				cmd = exec.Command(pmnsadd, "-n", theirs, fragPath)
				sub, err := subtree([]byte(s.frag), s.symbol, atoi(s.domain))
				if err != nil {
					t.Fatal(err)
				}
				if err := ns.add(s.name, sub, 0); err != nil {
					t.Fatal(err)
				}
			} else {
				cmd = exec.Command(pmnsdel, "-n", theirs, s.name)
				ns.remove(s.name)
			}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("case %d: %v: %v\n%s", i, cmd.Args, err, out)
			}
			os.WriteFile(ours, ns.text(), 0o644)
		}
		want, _ := os.ReadFile(theirs)
		got, _ := os.ReadFile(ours)
		if !bytes.Equal(got, want) {
			t.Errorf("case %d: namespaces differ (%d bytes ours, %d PCP's)\n%s", i, len(got), len(want), firstDiff(string(got), string(want)))
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ": ours " + al[i] + " | PCP's " + bl[i]
		}
	}
	return "lengths differ"
}

// simpleFragment is the simple agent's namespace as PCP ships it, with
// its symbolic domain.
const simpleFragment = `simple {
    numfetch	SIMPLE:0:0
    color	SIMPLE:0:1
    time
    now		SIMPLE:2:4
}

simple.time {
    user	SIMPLE:1:2
    sys		SIMPLE:1:3
}
`

// TestInstallRemoveLive installs our pmdasimple into a running private
// pmcd (PCP's, then ours) with pmdaconf, checks PCP's pminfo sees its
// metrics, removes it and checks they are gone, while pmcd's own metrics
// answer throughout.
func TestInstallRemoveLive(t *testing.T) {
	testbed.Need(t)
	dir, err := os.MkdirTemp("", "gopcp-pmdaconf-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	pmdas := filepath.Join(dir, "pmdas")
	os.MkdirAll(filepath.Join(pmdas, "simple"), 0o755)
	os.WriteFile(filepath.Join(pmdas, "simple", "simple.conf"), []byte("sec,min\n"), 0o644)
	frag := filepath.Join(dir, "pmns")
	os.WriteFile(frag, []byte(simpleFragment), 0o644)
	agent := pcptest.GoCommand(t, "../pmdasimple")
	trivial := pcptest.GoCommand(t, "../pmdatrivial")
	tool := pcptest.GoCommand(t, ".")
	starts := map[string]func(testing.TB, testbed.Options) *testbed.PMCD{
		"PCP's pmcd": testbed.StartPMCD,
		"our pmcd":   testbed.StartGoPMCD,
	}
	for what, start := range starts {
		t.Run(what, func(t *testing.T) {
			bed := start(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent()}})
			root := filepath.Join(bed.Dir(), "pmns", "root")
			common := []string{"-c", bed.ConfPath(), "-n", root, "-P", strconv.Itoa(bed.PID()), "-h", bed.Host(), "-t", "30s"}
			pmdaconf := func(args ...string) string {
				t.Helper()
				out, err := exec.Command(tool, args...).CombinedOutput()
				if err != nil {
					t.Fatalf("pmdaconf %v: %v\n%s", args, err, out)
				}
				return string(out)
			}
			out := pmdaconf(append(append([]string{"install"}, common...), "-s", frag,
				"simple", "253", "pipe", "binary", "/usr/bin/env", "PCP_PMDAS_DIR="+pmdas, agent, "-d", "253")...)
			if !strings.Contains(out, "Check simple metrics have appeared ... 5 metrics") {
				t.Errorf("install said:\n%s", out)
			}
			r := bed.Run("pminfo", "-h", bed.Host(), "-f", "simple.numfetch", "simple.now")
			if r.Err != nil || !strings.Contains(r.Stdout, `inst [1 or "min"]`) || !strings.Contains(r.Stdout, "simple.numfetch\n    value") {
				t.Errorf("pminfo after install: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
			}
			conf, _ := os.ReadFile(bed.ConfPath())
			if !strings.Contains(string(conf), "simple\t253\tpipe binary /usr/bin/env") {
				t.Errorf("pmcd.conf after install:\n%s", conf)
			}
			out = pmdaconf(append(append([]string{"remove"}, common...), "simple")...)
			if !strings.Contains(out, "Check simple metrics have gone away ... OK") {
				t.Errorf("remove said:\n%s", out)
			}
			r = bed.Run("pminfo", "-h", bed.Host(), "simple")
			if !strings.Contains(r.Stdout+r.Stderr, "Unknown metric name") {
				t.Errorf("pminfo after remove: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
			}
			if r := bed.Run("pminfo", "-h", bed.Host(), "-f", "pmcd.version"); r.Err != nil {
				t.Errorf("pmcd's own metrics after remove: %v\n%s", r.Err, r.Stderr)
			}
			conf, _ = os.ReadFile(bed.ConfPath())
			if strings.Contains(string(conf), "simple") {
				t.Errorf("pmcd.conf after remove:\n%s", conf)
			}

			// An agent serving its own names: the namespace gets
			// "trivial 250:*:*" and pmcd asks the agent.
			out = pmdaconf(append(append([]string{"install"}, common...),
				"trivial", "250", "pipe", "binary", trivial, "-d", "250", "-l", filepath.Join(dir, "trivial.log"))...)
			if !strings.Contains(out, "Check trivial metrics have appeared ... 1 metrics") {
				t.Errorf("install trivial said:\n%s", out)
			}
			if ns, _ := os.ReadFile(root); !strings.Contains(string(ns), "\ttrivial\t250:*:*\n") {
				t.Errorf("namespace after install:\n%s", ns)
			}
			if r := bed.Run("pminfo", "-h", bed.Host(), "-d", "trivial.time"); r.Err != nil || !strings.Contains(r.Stdout, "Data Type: 64-bit unsigned int") {
				t.Errorf("pminfo -d trivial.time: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
			}
			pmdaconf(append(append([]string{"remove"}, common...), "trivial")...)
		})
	}
}
