package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

func TestMain(m *testing.M) { os.Exit(pcptest.Main(m)) }

// outcome is everything a newhelp run leaves: the two files, what it
// said and its exit status.
type outcome struct {
	pag, dir []byte
	stderr   string
	status   int
}

// runNewhelp runs prog in a fresh directory holding the test inputs, with
// stdin, writing the database to "out" unless args name it.
func runNewhelp(t *testing.T, prog, stdin string, inputs map[string]string, args ...string) outcome {
	t.Helper()
	dir := t.TempDir()
	for name, text := range inputs {
		if strings.HasSuffix(name, "/") {
			if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	o := outcome{stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		o.status = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", prog, err)
	}
	base := "out"
	for i, a := range args {
		if a == "-o" && i+1 < len(args) {
			base = args[i+1]
		}
	}
	if len(args) > 0 && !strings.HasPrefix(args[len(args)-1], "-") && !strings.Contains(strings.Join(args, " "), "-o") {
		base = args[len(args)-1]
	}
	o.pag, _ = os.ReadFile(filepath.Join(dir, base+".pag"))
	o.dir, _ = os.ReadFile(filepath.Join(dir, base+".dir"))
	return o
}

func compare(t *testing.T, name string, got, want outcome) {
	t.Helper()
	if !bytes.Equal(got.pag, want.pag) {
		t.Errorf("%s: .pag differs:\nours:\n%q\nPCP's:\n%q", name, got.pag, want.pag)
	}
	if !bytes.Equal(got.dir, want.dir) {
		t.Errorf("%s: .dir differs:\nours:  %x\nPCP's: %x", name, got.dir, want.dir)
	}
	if got.stderr != want.stderr {
		t.Errorf("%s: stderr:\nours:\n%s\nPCP's:\n%s", name, got.stderr, want.stderr)
	}
	if got.status != want.status {
		t.Errorf("%s: exit status %d, PCP's %d", name, got.status, want.status)
	}
}

func readTestdata(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	names, _ := filepath.Glob("testdata/*")
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(n)] = string(b)
	}
	return files
}

// TestAgainstPCP runs PCP's newhelp and ours on the same inputs and
// compares the database files byte for byte, the messages and the exit
// status: ordinary entries, every kind of problem, newhelp's line and
// entry limits, standard input, several files, verbose mode and bad
// options.
func TestAgainstPCP(t *testing.T) {
	theirs := pcptest.NeedTool(t, "newhelp")
	ourBin := pcptest.GoCommand(t, ".")
	inputs := readTestdata(t)
	inputs["adir/"] = ""
	inputs["empty.pmns"] = ""
	inputs["garbage.pmns"] = "garbage\n"
	cases := []struct {
		name  string
		stdin string
		args  []string
	}{
		// A namespace PCP cannot load: libpcp's own message first.
		{"missing namespace", "", []string{"-n", "nosuch", "basic.help"}},
		{"empty namespace", "", []string{"-n", "empty.pmns", "basic.help"}},
		{"garbage namespace", "", []string{"-n", "garbage.pmns", "basic.help"}},
		{"namespace is a directory", "", []string{"-n", "adir", "basic.help"}},
		// Input that is a directory reads as empty.
		{"input is a directory", "", []string{"-n", "root", "adir"}},
		{"empty output name", "", []string{"-n", "root", "-o", "", "basic.help"}},
		{"basic", "", []string{"-n", "root", "-o", "out", "basic.help"}},
		{"basic verbose", "", []string{"-V", "-n", "root", "-o", "out", "basic.help"}},
		{"errors", "", []string{"-n", "root", "-o", "out", "errors.help"}},
		{"errors verbose", "", []string{"-V", "-n", "root", "-o", "out", "errors.help"}},
		{"long", "", []string{"-n", "root", "-o", "out", "long.help"}},
		{"long verbose", "", []string{"--verbose", "-n", "root", "-o", "out", "long.help"}},
		{"output named by the input", "", []string{"-n", "root", "basic.help"}},
		{"several files", "", []string{"-n", "root", "-o", "out", "basic.help", "errors.help", "long.help"}},
		{"stdin", inputs["basic.help"], []string{"-n", "root", "-o", "out"}},
		{"version 2", "", []string{"-v", "2", "-n", "root", "-o", "out", "basic.help"}},
		{"version 1", "", []string{"-v", "1", "-n", "root", "-o", "out", "basic.help"}},
		{"no output name", "", []string{"-n", "root"}},
		{"bad option", "", []string{"-x", "-n", "root", "basic.help"}},
		{"usage", "", []string{"-?"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := runNewhelp(t, theirs, c.stdin, inputs, c.args...)
			got := runNewhelp(t, ourBin, c.stdin, inputs, c.args...)
			compare(t, c.name, got, want)
		})
	}
}

// TestGeneratedAgainstPCP compares the two on pseudo-random sources built
// from the test namespace's names, numeric identifiers, comments, blank
// runs, odd spacing and lines and entries around newhelp's limits.
func TestGeneratedAgainstPCP(t *testing.T) {
	theirs := pcptest.NeedTool(t, "newhelp")
	ourBin := pcptest.GoCommand(t, ".")
	inputs := readTestdata(t)
	names := []string{"demo.count", "demo.rate", "demo.twin", "demo.disk.read", "demo.disk.write",
		"demo.disk.busy", "demo.disk", "250.0.3", "250.7", "29.1", "251.2.3", "nosuch", "250.1.1.1", "1.2x"}
	words := []string{"value", "count", "\t", "  ", "x", "the", "#", "@", "disk", "of"}
	for seed := uint64(1); seed <= 30; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		var b strings.Builder
		for e := 0; e < 1+r.IntN(25); e++ {
			if r.IntN(6) == 0 {
				b.WriteString("# comment\n")
			}
			fmt.Fprintf(&b, "@%s%s", strings.Repeat(" ", r.IntN(3)), names[r.IntN(len(names))])
			for w := r.IntN(8); w > 0; w-- {
				b.WriteString(" " + words[r.IntN(len(words))])
			}
			b.WriteString("\n")
			for l := r.IntN(6); l > 0; l-- {
				n := r.IntN(12)
				if r.IntN(10) == 0 {
					n = 20 + r.IntN(40) // long lines
				}
				for w := 0; w < n; w++ {
					b.WriteString(words[r.IntN(len(words))] + " ")
				}
				b.WriteString(strings.Repeat("\n", 1+r.IntN(2)))
			}
			if r.IntN(15) == 0 {
				b.WriteString(strings.Repeat("filler line of help text\n", 30+r.IntN(30)))
			}
		}
		src := b.String()
		if r.IntN(4) == 0 {
			src = strings.TrimSuffix(src, "\n")
		}
		in := map[string]string{"root": inputs["root"], "gen.help": src}
		args := []string{"-n", "root", "-o", "out", "gen.help"}
		if seed%3 == 0 {
			args = append([]string{"-V"}, args...)
		}
		want := runNewhelp(t, theirs, "", in, args...)
		got := runNewhelp(t, ourBin, "", in, args...)
		compare(t, fmt.Sprintf("seed %d", seed), got, want)
		if t.Failed() {
			t.Logf("input:\n%s", src)
			return
		}
	}
}

// TestPCPAgentsHelp builds the help of PCP's own agents from PCP's source,
// when the source is at hand, with both programs: real help files, with
// their domains put in as PCP's Install scripts do.
func TestPCPAgentsHelp(t *testing.T) {
	theirs := pcptest.NeedTool(t, "newhelp")
	const mirror = "/work/.mirror/performancecopilot+pcp/repo"
	if _, err := os.Stat(mirror); err != nil {
		t.Skip("PCP's source is not at hand")
	}
	ourBin := pcptest.GoCommand(t, ".")
	show := func(path string) string {
		out, err := exec.Command("git", "-C", mirror, "show", "6.0.3:"+path).Output()
		if err != nil {
			t.Fatalf("git show %s: %v", path, err)
		}
		return string(out)
	}
	for _, a := range []struct{ dir, sym, domain string }{
		{"src/pmdas/simple", "SIMPLE", "253"},
		{"src/pmdas/trivial", "TRIVIAL", "250"},
		{"src/pmdas/sample", "SAMPLE", "29"},
	} {
		help := show(a.dir + "/help")
		help = strings.ReplaceAll(help, "@ "+a.sym+".", "@ "+a.domain+".")
		pmns := strings.ReplaceAll(show(a.dir+"/pmns"), a.sym+":", a.domain+":")
		root := "root { " + strings.ToLower(a.sym) + " }\n" + pmns
		in := map[string]string{"root": root, "help": help}
		want := runNewhelp(t, theirs, "", in, "-n", "root", "-o", "out", "help")
		got := runNewhelp(t, ourBin, "", in, "-n", "root", "-o", "out", "help")
		if len(want.pag) < 100 {
			t.Fatalf("%s: PCP's newhelp built nothing: %s", a.dir, want.stderr)
		}
		compare(t, a.dir, got, want)
	}
}
