package local

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/local/agentserver"
	"github.com/gopcp/gopcp/pmda"
)

// hideInProcess takes entry out of this test binary's registry until the
// test ends, so that a context runs it in Companion as a program that
// does not link the agents does.
func hideInProcess(t *testing.T, entry string) {
	t.Helper()
	f, ok := pmda.Lookup(entry)
	if !ok {
		t.Fatalf("%s is not registered in-process", entry)
	}
	pmda.Register(entry, nil)
	t.Cleanup(func() { pmda.Register(entry, f) })
}

// companionFinder builds Companion and gives WithCompanion's finder of
// it.
func companionFinder(t *testing.T) func() (string, error) {
	t.Helper()
	bin := pcptest.GoCommand(t, "../../cmd/pmdalocal")
	return func() (string, error) { return bin, nil }
}

// sampleContext is a local context running the sample agent, with its
// names from the agent.
func sampleContext(t *testing.T, warn *bytes.Buffer, opts ...Option) *Context {
	t.Helper()
	ns, err := sample.Namespace(29)
	if err != nil {
		t.Fatal(err)
	}
	opts = append([]Option{WithTable(specTable(t, "clear", "add,29,pmda_sample.so,sample_init")), WithNamespace(ns), WithWarnings(warn)}, opts...)
	c, err := NewContext(context.Background(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sampleTranscript asks a sample agent's context the questions the
// tools ask, a store and its effect included, and writes down every
// answer and error.
func sampleTranscript(t *testing.T, c *Context) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	note := func(what string, v any, err error) { fmt.Fprintf(&b, "%s: %+v %v\n", what, v, err) }
	names, err := c.Traverse(ctx, "sample.secret")
	note("traverse", names, err)
	kids, err := c.ChildrenStatus(ctx, "sample.secret.foo")
	note("children", kids, err)
	fixed := []string{"sample.long.one", "sample.long.hundred", "sample.colour", "sample.string.hullo",
		"sample.bin", "sample.secret.foo.bar.max.redirect", "sample.write_me", "sample.nosuch", "sample.bad.fetch.again"}
	ids, err := c.LookupNames(ctx, fixed)
	note("pmids", ids, err)
	for _, id := range ids {
		if id == pcp.PMIDNull {
			continue
		}
		d, err := c.LookupDesc(ctx, id)
		note("desc "+id.String(), d, err)
		all, err := c.NameAll(ctx, id)
		note("names "+id.String(), all, err)
		text, err := c.LookupText(ctx, id, pmapi.TextOneLine)
		note("text "+id.String(), text, err)
		labels, err := c.ItemLabels(ctx, id)
		note("labels "+id.String(), labels, err)
		if d.InDom != pcp.InDomNull {
			insts, err := c.GetInDom(ctx, d.InDom)
			note("indom", insts, err)
			labels, err := c.InstancesLabels(ctx, d.InDom)
			note("instance labels", labels, err)
		}
	}
	_, err = c.LookupDesc(ctx, pcp.NewPMID(29, 999, 999))
	note("bad desc", nil, err)
	var known []pcp.PMID
	for _, id := range ids {
		if id != pcp.PMIDNull {
			known = append(known, id)
		}
	}
	fetch := func(what string) {
		var r pcp.Result
		_, err := c.Fetch(ctx, known, &r)
		note(what, r.Sets, err)
	}
	fetch("fetch")
	err = c.Store(ctx, &pcp.Result{Sets: []pcp.ValueSet{{PMID: ids[6], NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 42}}}}})
	note("store", nil, err)
	err = c.AddProfile(pcp.NewInDom(29, 1), nil)
	note("profile", nil, err)
	fetch("fetch after store")
	return b.String()
}

// TestCompanionAnswersAsInProcess asks the sample agent the same
// questions in-process and in Companion: every answer and error is the
// same, and closing the context ends the companion's process.
func TestCompanionAnswersAsInProcess(t *testing.T) {
	var warn bytes.Buffer
	in := sampleContext(t, &warn)
	want := sampleTranscript(t, in)
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}

	find := companionFinder(t)
	hideInProcess(t, "sample_init")
	c := sampleContext(t, &warn, WithCompanion(find))
	p, ok := c.agents[29].(*pipeAgent)
	if !ok {
		c.Close()
		t.Fatalf("the sample agent is a %T, not in %s; warnings %q", c.agents[29], Companion, warn.String())
	}
	got := sampleTranscript(t, c)
	if got != want {
		t.Errorf("in %s:\n%s\nin-process:\n%s", Companion, got, want)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if st := p.c.cmd.ProcessState; st == nil || !st.Success() {
		t.Errorf("%s after Close: %v, want exited with 0", Companion, st)
	}
	if warn.Len() != 0 {
		t.Errorf("warnings %q", warn.String())
	}
}

// TestCompanionMissing runs a context whose agent would be in Companion
// with no Companion to run it in: the agent is left out with libpcp's
// warning for an agent that cannot start, saying why.
func TestCompanionMissing(t *testing.T) {
	hideInProcess(t, "sample_init")
	const prefix = "__pmConnectLocal: Warning: initialization routine \"sample_init\" failed in DSO \"pmda_sample.so\": No PMCD agent for domain of request: "
	for _, tt := range []struct {
		opts []Option
		want string
	}{
		{nil, prefix + "this program does not link the agent and has no pmdalocal to run it in\n"},
		{[]Option{WithCompanion(func() (string, error) { return "", errors.New("no pmdalocal here") })}, prefix + "no pmdalocal here\n"},
	} {
		var warn bytes.Buffer
		c := sampleContext(t, &warn, tt.opts...)
		if warn.String() != tt.want || len(c.Domains()) != 0 {
			t.Errorf("warnings %q, domains %v; want %q and none", warn.String(), c.Domains(), tt.want)
		}
		c.Close()
	}
}

// companionPipes are the two pipes of a companion served in the test:
// its standard input (inR read by it, inW written here) and output.
func companionPipes(t *testing.T) (inR, inW, outR, outW *os.File) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err = os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return inR, inW, outR, outW
}

// TestServe runs Companion's side (agentserver.Serve) over a pipe in this process: each
// agent's start or failure is told in order, with the text of the
// failure as the in-process warning has it, and requests reach the
// agent of their domain until the pipe is closed.
func TestServe(t *testing.T) {
	pmda.Register("failing_pipe_test_init", func(uint32) (*pmda.Agent, error) { return nil, pcp.ErrPMID })
	t.Cleanup(func() { pmda.Register("failing_pipe_test_init", nil) })
	inR, inW, outR, outW := companionPipes(t)
	served := make(chan error, 1)
	list := []agentserver.Entry{{Domain: 77, Entry: "failing_pipe_test_init"}, {Domain: 29, Entry: "sample_init"}, {Domain: 44, Entry: "nosuch_init"}}
	go func() {
		served <- agentserver.Serve(context.Background(), list, inR, outW)
		outW.Close()
	}()
	c := &companion{in: inW, out: outR, r: pdu.NewReader(outR, 0), w: pdu.NewWriter(inW), open: 1}
	want := []struct {
		ok     bool
		failed string
	}{{false, pcp.ErrPMID.Error()}, {true, ""}, {false, `no agent registered for entry point "nosuch_init"`}}
	for i, w := range want {
		ok, failed, err := c.started(context.Background())
		if ok != w.ok || failed != w.failed || err != nil {
			t.Errorf("%s: started %v, %q, %v; want %v, %q", list[i].Entry, ok, failed, err, w.ok, w.failed)
		}
	}
	p := &pipeAgent{c: c, domain: 29}
	m, err := p.Handle(context.Background(), 0, &pdu.DescReq{PMID: pcp.NewPMID(29, 0, 10)})
	if d, ok := m.(*pdu.Desc); !ok || d.Desc.PMID != pcp.NewPMID(29, 0, 10) || err != nil {
		t.Errorf("sample.long.one's descriptor: %+v, %v", m, err)
	}
	if _, err := p.Handle(context.Background(), 0, &pdu.DescReq{PMID: pcp.NewPMID(29, 999, 999)}); err != pcp.ErrPMID {
		t.Errorf("an unknown PMID's descriptor: %v, want %v", err, pcp.ErrPMID)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	inR.Close()
}

// TestCompanionSeveralAgents runs two agents and a foreign entry in one
// context: both agents are in one Companion process, and the warnings
// and answers are the in-process ones.
func TestCompanionSeveralAgents(t *testing.T) {
	table := specTable(t, "clear", "add,29,pmda_sample.so,sample_init", "add,44,/nowhere/pmda_x.so,nosuch_init", "add,250,pmda_trivial.so,trivial_init")
	tree := parseTree(t, "root {\n sample 29:*:*\n trivial 250:*:*\n}\n")
	run := func(opts ...Option) (string, *Context) {
		var warn bytes.Buffer
		c, err := NewContext(context.Background(), append([]Option{WithTable(table), WithNamespace(tree), WithWarnings(&warn)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s%v\n", warn.String(), c.Domains())
		for _, id := range []pcp.PMID{pcp.NewPMID(29, 0, 10), pcp.NewPMID(250, 0, 0), pcp.NewPMID(44, 0, 0)} {
			d, err := c.LookupDesc(context.Background(), id)
			fmt.Fprintf(&b, "%+v %v\n", d, err)
		}
		return b.String(), c
	}
	want, in := run()
	in.Close()
	find := companionFinder(t)
	hideInProcess(t, "sample_init")
	hideInProcess(t, "trivial_init")
	got, c := run(WithCompanion(find))
	defer c.Close()
	if got != want {
		t.Errorf("in %s:\n%s\nin-process:\n%s", Companion, got, want)
	}
	s, ok1 := c.agents[29].(*pipeAgent)
	tr, ok2 := c.agents[250].(*pipeAgent)
	if !ok1 || !ok2 || s.c != tr.c {
		t.Errorf("agents %T, %T: not both in one %s", c.agents[29], c.agents[250], Companion)
	}
}

// TestCompanionEndsWithProgram kills a program with a context open on
// an agent in Companion: the companion ends with it.
func TestCompanionEndsWithProgram(t *testing.T) {
	if os.Getenv("GOPCP_PIPE_CHILD") == "1" {
		pmda.Register("sample_init", nil)
		bin := os.Getenv("GOPCP_PIPE_COMPANION")
		c := sampleContext(t, &bytes.Buffer{}, WithCompanion(func() (string, error) { return bin, nil }))
		if p, ok := c.agents[29].(*pipeAgent); ok {
			fmt.Printf("companion %d\n", p.c.cmd.Process.Pid)
		}
		time.Sleep(time.Minute) // until killed
		return
	}
	bin, _ := companionFinder(t)()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCompanionEndsWithProgram$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOPCP_PIPE_CHILD=1", "GOPCP_PIPE_COMPANION="+bin)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(line), "companion "))
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if err != nil || perr != nil {
		t.Fatalf("child said %q: %v %v", line, err, perr)
	}
	// The kernel signals the companion as the program dies; it is then
	// gone or a zombie waiting for init. The bound is for a failure
	// only.
	for deadline := time.Now().Add(30 * time.Second); ; {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(b), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s (pid %d) still running after its program was killed: %s", Companion, pid, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCompanionOutlivesOpeningThread opens a context whose agent is in
// Companion from a goroutine that locks its thread and returns, which
// ends the thread: the companion, whose parent-death signal Linux sends
// when the thread that forked it ends, still answers after.
func TestCompanionOutlivesOpeningThread(t *testing.T) {
	find := companionFinder(t)
	hideInProcess(t, "sample_init")
	opened := make(chan *Context)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends here
		opened <- sampleContext(t, &bytes.Buffer{}, WithCompanion(find))
	}()
	c := <-opened
	defer c.Close()
	if _, ok := c.agents[29].(*pipeAgent); !ok {
		t.Fatalf("the sample agent is a %T, not in %s", c.agents[29], Companion)
	}
	// The kernel's signal comes a little after the thread has gone.
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, err := c.LookupDesc(context.Background(), pcp.NewPMID(29, 0, 10)); err != nil {
			t.Fatalf("sample.long.one's descriptor after the opening thread ended: %v", err)
		}
	}
}
