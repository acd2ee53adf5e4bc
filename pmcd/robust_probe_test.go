package pmcd

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// The robustness probes are long: they run only when this is set. They
// print figures (memory, log growth, recovery) for the record and fail
// only when pmcd or an agent stops serving.
const probeEnv = "GOPCP_PMCD_PROBE"

func probeOnly(t *testing.T) {
	if os.Getenv(probeEnv) == "" {
		t.Skipf("a long probe: set %s=1 to run it", probeEnv)
	}
}

// probeCount is how many malformed PDUs a probe sends, 100,000 unless
// GOPCP_PMCD_PROBE is a number.
func probeCount() int {
	if n, err := strconv.Atoi(os.Getenv(probeEnv)); err == nil && n > 1 {
		return n
	}
	return 100000
}

// rssKB is the resident set of process pid in KiB.
func rssKB(pid int) int {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return -1
}

// childPIDs are the processes whose parent is pid.
func childPIDs(pid int) []int {
	var out []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		stat, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			n, _ := strconv.Atoi(filepath.Base(d))
			out = append(out, n)
		}
	}
	return out
}

// mutate spoils a well-formed PDU at random. Most results still frame (the
// header's length is set to what is sent), so pmcd must decode and refuse
// them; a few lie about their length or type.
func mutate(rng *rand.Rand, base []byte) []byte {
	b := append([]byte(nil), base...)
	switch op := rng.IntN(10); {
	case op < 4 && len(b) > 12: // flip bytes of the body
		for range 1 + rng.IntN(4) {
			b[12+rng.IntN(len(b)-12)] ^= byte(1 + rng.IntN(255))
		}
	case op < 6: // cut the body short
		b = b[:12+rng.IntN(len(b)-11)]
	case op < 7: // add bytes
		for range 1 + rng.IntN(16) {
			b = append(b, byte(rng.IntN(256)))
		}
	case op < 8: // another type
		binary.BigEndian.PutUint32(b[4:], uint32(0x7000+rng.IntN(0x20)))
	case op < 9: // a count set huge
		if len(b) >= 16 {
			binary.BigEndian.PutUint32(b[12+4*rng.IntN((len(b)-12)/4):], uint32(rng.Int32()))
		}
	default: // a length that does not match
		binary.BigEndian.PutUint32(b, uint32(rng.IntN(1<<17)))
		return b
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)))
	return b
}

// framed says whether b is one whole PDU by its header.
func framed(b []byte) bool {
	return len(b) >= 12 && int(binary.BigEndian.Uint32(b)) == len(b)
}

// clientBases are the requests the client probe spoils.
func clientBases() [][]byte {
	triv, samp := pcp.NewPMID(250, 0, 0), pcp.NewPMID(29, 0, 10)
	var out [][]byte
	for _, m := range []pdu.Message{
		&pdu.Profile{State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{{InDom: pcp.NewInDom(29, 1), State: pdu.ProfileInclude, Insts: []int32{0, 1}}}},
		&pdu.Fetch{PMIDs: []pcp.PMID{triv, samp, pcp.NewPMID(2, 0, 0)}},
		&pdu.HighResFetch{PMIDs: []pcp.PMID{triv, samp}},
		&pdu.DescReq{PMID: samp},
		&pdu.DescIDs{PMIDs: []pcp.PMID{triv, samp}},
		&pdu.InstanceReq{InDom: pcp.NewInDom(29, 1), Inst: -1, Name: "bin-100"},
		&pdu.TextReq{Ident: uint32(samp), Type: pdu.TextPMID | pdu.TextHelp},
		&pdu.LabelReq{Ident: uint32(samp), Type: int32(pcp.LabelItem)},
		&pdu.PMNSNames{Names: []string{"sample.long.one", "trivial.time"}},
		&pdu.PMNSIDs{PMIDs: []pcp.PMID{samp}},
		&pdu.PMNSChild{Name: "sample", Subtype: pdu.PMNSChildStatus},
		&pdu.PMNSTraverse{Name: "trivial"},
		&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{PMID: triv, NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 3}}}}}},
		&pdu.Attr{Key: pdu.AttrContainer, Value: []byte("box")},
	} {
		out = append(out, m.Append(nil, 1))
	}
	return out
}

// TestProbeMalformedClients sends probeCount malformed PDUs from clients
// to gopcp's pmcd (a process of its own) serving pmcd's agent, PCP's
// sample agent and gopcp's trivial agent on pipes. Each is followed by a
// lookup, whose answer (or the connection's end) says pmcd dealt with
// it. pmcd's memory is read before and after; every agent must answer
// at the end from the process it started with.
func TestProbeMalformedClients(t *testing.T) {
	probeOnly(t)
	dir := t.TempDir()
	trivBin := pcptest.GoCommand(t, "github.com/gopcp/gopcp/cmd/pmdatrivial")
	root := filepath.Join(dir, "root_trivial")
	if err := os.WriteFile(root, []byte("root {\n\ttrivial\n}\ntrivial {\n\ttime\t250:0:0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bed := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.SampleAgent(),
		testbed.PipeAgent("trivial", 250, root, trivBin, "-d", "250", "-l", filepath.Join(dir, "trivial.log"))}})
	pid := bed.PID()
	addr := strings.Replace(bed.Host(), "localhost", "127.0.0.1", 1)
	check := func(when string) {
		res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.long.one", "trivial.time", "pmcd.numagents")
		if res.Err != nil || strings.Count(res.Stdout, "value ") != 3 {
			t.Fatalf("%s: pminfo: %v\n%s%s", when, res.Err, res.Stdout, res.Stderr)
		}
	}
	check("at the start")
	agents := childPIDs(pid)
	logSize := func() int64 {
		fi, err := os.Stat(bed.LogPath())
		if err != nil {
			return 0
		}
		return fi.Size()
	}

	bases := clientBases()
	sentinel := (&pdu.PMNSNames{Names: []string{"pmcd.numagents"}}).Append(nil, 1)
	run := func(total int, seed uint64) (malformed, conns int) {
		var sent, nconn atomic.Int64
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(seed, uint64(w)))
				var conn net.Conn
				var r *pdu.Reader
				for sent.Load() < int64(total) {
					if conn == nil {
						conn, r, _ = dial(t, addr)
						r.Timeout = 0 // the connection's deadline rules
						nconn.Add(1)
					}
					b := mutate(rng, bases[rng.IntN(len(bases))])
					if _, err := pdu.Decode(b); err == nil && framed(b) {
						continue // still well formed: not what this probe sends
					}
					sent.Add(1)
					conn.SetDeadline(time.Now().Add(60 * time.Second))
					// A whole PDU is followed by a lookup, whose answer
					// says pmcd is done with it; one that lies about its
					// length is followed by the end of the client's
					// side, and pmcd must then close the connection.
					out := b
					if framed(b) {
						out = append(b, sentinel...)
					}
					_, err := conn.Write(out)
					if err == nil && !framed(b) {
						err = conn.(*net.TCPConn).CloseWrite()
					}
					for err == nil {
						var p []byte
						if p, err = r.ReadPDU(context.Background()); err == nil {
							if h, _ := pdu.ParseHeader(p); h.Type == pdu.TypePMNSIDs {
								break
							}
						}
					}
					if err != nil {
						if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, syscall.ECONNRESET) &&
							!errors.Is(err, syscall.EPIPE) {
							t.Errorf("pmcd neither answered nor closed: %v", err)
						}
						conn.Close()
						conn = nil
					}
				}
				if conn != nil {
					conn.Close()
				}
			}()
		}
		wg.Wait()
		return int(sent.Load()), int(nconn.Load())
	}
	run(5000, 1) // warm up
	check("after the warm-up")
	rssBefore, logBefore := rssKB(pid), logSize()
	start := time.Now()
	n, conns := run(probeCount(), 2)
	took := time.Since(start)
	rssAfter, logAfter := rssKB(pid), logSize()
	check("after the probe")
	if now := childPIDs(pid); fmt.Sprint(now) != fmt.Sprint(agents) {
		t.Errorf("agent processes were %v, now %v: an agent was restarted", agents, now)
	}
	t.Logf("%d malformed client PDUs on %d connections in %v: pmcd RSS %d KiB before, %d KiB after; log grew %d bytes; agents %v unchanged",
		n, conns, took.Round(time.Millisecond), rssBefore, rssAfter, logAfter-logBefore, agents)
}

// agentBases are the replies the agent probe spoils: a RESULT for the
// fetched metric in each value format, and an ERROR.
func agentBases(id pcp.PMID) [][]byte {
	var out [][]byte
	for _, r := range []pcp.Result{
		{Sets: []pcp.ValueSet{{PMID: id, NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 7}}}}},
		{Sets: []pcp.ValueSet{{PMID: id, NumVal: 2, ValFmt: pcp.ValDPtr, Values: []pcp.Value{
			{Inst: 1, Block: pcp.ValueBlock{Type: pcp.TypeString, Data: []byte("hullo world")}},
			{Inst: 2, Block: pcp.ValueBlock{Type: pcp.TypeU64, Data: []byte{0, 0, 0, 0, 0, 0, 0, 9}}}}}}},
	} {
		out = append(out, pdu.AppendResult(nil, 0, &r))
	}
	return append(out, (&pdu.Error{Code: int32(pcp.ErrPMID)}).Append(nil, 0))
}

// TestProbeMalformedAgent has a fake agent answer every fetch with a
// malformed PDU, probeCount times: pmcd must mark it dead each time and
// carry on, restarted by RestartDead (as on SIGHUP) for the next round,
// while pmcd's own agent, the in-process trivial agent and a pipe agent
// keep answering. The fake agent is on a Unix socket, as a new process
// per malformed PDU would take hours; pmcd reads pipe and socket agents
// with the same code. This process's memory, goroutines and descriptors
// are read before and after.
func TestProbeMalformedAgent(t *testing.T) {
	probeOnly(t)
	dir := t.TempDir()
	sock := filepath.Join(dir, "fake.socket")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	fake := pcp.NewPMID(253, 0, 0)
	bases := agentBases(fake)
	var malformed atomic.Int64
	go func() {
		rng := rand.New(rand.NewPCG(3, 4))
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			r, w := pdu.NewReader(conn, pdu.DefaultTimeout), pdu.NewWriter(conn)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			if _, err := pdu.AgentHandshake(ctx, r, w, 0); err != nil {
				cancel()
				conn.Close()
				continue
			}
			cancel()
			r.Timeout = 0
			for {
				b, err := r.ReadPDU(context.Background())
				if err != nil {
					break
				}
				if h, _ := pdu.ParseHeader(b); h.Type != pdu.TypeFetch {
					continue
				}
				var reply []byte
				for {
					reply = mutate(rng, bases[rng.IntN(len(bases))])
					if m, err := pdu.Decode(reply); err != nil || !framed(reply) {
						break
					} else if res, ok := m.(*pdu.Result); ok && len(res.Sets) != 1 {
						break // well formed, but not an answer to the fetch
					}
				}
				malformed.Add(1)
				conn.Write(reply)
				break // pmcd has no more use for this agent
			}
			conn.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })

	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	env, err := exec.LookPath("env")
	if err != nil {
		t.Fatal(err)
	}
	replyFile := filepath.Join(dir, "reply")
	conf := "pmcd 2 dso pmcd_init /nonexistent/pmda_pmcd.so\n" +
		"trivial\t250\tdso\ttrivial_init\t/nonexistent/pmda_trivial.so\n" +
		fmt.Sprintf("broken 251 pipe binary %s %s=well %s\n", env, testAgentEnv, os.Args[0]) +
		"fake 253 socket unix " + sock + "\n" +
		fmt.Sprintf("piped 254 pipe binary %s %s=replies %s=254 %s=%s %s\n", env, testAgentEnv, testDomainEnv, testReplyEnv, replyFile, os.Args[0])
	c, err := ParseConf(strings.NewReader(conf), "probe")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{PMNS: tree, Conf: c}
	host := serveOn(t, srv)
	_, r, w := dial(t, host)
	healthy := []pcp.PMID{pcp.NewPMID(2, 0, 1), pcp.NewPMID(250, 0, 0), pcp.NewPMID(251, 0, 0)}
	check := func(when string) {
		res := roundTrip(t, r, w, &pdu.Fetch{PMIDs: healthy}).(*pdu.Result)
		for i, set := range res.Sets {
			if set.NumVal != 1 {
				t.Fatalf("%s: %v gave %d", when, healthy[i], set.NumVal)
			}
		}
	}
	pipePID := agentPID(srv, 251)
	round := func(n int) {
		for range n {
			res := roundTrip(t, r, w, &pdu.Fetch{PMIDs: []pcp.PMID{fake}}).(*pdu.Result)
			if res.Sets[0].NumVal >= 0 {
				t.Fatalf("a malformed answer gave %+v", res.Sets[0])
			}
			if srv.RestartDead(context.Background()) != 5 {
				t.Fatal("the fake agent did not come back")
			}
		}
	}
	fds := func() int {
		ents, _ := os.ReadDir("/proc/self/fd")
		return len(ents)
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse >> 10
	}
	// settle waits for the goroutines closing dead agents' connections
	// to finish, so that what is counted is what stays.
	settle := func() {
		for last, i := -1, 0; i < 50; i++ {
			n := runtime.NumGoroutine()
			if n == last {
				return
			}
			last = n
			time.Sleep(20 * time.Millisecond)
		}
	}
	round(5000) // warm up
	check("after the warm-up")
	settle() // the closing of dead agents' connections
	rss0, heap0, gor0, fd0, sent0 := rssKB(os.Getpid()), heap(), runtime.NumGoroutine(), fds(), malformed.Load()
	start := time.Now()
	round(probeCount())
	took := time.Since(start)
	check("after the probe")
	settle()
	rss1, heap1, gor1, fd1 := rssKB(os.Getpid()), heap(), runtime.NumGoroutine(), fds()
	if agentPID(srv, 251) != pipePID {
		t.Errorf("the pipe agent was restarted")
	}
	t.Logf("%d malformed agent PDUs in %v: RSS %d -> %d KiB, heap in use %d -> %d KiB, goroutines %d -> %d, descriptors %d -> %d; pmcd, trivial and pipe agents answering, pipe agent pid %d unchanged",
		malformed.Load()-sent0, took.Round(time.Millisecond), rss0, rss1, heap0, heap1, gor0, gor1, fd0, fd1, pipePID)

	// The same on a real pipe, from an agent process that writes the
	// spoiled answer and exits: a process per PDU (some 10 ms), so a
	// tenth as many unless GOPCP_PMCD_PROBE_PIPE says how many.
	piped := pcp.NewPMID(254, 0, 0)
	rng := rand.New(rand.NewPCG(5, 6))
	var reply []byte
	n := max(probeCount()/10, 1)
	if v, err := strconv.Atoi(os.Getenv("GOPCP_PMCD_PROBE_PIPE")); err == nil && v > 0 {
		n = v
	}
	start = time.Now()
	for range n {
		for {
			reply = mutate(rng, bases[rng.IntN(len(bases))])
			if _, err := pdu.Decode(reply); err != nil || !framed(reply) {
				break
			}
		}
		if err := os.WriteFile(replyFile, reply, 0o644); err != nil {
			t.Fatal(err)
		}
		res := roundTrip(t, r, w, &pdu.Fetch{PMIDs: []pcp.PMID{piped}}).(*pdu.Result)
		if res.Sets[0].NumVal >= 0 {
			t.Fatalf("a malformed answer on the pipe gave %+v", res.Sets[0])
		}
		if srv.RestartDead(context.Background()) != 5 {
			t.Fatal("the piped agent did not come back")
		}
	}
	check("after the pipe agent's answers")
	settle()
	t.Logf("%d malformed PDUs from pipe agent processes in %v: RSS now %d KiB, goroutines %d, descriptors %d; pipe agent pid %d unchanged",
		n, time.Since(start).Round(time.Millisecond), rssKB(os.Getpid()), runtime.NumGoroutine(), fds(), pipePID)
}
