package trace_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/trace"
)

// built holds the C program built once for the package's tests.
var built struct {
	once sync.Once
	feed string
	err  error
}

// programs builds testdata's C feed against libpcp_trace (once), our
// pmdatrace and our pmtrace.
func programs(t testing.TB) (feed, agent, pmtrace string) {
	t.Helper()
	pcptest.NeedCompiler(t)
	built.once.Do(func() {
		dir, err := pcptest.ProcessDir("gopcp-trace-")
		if err != nil {
			built.err = err
			return
		}
		os.Chmod(dir, 0o755)
		built.feed = filepath.Join(dir, "tracefeed")
		if out, err := exec.Command("gcc", "-o", built.feed, "../../trace/testdata/tracefeed.c", "-lpcp_trace").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("gcc: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.feed, pcptest.GoCommand(t, "../../cmd/pmdatrace"), pcptest.GoCommand(t, "../../cmd/pmtrace")
}

// pmnsRoot writes a namespace for domain 10 from PCP's own trace pmns,
// so that both agents are asked for PCP's names and PMIDs.
func pmnsRoot(t testing.TB, in *testbed.Install) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(in.Var("PCP_PMDAS_DIR"), "trace", "pmns"))
	if err != nil {
		t.Skipf("PCP's trace pmns: %v", err)
	}
	body := strings.ReplaceAll(string(src), "TRACE:", "10:")
	root := filepath.Join(t.TempDir(), "root")
	if err := os.WriteFile(root, []byte("root {\n\ttrace\n}\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Dir(root), 0o755)
	return root
}

// bedWith starts a private PCP pmcd running agent argv (a pmdatrace) as a
// pipe agent listening for programs on a port of the bed's, which it
// returns: the bed holds that port, and starts again on another should a
// process outside this test take it before the agent listens.
func bedWith(t testing.TB, root string, argv ...string) (*testbed.PMCD, int) {
	t.Helper()
	argv = append(argv, "-d", "10", "-I", testbed.PortArg)
	bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.PipeAgent("trace", 10, root, argv...),
	}})
	port := bed.AgentPort("trace")
	waitPort(t, port)
	return bed, port
}

// waitPort waits until something accepts on port.
func waitPort(t testing.TB, port int) {
	t.Helper()
	for i := 0; i < 600; i++ {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err == nil {
			// Read the welcome, then go: an agent counts us as a
			// program until we close.
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			io.ReadFull(c, make([]byte, trace.AckLen))
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nothing listens on port %d", port)
}

// tee is a proxy for a program: what the program sends goes to both
// agents; the program hears the first agent; the second one's answers
// are kept for comparison.
type tee struct {
	ln           net.Listener
	first, other int
	mu           sync.Mutex
	heard        [2][]byte
	wg           sync.WaitGroup
}

func newTee(t testing.TB, first, other int) *tee {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	x := &tee{ln: ln, first: first, other: other}
	x.wg.Add(1)
	go x.accept()
	t.Cleanup(func() { ln.Close(); x.wg.Wait() })
	return x
}

func (x *tee) port() int { return x.ln.Addr().(*net.TCPAddr).Port }

func (x *tee) accept() {
	defer x.wg.Done()
	for {
		c, err := x.ln.Accept()
		if err != nil {
			return
		}
		x.wg.Add(1)
		go x.serve(c)
	}
}

// serve relays one program, a PDU at a time so that both agents see each
// one before the program hears the answer.
func (x *tee) serve(prog net.Conn) {
	defer x.wg.Done()
	defer prog.Close()
	var up [2]net.Conn
	for i, p := range []int{x.first, x.other} {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			return
		}
		defer c.Close()
		up[i] = c
	}
	ack := func(i int) ([]byte, bool) {
		b := make([]byte, trace.AckLen)
		up[i].SetReadDeadline(time.Now().Add(30 * time.Second))
		if _, err := io.ReadFull(up[i], b); err != nil {
			return nil, false
		}
		x.mu.Lock()
		x.heard[i] = append(x.heard[i], b[trace.HeaderLen:]...)
		x.mu.Unlock()
		return b, true
	}
	w0, ok0 := ack(0)
	_, ok1 := ack(1)
	if !ok0 || !ok1 {
		return
	}
	prog.Write(w0)
	br := bufio.NewReader(prog)
	for {
		hdr := make([]byte, trace.HeaderLen)
		if _, err := io.ReadFull(br, hdr); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(hdr))
		if n < trace.HeaderLen || n > 4096 {
			return
		}
		pdu := append(hdr, make([]byte, n-trace.HeaderLen)...)
		if _, err := io.ReadFull(br, pdu[trace.HeaderLen:]); err != nil {
			return
		}
		up[0].Write(pdu)
		up[1].Write(pdu)
		if len(pdu) > trace.HeaderLen+4 && pdu[trace.HeaderLen+3]&(1<<7) != 0 {
			a0, ok0 := ack(0)
			_, ok1 := ack(1)
			if !ok0 || !ok1 {
				return
			}
			prog.Write(a0)
		}
	}
}

// values is pminfo -f trace from a bed, the port line (which differs by
// design) left out.
func values(t testing.TB, bed *testbed.PMCD) string {
	t.Helper()
	r := bed.Run("pminfo", "-f", "trace")
	if r.Err != nil {
		t.Fatalf("pminfo: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	return controlLines.ReplaceAllString(r.Stdout, "")
}

var controlLines = regexp.MustCompile(`(?m)^trace\.control\.port\n    value .*\n\n?`)

// windowFull reports whether every tag counted has a rate, that is the
// window covers every datum sent: rate times the period equals the count.
func windowFull(out string, period float64) bool {
	for _, kind := range []string{"transact", "point", "observe", "counter"} {
		counts := section(out, "trace."+kind+".count")
		rates := section(out, "trace."+kind+".rate")
		if len(counts) != len(rates) {
			return false
		}
		for inst, c := range counts {
			r, ok := rates[inst]
			if !ok {
				return false
			}
			cv, _ := strconv.ParseFloat(c, 64)
			rv, _ := strconv.ParseFloat(r, 64)
			if d := rv*period - cv; d > 0.01 || d < -0.01 {
				return false
			}
		}
	}
	return true
}

// section reads the instance lines of one metric in pminfo -f output.
func section(out, metric string) map[string]string {
	m := map[string]string{}
	i := strings.Index(out, "\n"+metric+"\n")
	if i < 0 {
		return m
	}
	for _, l := range strings.Split(out[i+len(metric)+2:], "\n") {
		if !strings.HasPrefix(l, "    inst ") {
			break
		}
		f := strings.Fields(l)
		m[strings.Join(f[:len(f)-2], " ")] = f[len(f)-1]
	}
	return m
}

// feedScript gives every type several tags, a tag shared by two types,
// values and transactions of varied times, and an abort.
func feedScript(rounds int) string {
	var b strings.Builder
	for i := 0; i < rounds; i++ {
		fmt.Fprintf(&b, "point p%d\npoint shared\nobs o%d %d.%d\ncounter c%d %d\ncounter shared %d\n", i%3, i%2, i*7, i, i%4, i*10, i)
		fmt.Fprintf(&b, "begin t%d\nsleep %d\nend t%d\n", i%3, i%5, i%3)
		if i%4 == 0 {
			fmt.Fprintf(&b, "begin aborted\nabort aborted\n")
		}
	}
	b.WriteString("obs " + strings.Repeat("L", 124) + " 1\n")
	return b.String()
}

// TestSameAsPCP feeds PCP's pmdatrace and ours the same stream from
// libpcp_trace (a C program, synchronous then asynchronous) and from PCP's
// pmtrace, through a proxy that hands every PDU to both, and compares
// pminfo -f trace under two private PCP pmcds: instances in the same
// order with the same numbers, counts, totals, values, and, once every
// datum is inside both windows (a period of 600 s in 2 s intervals, so
// the window then holds the whole stream whatever the clock), the rates
// and transaction times. The acknowledgements both agents send are
// compared too.
func TestSameAsPCP(t *testing.T) {
	feed, agent, _ := programs(t)
	in := testbed.Need(t)
	root := pmnsRoot(t, in)
	window := []string{"-T", "600", "-N", "300"}
	pcpBed, pcpPort := bedWith(t, root, append([]string{filepath.Join(in.Var("PCP_PMDAS_DIR"), "trace", "pmdatrace")}, window...)...)
	goBed, goPort := bedWith(t, root, append([]string{agent}, window...)...)
	x := newTee(t, pcpPort, goPort)

	env := []string{"PCP_TRACE_HOST=127.0.0.1", "PCP_TRACE_PORT=" + strconv.Itoa(x.port()), "PATH=/usr/bin:/bin"}
	for _, script := range []string{feedScript(12), "state 32\n" + feedScript(7)} {
		cmd := exec.Command(feed)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(script)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tracefeed: %v\n%s", err, out)
		}
	}
	pmtrace, err := in.Tool("pmtrace")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-v", "3.25", "viapmtrace"}, {"-c", "9", "viapmtrace"}, {"-e", "true", "viapmtrace"}, {"viapmtrace"}, {"-q", "shared"}} {
		cmd := exec.Command(pmtrace, args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pmtrace %v: %v\n%s", args, err, out)
		}
	}

	// gopcp's library, both protocols, and gopcp's pmtrace go the same
	// way: PCP's agent must take their PDUs as it takes libpcp_trace's.
	for _, async := range []bool{false, true} {
		c, err := trace.New(trace.Options{Host: "127.0.0.1", Port: x.port(), Async: async})
		if err != nil {
			t.Fatal(err)
		}
		goCalls(t, c)
		c.Close()
	}
	_, _, ourPmtrace := programs(t)
	for _, args := range [][]string{{"-v", "-2.5", "ourpmtrace"}, {"-c", "0x10", "ourpmtrace"}, {"-e", "true", "ourpmtrace"}, {"ourpmtrace"}} {
		cmd := exec.Command(ourPmtrace, args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("our pmtrace %v: %v\n%s", args, err, out)
		}
	}

	pcpOut, goOut := bothFull(t, pcpBed, goBed)
	if pcpOut != goOut {
		t.Errorf("pminfo -f trace differs\nPCP's pmdatrace:\n%s\ngopcp's:\n%s", pcpOut, goOut)
	}

	// Stores: the debug number is kept, other control metrics refused,
	// as PCP's agent answers.
	for _, args := range [][]string{{"trace.control.debug", "5"}, {"trace.control.period", "3"}, {"trace.control.buckets", "1"}} {
		pr, gr := pcpBed.Run("pmstore", args...), goBed.Run("pmstore", args...)
		if pr.Stdout+pr.Stderr != gr.Stdout+gr.Stderr || pr.ExitCode != gr.ExitCode {
			t.Errorf("pmstore %v:\nPCP: %s%s(exit %d)\ngopcp: %s%s(exit %d)", args, pr.Stdout, pr.Stderr, pr.ExitCode, gr.Stdout, gr.Stderr, gr.ExitCode)
		}
	}

	// A reset, then tags old and new: numbers come back, the domains
	// are sorted by number, in both.
	for _, bed := range []*testbed.PMCD{pcpBed, goBed} {
		if r := bed.Run("pmstore", "trace.control.reset", "1"); r.Err != nil {
			t.Fatalf("pmstore: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
		}
	}
	cmd := exec.Command(feed)
	cmd.Env = env
	cmd.Stdin = strings.NewReader("point newtag\npoint p2\npoint p0\ncounter c3 1\nbegin t1\nend t1\nobs o1 1\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tracefeed: %v\n%s", err, out)
	}
	pcpReset, goReset := bothFull(t, pcpBed, goBed)
	if pcpReset != goReset {
		t.Errorf("after a reset, pminfo -f trace differs\nPCP's pmdatrace:\n%s\ngopcp's:\n%s", pcpReset, goReset)
	}
	if !strings.Contains(goReset, `inst [4 or "p2"] value 1`) {
		t.Errorf("p2 lost its number across the reset:\n%s", goReset)
	}
	x.mu.Lock()
	if string(x.heard[0]) != string(x.heard[1]) {
		t.Errorf("acknowledgements differ: PCP % x, gopcp % x", x.heard[0], x.heard[1])
	}
	acks := len(x.heard[0]) / 4
	x.mu.Unlock()
	t.Logf("%d metric lines equal, %d after a reset, %d acknowledgements equal", strings.Count(goOut, "\n"), strings.Count(goReset, "\n"), acks)
	if testing.Verbose() {
		t.Logf("\n%s\n%s", goOut, goReset)
	}
}

// bothFull waits until both beds' windows hold every datum and returns
// their pminfo -f trace.
func bothFull(t *testing.T, pcpBed, goBed *testbed.PMCD) (string, string) {
	t.Helper()
	var pcpOut, goOut string
	for i := 0; ; i++ {
		pcpOut, goOut = values(t, pcpBed), values(t, goBed)
		if windowFull(pcpOut, 600) && windowFull(goOut, 600) {
			break
		}
		if i == 120 {
			t.Fatalf("the windows never held every datum\nPCP:\n%s\ngopcp:\n%s", pcpOut, goOut)
		}
		time.Sleep(500 * time.Millisecond)
	}
	return pcpOut, goOut
}

// goCalls makes every kind of call through a Client; each must succeed
// (in the synchronous protocol, each acknowledged with its type).
func goCalls(t *testing.T, c *trace.Client) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		check := func(what string, err error) {
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		}
		check("point", c.Point(ctx, "gopoint"))
		check("point", c.Point(ctx, "shared"))
		check("observe", c.Observe(ctx, "goobs", float64(i)*1.5))
		check("counter", c.Counter(ctx, "shared", float64(100+i)))
		check("begin", c.Begin(ctx, "gotx"))
		check("end", c.End(ctx, "gotx"))
		tx := c.Start("gotx2")
		check("transaction", tx.End(ctx))
	}
}
