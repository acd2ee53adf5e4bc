package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/agents/linux"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// hostBound are metrics whose values do not come from the /proc and /sys
// trees LINUX_STATSPATH moves: statfs of live mount points.
var hostBound = []string{"filesys.", "tmpfs."}

// agentVarDir makes a PCP_VAR_DIR for one agent, so that the instance
// caches both agents keep start empty and land in the test's directory,
// writable by the user PCP's agent runs as.
func agentVarDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gopcp-linux-var-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, d := range []string{dir, filepath.Join(dir, "config"), filepath.Join(dir, "config", "pmda")} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(d, 0o777)
	}
	return dir
}

// TestFixtureAgainstPCP runs PCP's pmdalinux and ours on the same trees
// (through LINUX_STATSPATH): agents/linux/testdata/fixture, small and made
// by hand, and testdata/host, a copy of a real host's files with NFS,
// IPC, SCSI, tape and Fibre Channel samples added. It compares PCP's
// pminfo -f of every metric we serve byte for byte: values, instance
// names and numbers, and which metrics have no values.
func TestFixtureAgainstPCP(t *testing.T) {
	t.Parallel()
	for _, tree := range []string{"fixture", "host"} {
		t.Run(tree, func(t *testing.T) { fixtureAgainstPCP(t, tree) })
	}
}

func fixtureAgainstPCP(t *testing.T, tree string) {
	in := testbed.Need(t)
	root, err := filepath.Abs("../../agents/linux/testdata/" + tree)
	if err != nil {
		t.Fatal(err)
	}
	pmns := filepath.Join(in.Var("PCP_VAR_DIR"), "pmns", "root_linux")
	bin := pcptest.GoCommand(t, ".")
	// Without mdadm both agents report -1 for disk.md.status; PCP's would
	// otherwise run it.
	noMdadm := filepath.Join(t.TempDir(), "no-mdadm")
	bed := func(agent, varDir string) *testbed.PMCD {
		return testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
			testbed.PMCDAgent(),
			testbed.PipeAgent("linux", linux.Domain, pmns, "/usr/bin/env",
				"PCP_VAR_DIR="+varDir, "LINUX_STATSPATH="+root, "LINUX_MDADM="+noMdadm, agent, "-d", "60"),
		}})
	}
	theirVar, ourVar := agentVarDir(t), agentVarDir(t)
	theirs := bed(filepath.Join(in.Var("PCP_PMDAS_DIR"), "linux", "pmdalinux"), theirVar)
	ours := bed(bin, ourVar)
	var names []string
	for _, n := range linux.Names() {
		keep := true
		for _, p := range hostBound {
			keep = keep && !strings.HasPrefix(n, p)
		}
		if keep {
			names = append(names, n)
		}
	}
	want := runTool(t, theirs, "pminfo", append([]string{"-f"}, names...)...)
	got := runTool(t, ours, "pminfo", append([]string{"-f"}, names...)...)
	if got != want {
		t.Errorf("pminfo -f on the fixture tree differs:\n%s", firstDiff(got, want))
	}
	t.Logf("%d metrics compared", len(names))
	compareCacheFiles(t, filepath.Join(theirVar, "config", "pmda"), filepath.Join(ourVar, "config", "pmda"))
}

// compareCacheFiles checks that our agent wrote the same instance cache
// files as PCP's (the same files, header and entries), time stamps aside.
func compareCacheFiles(t *testing.T, theirDir, ourDir string) {
	t.Helper()
	list := func(dir string) map[string]string {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		files := make(map[string]string)
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(b), "\n")
			for i := 1; i < len(lines); i++ { // "inst stamp name": drop the stamp
				if f := strings.SplitN(lines[i], " ", 3); len(f) == 3 {
					lines[i] = f[0] + " " + f[2]
				}
			}
			files[e.Name()] = strings.Join(lines, "\n")
		}
		return files
	}
	want, got := list(theirDir), list(ourDir)
	if len(want) == 0 {
		t.Fatalf("PCP's agent wrote no cache files in %s", theirDir)
	}
	for name, w := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("cache file %s: PCP's agent wrote it, ours did not", name)
		} else if g != w {
			t.Errorf("cache file %s differs:\n%s", name, firstDiff(g, w))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("cache file %s: ours wrote it, PCP's agent did not", name)
		}
	}
	t.Logf("%d cache files compared", len(want))
}
