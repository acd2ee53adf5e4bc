package local

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestConfAgents reads pmcd.conf texts as libpcp 6.0.3's build_dsotab
// scans them (src/libpcp/src/connectlocal.c).
func TestConfAgents(t *testing.T) {
	linux := Entry{60, "/p/linux/pmda_linux.so", "linux_init"}
	for _, c := range []struct {
		name, text string
		want       []Entry
	}{
		{"dso line", "sample\t29\tdso\tsample_init\t/p/sample/pmda_sample.so\n", []Entry{{29, "/p/sample/pmda_sample.so", "sample_init"}}},
		{"skipped", "# c\npmcd 2 dso pmcd_init x\nsimple 253 pipe binary /x\n", nil},
		{"linux by its prefix", "linuxish 99 pipe binary /x\n", []Entry{linux}},
		{"leading space is no name", "  sample 29 dso i /p\n", nil},
		{"domain with junk", "a 1x dso i /p\n", nil},
		{"type starting dso", "a 7 dsoX i /p\n", []Entry{{7, "i", "X"}}},
		{"entry ends the line", "a 7 dso i\nb 8 dso j /q\nc 9 dso k /r\n", []Entry{{7, "b", "i"}, {9, "/r", "k"}}},
		{"domain on the next line", "a\n5 dso i /p\n", []Entry{{5, "/p", "i"}}},
		{"domain as a C int", "a 4294967297 dso i /p\n", []Entry{{1, "/p", "i"}}},
		{"NUL ends the text", "a 1 dso i /p\x00\nb 2 dso j /q\n", []Entry{{1, "/p", "i"}}},
		{"no path at the end", "a 3 dso i", []Entry{{3, "", "i"}}},
	} {
		got := confAgents([]byte(c.text), "/p")
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: confAgents(%q) = %v, want %v", c.name, c.text, got, c.want)
		}
	}
}

// FuzzConfAgents reads fuzzed pmcd.conf texts for a local context with
// confAgents and with libpcp, through PCP's pminfo -L -Dcontext, which
// prints each agent libpcp's scan finds: the lists must be the same.
// There are no more agents than lines, and the same ones whatever
// follows a NUL.
func FuzzConfAgents(f *testing.F) {
	for _, s := range []string{"sample\t29\tdso\tsample_init\t/p/sample/pmda_sample.so\n", "a 7 dso i\nb 8 dso j /q\n",
		"pmcd 2 dso pmcd_init x\nlinux 60 pipe binary /x\n# c\n", "a\n5 dso i /p\n", "a 3 dso i", "  s 1 dso i p\na 1x dso i /p\n"} {
		f.Add([]byte(s))
	}
	pminfo := pcptest.NeedTool(f, "pminfo")
	dir := f.TempDir()
	agentLine := regexp.MustCompile(`(?m)^\[\d+\] domain=(-?\d+), name=(.*), init=(.*)$`)
	f.Fuzz(func(t *testing.T, b []byte) {
		agents := confAgents(b, "/p")
		text := b
		if i := bytes.IndexByte(b, 0); i >= 0 {
			text = b[:i]
		}
		if len(agents) > bytes.Count(text, []byte("\n"))+1 {
			t.Fatalf("%d agents from %d lines", len(agents), bytes.Count(text, []byte("\n"))+1)
		}
		if again := confAgents(append(slices.Clone(text), "\x00junk 1 dso x /y\n"...), "/p"); !slices.Equal(again, agents) {
			t.Fatalf("after a NUL: %v, want %v", again, agents)
		}
		if len(text) > 0 && text[len(text)-1] != '\n' && len(agents) > 0 && agents[len(agents)-1].Path == "" {
			return // libpcp reads on past the end of its buffer
		}
		conf := filepath.Join(dir, "pmcd.conf")
		if err := os.WriteFile(conf, b, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(pminfo, "-L", "-Dcontext", "-m", "hinv.ncpu")
		cmd.Env = []string{"PCP_PMCDCONF_PATH=" + conf, "PCP_PMDAS_DIR=/p", "PATH=/usr/bin:/bin"}
		out, _ := cmd.CombinedOutput()
		var want []Entry
		for _, m := range agentLine.FindAllSubmatch(out, -1) {
			d, _ := strconv.Atoi(string(m[1]))
			want = append(want, Entry{Domain: d, Path: string(m[2]), Entry: string(m[3])})
		}
		if !slices.Equal(agents, want) {
			t.Fatalf("confAgents(%q) = %v; libpcp %v", b, agents, want)
		}
	})
}
