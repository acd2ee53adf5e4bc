package pmval

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// both is PCP's pmval and ours, built as a program, for the tests that
// watch a process's output as it is written.
func both(t *testing.T) map[string]string {
	t.Helper()
	return map[string]string{"PCP": pcptest.NeedTool(t, "pmval"), "ours": pcptest.GoCommand(t, "../../pmval")}
}

func damagedArchive(name string) string {
	return filepath.Join("..", "..", "..", "pmapi", "testdata", "damaged", name)
}

// TestOutputOrderAgainstPCP runs PCP's pmval and ours with stdout and
// stderr on one pipe (2>&1) and compares what the pipe carried: messages
// on stderr after many lines (more than block mode gathers before a
// write, so some were written when full and the rest before the message),
// a warning before the first line, the same under -d's pacing and with
// -z's note first, archives with <mark>s and missing values (which
// pmval reports on stdout between the values), and a bad
// PCP_IGNORE_MARK_RECORDS, which libpcp's interpolation reports when its
// reading first meets a <mark> (never, when not interpolating).
func TestOutputOrderAgainstPCP(t *testing.T) {
	bins := both(t)
	badMarks := map[string]bool{}
	cases := [][]string{
		{"-a", clitest.QAArchive(t, "multi-corrupted"), "-t", "0.5", "kernel.all.load"},
		{"-a", clitest.QAArchive(t, "multi-corrupted"), "-t", "0.2", "disk.dev.read"},
		{"-a", damagedArchive("dyninsts-roll"), "-t", "0.001", "disk.dev.write"},
		{"-a", damagedArchive("okmv-vol1"), "-t", "0.001", "sampledso.milliseconds"},
		{"-a", damagedArchive("gap-trailer"), "-U", damagedArchive("gap-trailer"), "-r", "pmcd.pdu_in.error"},
		{"-a", damagedArchive("short-len"), "-t", "10", "kernel.all.load"},
		{"-a", damagedArchive("short-len"), "-z", "-t", "10", "kernel.all.load"},
		{"-a", damagedArchive("okmv-len"), "-d", "-t", "0.01", "sampledso.bin"},
		{"-a", clitest.QAArchive(t, "20180102"), "-t", "0.5", "-S", "+5", "-s", "3000", "kernel.all.load"},
		// <mark>s and missing values: said on stdout, between values
		{"-a", clitest.QAArchive(t, "interpmark"), "-t", "0.1", "disk.dev.total"},
		{"-a", clitest.QAArchive(t, "interpmark"), "-U", clitest.QAArchive(t, "interpmark"), "disk.dev.total"},
		{"-a", clitest.QAArchive(t, "gap2"), "-t", "0.05", "proc.nprocs"},
	}
	for _, args := range [][]string{
		{"-a", clitest.QAArchive(t, "20180102"), "-t", "10m", "kernel.all.load"},
		{"-a", clitest.QAArchive(t, "20180102"), "-t", "10m", "-S", "+1h", "-s", "3", "kernel.all.load"},
		{"-a", clitest.QAArchive(t, "interpmark"), "-t", "5", "-s", "60", "network.tcpconn.close"},
		{"-a", clitest.QAArchive(t, "interpmark"), "-t", "13", "-s", "30", "disk.dev.total"},
		{"-a", clitest.QAArchive(t, "interpmark"), "-U", clitest.QAArchive(t, "interpmark"), "-s", "30", "mem.physmem"},
		{"-a", clitest.QAArchive(t, "count-mark"), "-t", "2", "-s", "40", "kernel.all.pswitch"},
	} {
		badMarks[strings.Join(args, " ")] = true
		cases = append(cases, args)
	}
	for _, args := range cases {
		name := strings.Join(args[2:], " ")
		if badMarks[strings.Join(args, " ")] {
			name = "bad PCP_IGNORE_MARK_RECORDS " + name
		}
		t.Run(name, func(t *testing.T) {
			var want, got string
			var wantCode, gotCode int
			for side, bin := range bins {
				cmd := exec.Command(bin, args...)
				cmd.Env = append(os.Environ(), clitest.ArchiveEnv...)
				if badMarks[strings.Join(args, " ")] {
					cmd.Env = append(cmd.Env, "PCP_IGNORE_MARK_RECORDS=5 fortnights")
				}
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out // one pipe
				code := 0
				if err := cmd.Run(); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						t.Fatal(err)
					}
					code = ee.ExitCode()
				}
				if side == "PCP" {
					want, wantCode = out.String(), code
				} else {
					got, gotCode = out.String(), code
				}
			}
			if got != want || gotCode != wantCode {
				t.Errorf("exit %d, PCP's %d\n%s", gotCode, wantCode, clitest.Diff(want, got))
			}
		})
	}
}

// started is a pmval started with stdout (and stderr) on a pipe the test
// reads.
type started struct {
	cmd *exec.Cmd
	r   *os.File
}

func start(t *testing.T, bin string, args ...string) *started {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), clitest.ArchiveEnv...)
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		r.Close()
	})
	return &started{cmd, r}
}

// signalOf is the signal that ended cmd, 0 for a normal exit.
func signalOf(t *testing.T, cmd *exec.Cmd) syscall.Signal {
	t.Helper()
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return ws.Signal()
	}
	return 0
}

// bigReplay is a replay whose output (1.1 MB) is far more than a pipe
// and block mode hold, so a reader that stops reading stops it.
func bigReplay() []string {
	return []string{"-a", damagedArchive("dyninsts-roll"), "-t", "0.001", "disk.dev.write"}
}

// fullOutput is what bin writes to stdout run with args to its end. The
// replay is the same whenever it is run, so it is run once per program
// and arguments for the test binary: three tests compare with the same
// bigReplay of each program.
func fullOutput(t *testing.T, bin string, args []string) []byte {
	t.Helper()
	key := strings.Join(append([]string{bin}, args...), "\x00")
	fullOutputs.Lock()
	defer fullOutputs.Unlock()
	if out, ok := fullOutputs.by[key]; ok {
		return out
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), clitest.ArchiveEnv...)
	out, _ := cmd.Output()
	if fullOutputs.by == nil {
		fullOutputs.by = map[string][]byte{}
	}
	fullOutputs.by[key] = out
	return out
}

var fullOutputs struct {
	sync.Mutex
	by map[string][]byte
}

// TestSignalMidReplay sends SIGTERM, SIGINT and signals that the Go
// runtime would ignore (SIGUSR1, SIGALRM, SIGXFSZ) to a replay writing to
// a pipe, as PCP's pmval and ours are being read: each ends by that signal,
// having written the start of its whole output up to the end of a line.
func TestSignalMidReplay(t *testing.T) {
	for side, bin := range both(t) {
		full := fullOutput(t, bin, bigReplay())
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGUSR1, syscall.SIGALRM, syscall.SIGXFSZ} {
			for _, after := range []int{1, 100 << 10, -1} {
				p := start(t, bin, bigReplay()...)
				head := make([]byte, max(after, 1))
				if _, err := io.ReadFull(p.r, head); err != nil {
					t.Fatal(err)
				}
				if after < 0 {
					// the signal comes while the process waits in a
					// write to the full pipe
					waitBlockedWrite(t, p.cmd.Process.Pid)
				}
				p.cmd.Process.Signal(sig)
				rest, err := io.ReadAll(p.r)
				if err != nil {
					t.Fatal(err)
				}
				got := append(head, rest...)
				if s := signalOf(t, p.cmd); s != sig {
					t.Errorf("%s after %d bytes: ended by %v, not %v", side, after, s, sig)
				}
				if !bytes.HasPrefix(full, got) || len(got) == len(full) || !bytes.HasSuffix(got, []byte("\n")) {
					t.Errorf("%s after %d bytes, %v: %d bytes, not the start of the whole %d up to a line's end (ends %q)",
						side, after, sig, len(got), len(full), got[max(0, len(got)-40):])
				}
			}
		}
	}
}

// waitBlockedWrite waits until a thread of process pid is in a write to
// its stdout, as /proc says.
func waitBlockedWrite(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/syscall", pid))
		for _, f := range tasks {
			b, _ := os.ReadFile(f)
			if strings.HasPrefix(string(b), fmt.Sprintf("%d 0x1 ", syscall.SYS_WRITE)) {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("process %d never waited in a write to stdout", pid)
}

// TestReaderGoesAway closes the pipe a replay writes to after its first
// bytes: PCP's pmval and ours end by SIGPIPE with nothing on stderr.
func TestReaderGoesAway(t *testing.T) {
	for side, bin := range both(t) {
		full := fullOutput(t, bin, bigReplay())
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, bigReplay()...)
		cmd.Env = append(os.Environ(), clitest.ArchiveEnv...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = w, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		head := make([]byte, 1000)
		if _, err := io.ReadFull(r, head); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if s := signalOf(t, cmd); s != syscall.SIGPIPE || stderr.Len() != 0 {
			t.Errorf("%s: ended by %v (not SIGPIPE), stderr %q", side, s, stderr.String())
		}
		if !bytes.HasPrefix(full, head) {
			t.Errorf("%s: the first bytes are not the whole run's", side)
		}
	}
}

// TestPacedLinesWritten checks that a run that waits (-d's pacing of an
// archive) has written each sample before it waits, as PCP's does: the
// first value line arrives while the process sleeps an hour.
func TestPacedLinesWritten(t *testing.T) {
	args := []string{"-a", clitest.QAArchive(t, "20180102"), "-d", "-t", "1h", "-s", "3", "kernel.all.load"}
	for side, bin := range both(t) {
		p := start(t, bin, args...)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		found := make(chan bool, 1)
		go func() {
			sc := bufio.NewScanner(p.r)
			for sc.Scan() {
				if valueLine.MatchString(sc.Text()) {
					found <- true
					return
				}
			}
			found <- false
		}()
		select {
		case ok := <-found:
			if !ok {
				t.Errorf("%s: no value line", side)
			}
		case <-ctx.Done():
			t.Errorf("%s: no value line written while it waits", side)
		}
		cancel()
		p.cmd.Process.Kill()
	}
}

var valueLine = regexp.MustCompile(`^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} `)

// TestSignalWritesWaitingLines is the handshake on a signal that comes
// while block mode holds lines and no write is under way: the lines
// complete at that point are written, the rest is not, and the process
// ends by the signal. The test binary runs itself as the child.
func TestSignalWritesWaitingLines(t *testing.T) {
	if os.Getenv("GOPCP_PMVAL_SIGNAL_CHILD") == "1" {
		o := newOutput(os.Stdout, true)
		o.watchSignals()
		o.WriteString("first line\nsecond line\npart of a th")
		syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
		for o.sig.Load() == 0 {
			runtime.Gosched()
		}
		o.sampleDone()
		t.Fatal("sampleDone returned after a signal")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalWritesWaitingLines$")
	cmd.Env = append(os.Environ(), "GOPCP_PMVAL_SIGNAL_CHILD=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if s := signalOf(t, cmd); s != syscall.SIGTERM || out.String() != "first line\nsecond line\n" {
		t.Errorf("ended by %v with %q written", s, out.String())
	}
}

// TestIsTerminal: a pipe, a file and /dev/null (a character device) are
// not terminals, so output to them gathers lines; a pseudo-terminal is.
func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, f := range map[string]*os.File{"pipe": w, "null": null, "file": file} {
		if cli.IsTerminal(f) || !blockable(f) {
			t.Errorf("%s taken for a terminal", name)
		}
	}
	if !blockable(&bytes.Buffer{}) {
		t.Error("a buffer is not blockable")
	}
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if !cli.IsTerminal(ptmx) || blockable(ptmx) {
		t.Error("a pseudo-terminal is not taken for a terminal")
	}
}
