package proc_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// atopName is the command name of the process TestAtopMatchesPCP
// starts: sleep run through a link of this name, so that the kernel's
// comm (and so atop's name column) is one no other process has.
const atopName = "gopcpatopsleep"

// asleep starts sleep under the name atopName and returns its pid once
// the kernel shows it under that name and asleep: only then are its
// values (faults, times, run delay) still while the tools read them.
func asleep(t *testing.T) int {
	link := filepath.Join(t.TempDir(), atopName)
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(sleep, link); err != nil {
		t.Fatal(err)
	}
	pid := child(t, link, "1008")
	// Bounded by the test's deadline: sleep reaches its nanosleep in
	// moments, however loaded the host.
	for {
		comm, err1 := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		stat, err2 := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err1 != nil || err2 != nil {
			t.Fatalf("sleep %d: %v %v", pid, err1, err2)
		}
		if strings.TrimSpace(string(comm)) == atopName && bytes.Contains(stat, []byte(") S ")) {
			return pid
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// atopInterval is the interval, in seconds, of the one sample pcp-atop
// takes. pcp-atop arms an interval timer before its first sample and
// takes SIGALRM without SA_RESTART, so a sample that takes longer than
// the interval (a loaded host, thousands of processes) has a read from
// pmcd interrupted: libpcp turns the EINTR into PM_ERR_IPC and pcp-atop
// stops with "task query: IPC protocol failure" (or "acct" or "gpu"),
// no agent dead and nothing in pmcd's log. With PCP's pmdaproc held
// still for 3 s during a sample, one second failed two runs of six and
// an hour none of six. One sample is printed at once, whatever the
// interval (its values are since boot), so an hour costs nothing.
const atopInterval = "3600"

// atopLine is one line of pcp-atop's parseable output: its label, the
// pid, and the fields after the sample's host, time and interval.
type atopLine struct {
	label  string
	pid    int
	fields []string
}

// parseAtop reads pcp-atop -P output into its process lines.
func parseAtop(out string) ([]atopLine, error) {
	var lines []atopLine
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l) // -Z: no spaces in names and command lines
		if len(f) == 0 || !strings.HasPrefix(f[0], "PR") {
			continue // RESET, SEP and blank lines
		}
		// label host epoch date time interval pid name ...
		if len(f) < 8 {
			return nil, fmt.Errorf("short line %q", l)
		}
		pid, err := strconv.Atoi(f[6])
		if err != nil {
			return nil, fmt.Errorf("line %q: pid: %v", l, err)
		}
		lines = append(lines, atopLine{f[0], pid, f[6:]})
	}
	return lines, nil
}

// shapes maps each label to the number of fields most of its lines
// have: the form of the output, whichever processes came and went
// (another process's name may hold a space, which -Z keeps).
func shapes(lines []atopLine) map[string]int {
	counts := map[string]map[int]int{}
	for _, l := range lines {
		if counts[l.label] == nil {
			counts[l.label] = map[int]int{}
		}
		counts[l.label][len(l.fields)]++
	}
	m := map[string]int{}
	for label, c := range counts {
		for n, k := range c {
			if k > c[m[label]] || k == c[m[label]] && n < m[label] {
				m[label] = n
			}
		}
	}
	return m
}

// TestAtopMatchesPCP: PCP's pcp-atop, as PCP's QA runs it (output to a
// file, so plain text, one sample since boot; see atopInterval), prints the process the
// test starts from ours as from PCP's pmdaproc: in its parseable output
// (general, CPU, memory, disk and network lines) the same fields with the
// same values, each label's lines with PCP's number of fields, and on
// its screen the process table's heading and the process's row equal.
func TestAtopMatchesPCP(t *testing.T) {
	b := toolBeds(t)
	pid := asleep(t)
	parse := []string{"pcp-atop", "-a", "-Z", "-P", "PRG,PRC,PRM,PRD,PRN", atopInterval, "1"}
	screen := []string{"pcp-atop", "-a", atopInterval, "1"}

	mine := func(lines []atopLine) map[string][]string {
		m := map[string][]string{}
		for _, l := range lines {
			if l.pid == pid {
				m[l.label] = l.fields
			}
		}
		return m
	}
	wantLines, err := parseAtop(tool(t, b.pcp, parse...))
	if err != nil {
		t.Fatal(err)
	}
	want := mine(wantLines)
	if len(want) != 5 || want["PRG"][1] != atopName {
		t.Fatalf("PCP's pcp-atop: lines of %d: %v", pid, want)
	}
	wantRow, wantHead := atopRow(t, tool(t, b.pcp, screen...), pid)

	for bed, p := range b.ours() {
		gotLines, err := parseAtop(tool(t, p, parse...))
		if err != nil {
			t.Fatalf("%s: %v", bed, err)
		}
		got := mine(gotLines)
		for label, w := range want {
			if !slices.Equal(got[label], w) {
				t.Errorf("%s: %s of %d:\n ours %q\nPCP's %q", bed, label, pid, got[label], w)
			}
		}
		if ws, gs := shapes(wantLines), shapes(gotLines); fmt.Sprint(ws) != fmt.Sprint(gs) {
			t.Errorf("%s: field counts by label %v, PCP's %v", bed, gs, ws)
		}
		row, head := atopRow(t, tool(t, p, screen...), pid)
		if row != wantRow || head != wantHead {
			t.Errorf("%s: screen\n%s\n%s\nPCP's\n%s\n%s", bed, head, row, wantHead, wantRow)
		}
		t.Logf("%s: %d process lines; %s's as PCP's: %q", bed, len(gotLines), atopName, got["PRG"])
	}
}

// atopRow finds the process table's heading and pid's row on pcp-atop's
// screen output.
func atopRow(t *testing.T, out string, pid int) (row, head string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) > 1 && f[0] == "PID" && head == "":
			head = strings.Join(f, " ")
		case len(f) > 1 && f[0] == strconv.Itoa(pid) && f[len(f)-1] == atopName:
			row = strings.Join(f, " ")
		}
	}
	if row == "" || head == "" {
		t.Fatalf("no process table or no row for %d in:\n%s", pid, out)
	}
	return row, head
}
