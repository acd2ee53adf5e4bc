package sample

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// pcpAgent is PCP's pmdasample run as pmcd runs it, on a pipe, with this
// test in pmcd's place.
type pcpAgent struct {
	r   *pdu.Reader
	w   *pdu.Writer
	dir string // its PCP_PMDAS_DIR
}

func startPCPAgent(t *testing.T) *pcpAgent {
	t.Helper()
	in := testbed.Need(t)
	bin := filepath.Join(in.Var("PCP_PMDAS_DIR"), "sample", "pmdasample")
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("PCP's sample agent: %v", err)
	}
	// The agent reads its help as user pcp: the directory and those
	// above it must be open to everyone, which t.TempDir's are not.
	dir, err := os.MkdirTemp("", "gopcp-sample-twin-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	buildPCPHelp(t, in, dir)
	cmd := exec.Command(bin, "-d", "29", "-l", filepath.Join(dir, "sample.log"))
	// A PCP_PMDAS_DIR of its own, as ours has: no dynamic.indom.
	cmd.Env = append(os.Environ(), "PCP_PMDAS_DIR="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	a := &pcpAgent{r: pdu.NewReader(stdout, pdu.DefaultTimeout), w: pdu.NewWriter(stdin), dir: dir}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := pdu.AcceptAgent(ctx, a.r, a.w, int32(os.Getpid())); err != nil {
		t.Fatalf("handshake with PCP's agent: %v", err)
	}
	return a
}

// buildPCPHelp builds PCP's help text for the sample agent, for domain 29,
// into dir/sample/help.{dir,pag}, as PCP's Install does.
func buildPCPHelp(t *testing.T, in *testbed.Install, dir string) {
	t.Helper()
	src := filepath.Join(in.Var("PCP_PMDAS_DIR"), "sample")
	text, err := os.ReadFile(filepath.Join(src, "help"))
	if err != nil {
		t.Skipf("PCP's sample help: %v", err)
	}
	text = bytes.ReplaceAll(text, []byte("\n@ SAMPLE."), []byte("\n@ 29."))
	root := filepath.Join(dir, "root")
	pmns := "root {\n\tsample\n}\n\n#define SAMPLE 29\n#include \"" + filepath.Join(src, "pmns") + "\"\n"
	if err := os.WriteFile(root, []byte(pmns), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sample"), 0o755); err != nil {
		t.Fatal(err)
	}
	newhelp, err := in.Tool("newhelp")
	if err != nil {
		t.Skipf("newhelp: %v", err)
	}
	cmd := exec.Command(newhelp, "-n", root, "-v", "2", "-o", filepath.Join(dir, "sample", "help"))
	cmd.Stdin = bytes.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("newhelp: %v\n%s", err, out)
	}
}

// ask sends one request and returns the replies PCP's agent sends: none
// for notifications, else one (two for a busy agent, not asked here).
func (a *pcpAgent) ask(raw []byte, reply bool) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.w.WritePDU(ctx, raw); err != nil || !reply {
		return nil, err
	}
	b, err := a.r.ReadPDU(ctx)
	return append([]byte(nil), b...), err
}

// twins sends the same requests to PCP's agent and ours and compares the
// replies.
type twins struct {
	t      *testing.T
	pcp    *pcpAgent
	ours   *pmda.Dispatcher
	out    bytes.Buffer
	from   int32
	same   int
	checks int
	recent []string // the last requests, for failures
	dir    string   // our agent's PCP_PMDAS_DIR
}

func newTwins(t *testing.T) *twins {
	tw := &twins{t: t, pcp: startPCPAgent(t), from: 7, dir: t.TempDir()}
	a, err := New(Domain, Options{PMDAsDir: tw.dir})
	if err != nil {
		t.Fatal(err)
	}
	tw.ours = pmda.NewDispatcher(a, pdu.NewWriter(&tw.out))
	return tw
}

// dynamic writes sample.dynamic's control file for both agents, each
// version with a later modification time than the last.
func (tw *twins) dynamic(text string, version int) {
	tw.t.Helper()
	at := time.Unix(1700000000+int64(version), 0)
	for _, dir := range []string{tw.pcp.dir, tw.dir} {
		if err := os.MkdirAll(filepath.Join(dir, "sample"), 0o755); err != nil {
			tw.t.Fatal(err)
		}
		path := filepath.Join(dir, "sample", "dynamic.indom")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			tw.t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			tw.t.Fatal(err)
		}
	}
}

// how a pair of replies is compared
type likeness int

const (
	sameBytes  likeness = iota
	sameLength          // values that read clocks or the process
	sameType            // help text, which is our own
	sameEvents          // event records, whose times are the clock's
)

func (tw *twins) do(m pdu.Message, reply bool, how likeness) {
	t := tw.t
	t.Helper()
	raw := m.Append(nil, tw.from)
	tw.recent = append(tw.recent, fmt.Sprintf("from %d %v %+v", tw.from, m.PDUType(), m))
	if len(tw.recent) > 8 {
		tw.recent = tw.recent[1:]
	}
	want, err := tw.pcp.ask(raw, reply)
	if err != nil {
		t.Fatalf("PCP's agent failed: %v; the last requests:\n%s", err, strings.Join(tw.recent, "\n"))
	}
	tw.out.Reset()
	if err := tw.ours.Dispatch(context.Background(), raw); err != nil {
		t.Fatalf("%v: %v", m.PDUType(), err)
	}
	got := tw.out.Bytes()
	if !reply {
		if len(got) != 0 {
			t.Errorf("%v: we replied to a notification: %x", m.PDUType(), got)
		}
		return
	}
	tw.checks++
	gh, err1 := pdu.ParseHeader(got)
	wh, err2 := pdu.ParseHeader(want)
	switch {
	case err1 != nil || err2 != nil:
		t.Errorf("%+v: replies %v / %v", m, err1, err2)
	case gh.Type != wh.Type:
		t.Errorf("%+v: reply %v, PCP's %v", m, gh.Type, wh.Type)
	case how == sameType:
		tw.same++
	case how == sameEvents:
		if d := eventsDiff(got, want); d != "" {
			t.Errorf("%v: %s", m.PDUType(), d)
		} else {
			tw.same++
		}
	case how == sameLength && gh.Len != wh.Len:
		t.Errorf("%+v: %d bytes, PCP's %d", m, gh.Len, wh.Len)
	case how == sameBytes && !bytes.Equal(got, want):
		t.Errorf("%v: %s", m.PDUType(), replyDiff(got, want))
	default:
		tw.same++
	}
}

// replyDiff says where two replies differ: the value sets of a RESULT
// that differ, or the bytes.
func replyDiff(got, want []byte) string {
	g, err1 := pdu.Decode(got)
	w, err2 := pdu.Decode(want)
	gr, ok1 := g.(*pdu.Result)
	wr, ok2 := w.(*pdu.Result)
	if err1 != nil || err2 != nil || !ok1 || !ok2 || len(gr.Sets) != len(wr.Sets) {
		return fmt.Sprintf("\nours  %x\nPCP's %x", got, want)
	}
	var b strings.Builder
	for i := range gr.Sets {
		x, y := fmt.Sprintf("%+v", gr.Sets[i]), fmt.Sprintf("%+v", wr.Sets[i])
		if x != y {
			fmt.Fprintf(&b, "\n%v:\n  ours  %s\n  PCP's %s", gr.Sets[i].PMID, x, y)
		}
	}
	if b.Len() == 0 {
		return fmt.Sprintf("same sets, different bytes:\nours  %x\nPCP's %x", got, want)
	}
	return b.String()
}

// eventsDiff compares two RESULTs with event records, everything but the
// records' times: value sets, instances, and each record's flags and
// parameters.
func eventsDiff(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	g, err1 := pdu.Decode(got)
	w, err2 := pdu.Decode(want)
	gr, ok1 := g.(*pdu.Result)
	wr, ok2 := w.(*pdu.Result)
	if err1 != nil || err2 != nil || !ok1 || !ok2 || len(gr.Sets) != len(wr.Sets) {
		return replyDiff(got, want)
	}
	for i := range gr.Sets {
		x, y := &gr.Sets[i], &wr.Sets[i]
		if x.PMID != y.PMID || x.NumVal != y.NumVal || len(x.Values) != len(y.Values) {
			return fmt.Sprintf("%v: %+v, PCP's %+v", x.PMID, *x, *y)
		}
		for j := range x.Values {
			xv, yv := &x.Values[j], &y.Values[j]
			if xv.Inst != yv.Inst || xv.Block.Type != yv.Block.Type {
				return fmt.Sprintf("%v value %d: %+v, PCP's %+v", x.PMID, j, *xv, *yv)
			}
			highres := xv.Block.Type == pcp.TypeHighResEvent
			if !highres && xv.Block.Type != pcp.TypeEvent {
				if fmt.Sprint(*xv) != fmt.Sprint(*yv) {
					return fmt.Sprintf("%v value %d: %+v, PCP's %+v", x.PMID, j, *xv, *yv)
				}
				continue
			}
			xr, err1 := pcp.UnpackEvents(xv.Block.Data, highres)
			yr, err2 := pcp.UnpackEvents(yv.Block.Data, highres)
			if err1 != nil || err2 != nil || len(xr) != len(yr) {
				return fmt.Sprintf("%v value %d: %d records (%v), PCP's %d (%v)", x.PMID, j, len(xr), err1, len(yr), err2)
			}
			for k := range xr {
				if a, b := fmt.Sprintf("%+v", xr[k].Params), fmt.Sprintf("%+v", yr[k].Params); a != b {
					return fmt.Sprintf("%v value %d record %d:\n  ours  %s\n  PCP's %s", x.PMID, j, k, a, b)
				}
			}
		}
	}
	return ""
}

// varying are the items whose values read the clock, the process or the
// kernel.
var varying = map[uint32]bool{1: true, 2: true, 3: true, 8: true, 39: true, 63: true, 91: true,
	111: true, 112: true, 136: true, 137: true, 139: true, 158: true}

// TestTwinAgents drives PCP's pmdasample and ours with the same requests,
// as pmcd would send them, and checks our replies are PCP's, byte for
// byte: every descriptor, instance domain, label set at every level,
// dynamic name, fetches of every metric (three rounds, so the changing
// values are compared too), and stores with what they change.
func TestTwinAgents(t *testing.T) {
	tw := newTwins(t)
	var steady, changing []pcp.PMID
	for _, d := range defs {
		id := pcp.NewPMID(Domain, 0, d.item)
		if varying[d.item] {
			changing = append(changing, id)
		} else {
			steady = append(steady, id)
		}
	}
	all := append(append([]pcp.PMID(nil), steady...), pcp.NewPMID(Domain, 0, 500), pcp.NewPMID(Domain, 3, 1))

	tw.do(&pdu.Profile{State: pdu.ProfileInclude}, false, sameBytes)
	for _, id := range all {
		tw.do(&pdu.DescReq{PMID: id}, true, sameBytes)
		tw.do(&pdu.LabelReq{Ident: uint32(id), Type: int32(pcp.LabelItem)}, true, sameBytes)
		tw.do(&pdu.TextReq{Ident: uint32(id), Type: pdu.TextPMID | pdu.TextOneLine}, true, sameType)
		tw.do(&pdu.TextReq{Ident: uint32(id), Type: pdu.TextPMID | pdu.TextHelp}, true, sameType)
	}
	tw.do(&pdu.LabelReq{Ident: Domain, Type: int32(pcp.LabelDomain)}, true, sameBytes)
	tw.do(&pdu.LabelReq{Ident: uint32(pcp.NewPMID(Domain, 0, 0)), Type: int32(pcp.LabelCluster)}, true, sameBytes)
	for serial := uint32(1); serial <= 13; serial++ {
		indom := pcp.NewInDom(Domain, serial)
		tw.do(&pdu.InstanceReq{InDom: indom, Inst: pcp.InstNull}, true, sameBytes)
		tw.do(&pdu.InstanceReq{InDom: indom, Inst: 1}, true, sameBytes)
		tw.do(&pdu.InstanceReq{InDom: indom, Inst: pcp.InstNull, Name: "bin-300"}, true, sameBytes)
		tw.do(&pdu.LabelReq{Ident: uint32(indom), Type: int32(pcp.LabelInDom)}, true, sameBytes)
		tw.do(&pdu.LabelReq{Ident: uint32(indom), Type: int32(pcp.LabelInstances)}, true, sameBytes)
		tw.do(&pdu.TextReq{Ident: uint32(indom), Type: pdu.TextInDom | pdu.TextOneLine}, true, sameType)
		tw.do(&pdu.TextReq{Ident: uint32(indom), Type: pdu.TextInDom | pdu.TextHelp}, true, sameType)
	}
	for _, name := range []string{"sample.secret", "sample.secret.foo", "sample.ghosts", "sample.secret.foo.bar.grunt"} {
		tw.do(&pdu.PMNSTraverse{Name: name}, true, sameBytes)
		tw.do(&pdu.PMNSChild{Subtype: pdu.PMNSChildNames, Name: name}, true, sameBytes)
		tw.do(&pdu.PMNSChild{Subtype: pdu.PMNSChildStatus, Name: name}, true, sameBytes)
	}
	for _, d := range dynamicNames {
		tw.do(&pdu.PMNSNames{Names: []string{"sample." + d.name}}, true, sameBytes)
		tw.do(&pdu.PMNSIDs{PMIDs: []pcp.PMID{pcp.NewPMID(Domain, 0, d.item)}}, true, sameBytes)
	}

	fetches := func() {
		for range 3 {
			tw.do(&pdu.Fetch{PMIDs: all}, true, sameBytes)
		}
		for _, id := range changing {
			tw.do(&pdu.Fetch{PMIDs: []pcp.PMID{id}}, true, sameLength)
		}
	}
	fetches()

	store := func(item uint32, v int32) {
		tw.do(&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{
			PMID: pcp.NewPMID(Domain, 0, item), NumVal: 1, ValFmt: pcp.ValInSitu,
			Values: []pcp.Value{{Inst: pcp.InstNull, LVal: v}},
		}}}}, true, sameBytes)
	}
	for _, s := range []struct {
		item uint32
		v    int32
	}{
		{14, 99}, {36, 5}, {1008, 4}, {79, 7}, {61, 9}, {155, 0}, {120, 0}, {159, 1},
		{87, int32(pcp.TypeDouble)}, {88, 0}, {165, 2}, {168, 3}, {10, 1}, {24, 1},
		{141, 17}, {5, 40}, {126, 2}, {74, -12345},
	} {
		store(s.item, s.v)
	}
	block := func(item uint32, t pcp.Type, data []byte) {
		tw.do(&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{
			PMID: pcp.NewPMID(Domain, 0, item), NumVal: 1, ValFmt: pcp.ValDPtr,
			Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: t, Data: data}}},
		}}}}, true, sameBytes)
	}
	le64 := func(v uint64) []byte { return binary.NativeEndian.AppendUint64(nil, v) }
	block(24, pcp.Type64, le64(uint64(0xffffffffffffff9d)))
	block(102, pcp.TypeU64, le64(1<<40))
	block(29, pcp.TypeDouble, le64(math.Float64bits(-2.5)))
	block(19, pcp.TypeFloat, binary.NativeEndian.AppendUint32(nil, math.Float32bits(0.25)))
	block(32, pcp.TypeString, []byte("hello\x00"))
	block(35, pcp.TypeAggregate, []byte{1, 2, 3, 4, 5})
	block(5, pcp.Type32, le64(1))   // colour wants its value in place
	block(38, pcp.Type64, le64(33)) // mirage_longlong wants a block
	tw.do(&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{
		PMID: pcp.NewPMID(Domain, 0, 6), NumVal: 2, ValFmt: pcp.ValInSitu,
		Values: []pcp.Value{{Inst: 300, LVal: 3}, {Inst: 700, LVal: 7}},
	}}}}, true, sameBytes)
	tw.do(&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{
		PMID: pcp.NewPMID(Domain, 0, 6), NumVal: 1, ValFmt: pcp.ValInSitu,
		Values: []pcp.Value{{Inst: 350, LVal: 3}},
	}}}}, true, sameBytes)
	// Several sets in one store: applied in order up to the first
	// refusal; unknown metrics refused.
	insitu := func(item uint32, v int32) pcp.ValueSet {
		return pcp.ValueSet{PMID: pcp.NewPMID(Domain, 0, item), NumVal: 1, ValFmt: pcp.ValInSitu,
			Values: []pcp.Value{{Inst: pcp.InstNull, LVal: v}}}
	}
	for _, sets := range [][]pcp.ValueSet{
		{insitu(14, 1), insitu(36, 2), insitu(97, 3)},
		{insitu(14, 4), insitu(10, 5), insitu(36, 6)},
		{insitu(500, 1)},
		{{PMID: pcp.NewPMID(Domain, 3, 1), NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull}}}},
		{{PMID: pcp.NewPMID(Domain, 0, 14), NumVal: 2, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: 1}, {Inst: 2}}}},
	} {
		tw.do(&pdu.Result{Result: pcp.Result{Sets: sets}}, true, sameBytes)
		tw.do(&pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(Domain, 0, 14), pcp.NewPMID(Domain, 0, 36), pcp.NewPMID(Domain, 0, 97)}}, true, sameBytes)
		tw.do(&pdu.LabelReq{Ident: uint32(pcp.NewPMID(Domain, 0, 14)), Type: int32(pcp.LabelItem)}, true, sameBytes)
	}
	store(61, 50) // dodgey misbehaves at random
	store(155, 0) // mirage changes at every fetch
	store(126, 0) // event cycles from the start
	store(140, 0)
	events := []pcp.PMID{pcp.NewPMID(Domain, 0, 136), pcp.NewPMID(Domain, 0, 137), pcp.NewPMID(Domain, 0, 139)}
	for range 6 {
		tw.do(&pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(Domain, 0, 62), pcp.NewPMID(Domain, 0, 37), pcp.NewPMID(Domain, 0, 38)}}, true, sameBytes)
		tw.do(&pdu.InstanceReq{InDom: pcp.NewInDom(Domain, mirageInDom), Inst: pcp.InstNull}, true, sameBytes)
		tw.do(&pdu.InstanceReq{InDom: pcp.NewInDom(Domain, dodgeyInDom), Inst: pcp.InstNull}, true, sameBytes)
		tw.do(&pdu.Fetch{PMIDs: events}, true, sameEvents)
	}
	dyn := []pcp.PMID{pcp.NewPMID(Domain, 0, 76), pcp.NewPMID(Domain, 0, 77), pcp.NewPMID(Domain, 0, 78)}
	for v, text := range []string{"1 one\n3 three\n10 ten\n", "1 one\n3 three\n10 ten\n", "2 two 0 zero\n7 seven", "5 five\nbad\n", "", "4\nfour\n", "12abc\n9 nine"} {
		if v != 1 {
			tw.dynamic(text, v)
		}
		tw.do(&pdu.InstanceReq{InDom: pcp.NewInDom(Domain, dynamicInDom), Inst: pcp.InstNull}, true, sameBytes)
		tw.do(&pdu.Fetch{PMIDs: dyn}, true, sameBytes)
		tw.do(&pdu.Fetch{PMIDs: dyn[:1]}, true, sameBytes)
	}
	tw.do(&pdu.DescReq{PMID: pcp.NewPMID(Domain, 0, 75)}, true, sameBytes)
	tw.do(&pdu.DescReq{PMID: pcp.NewPMID(Domain, 0, 86)}, true, sameBytes)
	tw.do(&pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(Domain, 0, 75)}}, true, sameBytes)
	store(74, 0)
	for _, d := range dynamicNames {
		tw.do(&pdu.PMNSNames{Names: []string{"sample." + d.name}}, true, sameBytes)
	}
	tw.do(&pdu.PMNSTraverse{Name: "sample.ghosts"}, true, sameBytes)
	tw.do(&pdu.Profile{State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{
		{InDom: pcp.NewInDom(Domain, familyInDom), State: pdu.ProfileExclude, Insts: []int32{1, 3}},
		{InDom: pcp.NewInDom(Domain, binInDom), State: pdu.ProfileExclude, Insts: []int32{200, 900}},
	}}, false, sameBytes)
	fetches()
	tw.do(&pdu.Error{Code: int32(pcp.ErrNotConn)}, false, sameBytes) // the context ends
	tw.from = 8
	fetches()
	t.Logf("%d of %d replies as PCP's agent's (byte for byte but for %d varying values and help text)", tw.same, tw.checks, len(changing))
}

// TestTwinRandom sends PCP's agent and ours the same long random run of
// requests (a fixed seed, so a failure repeats): fetches of random sets of
// metrics under random instance profiles, stores of random values into
// the writable metrics, instance, descriptor and label requests, from
// several client contexts that come and go. Every reply must be PCP's,
// byte for byte. Stores that would make either agent sleep, stop, follow
// the clock or build a value from an arbitrary type are left out.
func TestTwinRandom(t *testing.T) {
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { twinRandom(t, seed) })
	}
}

// seeds is how many random runs TestTwinRandom makes.
var seeds = 4

func twinRandom(t *testing.T, seed uint64) {
	tw := newTwins(t)
	rng := rand.New(rand.NewPCG(29, seed))
	var steady []pcp.PMID
	for _, d := range defs {
		if !varying[d.item] {
			steady = append(steady, pcp.NewPMID(Domain, 0, d.item))
		}
	}
	var writable []uint32
	for _, d := range defs {
		item, shape := d.item, storeShapeOf(d.item)
		switch item {
		// stop, sleep, the clock, arbitrary types, an instance domain
		// PCP's agent answers for with an uninitialised instance number
		case 0, 56, 73, 87, 88, 155:
			continue
		}
		if shape == oneInSitu || shape == anyInSitu || shape == someValues {
			writable = append(writable, item)
		}
	}
	slices.Sort(writable)
	store := func(item uint32, v int32) {
		tw.do(&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{
			PMID: pcp.NewPMID(Domain, 0, item), NumVal: 1, ValFmt: pcp.ValInSitu,
			Values: []pcp.Value{{Inst: pcp.InstNull, LVal: v}},
		}}}}, true, sameBytes)
	}
	// pmcd sends a profile before any fetch (PCP's agent relies on it).
	tw.do(&pdu.Profile{State: pdu.ProfileInclude}, false, sameBytes)
	store(155, 3600000) // mirage changes only when asked
	for range 1500 {
		tw.from = int32(rng.IntN(4))
		switch op := rng.IntN(10); {
		case op < 4 && rng.IntN(8) == 0:
			// Event records, with other metrics among them.
			ids := []pcp.PMID{pcp.NewPMID(Domain, 0, []uint32{136, 137, 139}[rng.IntN(3)]), steady[rng.IntN(len(steady))]}
			if rng.IntN(2) == 0 {
				ids = append(ids, pcp.NewPMID(Domain, 0, 137))
			}
			tw.do(&pdu.Fetch{PMIDs: ids}, true, sameEvents)
		case op < 4:
			n := 1 + rng.IntN(12)
			ids := make([]pcp.PMID, n)
			for i := range ids {
				ids[i] = steady[rng.IntN(len(steady))]
			}
			tw.do(&pdu.Fetch{PMIDs: ids}, true, sameBytes)
		case op < 6 && rng.IntN(3) == 0:
			// A value in a block: 64-bit, double, float, string, aggregate.
			items := []uint32{24, 29, 32, 35, 102, 120, 142, 144, 146, 148, 150, 152, 19, 143, 147, 151, 38}
			item := items[rng.IntN(len(items))]
			d := defs[slices.IndexFunc(defs, func(d def) bool { return d.item == item })]
			var data []byte
			switch d.typ {
			case pcp.Type64, pcp.TypeU64:
				data = binary.NativeEndian.AppendUint64(nil, uint64(rng.Int64N(2000)-1000))
			case pcp.TypeDouble:
				data = binary.NativeEndian.AppendUint64(nil, math.Float64bits(float64(rng.IntN(2000))/8-100))
			case pcp.TypeFloat:
				data = binary.NativeEndian.AppendUint32(nil, math.Float32bits(float32(rng.IntN(2000))/8-100))
			case pcp.TypeString:
				data = append([]byte(fmt.Sprint("s", rng.IntN(1000))), 0)
			default:
				data = []byte(fmt.Sprint("agg", rng.IntN(1000)))
			}
			tw.do(&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{
				PMID: pcp.NewPMID(Domain, 0, item), NumVal: 1, ValFmt: pcp.ValDPtr,
				Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: d.typ, Data: data}}},
			}}}}, true, sameBytes)
		case op < 6:
			item := writable[rng.IntN(len(writable))]
			v := int32(rng.IntN(41) - 10)
			switch item {
			case 79: // many.count: keep the domain small
				v = int32(rng.IntN(30))
			case 6: // bins exist every hundred
				v = int32(rng.IntN(1000))
			case 90: // units: the descriptor PDU has no room for the padding bits
				v <<= 8
			}
			if item == 6 {
				tw.do(&pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{
					PMID: pcp.NewPMID(Domain, 0, 6), NumVal: 1, ValFmt: pcp.ValInSitu,
					Values: []pcp.Value{{Inst: int32(100 * (1 + rng.IntN(10))), LVal: v}},
				}}}}, true, sameBytes)
				continue
			}
			store(item, v)
		case op < 7:
			// Not the ghosts': PCP's agent counts their values before
			// the profile and answers with whatever memory holds for
			// the instances left out, or crashes.
			serial := uint32(1 + rng.IntN(13))
			if serial == ghostInDom {
				serial = colourInDom
			}
			indom := pcp.NewInDom(Domain, serial)
			var insts []int32
			for range rng.IntN(4) {
				insts = append(insts, int32(rng.IntN(10)*100+rng.IntN(6)))
			}
			slices.Sort(insts)
			insts = slices.Compact(insts)
			state := int32(pdu.ProfileExclude)
			if rng.IntN(2) == 0 {
				state = pdu.ProfileInclude
			}
			tw.do(&pdu.Profile{State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{{InDom: indom, State: state, Insts: insts}}}, false, sameBytes)
		case op < 8:
			indom := pcp.NewInDom(Domain, uint32(1+rng.IntN(13)))
			switch rng.IntN(3) {
			case 0:
				tw.do(&pdu.InstanceReq{InDom: indom, Inst: pcp.InstNull}, true, sameBytes)
			case 1:
				tw.do(&pdu.InstanceReq{InDom: indom, Inst: int32(rng.IntN(10) * 100)}, true, sameBytes)
			default:
				names := []string{"red", "bin-500", "m-00", "fat bald", "i-3", "d2", "Mogwai", "0003 /usr/bin/bobo", "nosuch"}
				tw.do(&pdu.InstanceReq{InDom: indom, Inst: pcp.InstNull, Name: names[rng.IntN(len(names))]}, true, sameBytes)
			}
		case op < 9:
			id := steady[rng.IntN(len(steady))]
			tw.do(&pdu.DescReq{PMID: id}, true, sameBytes)
			tw.do(&pdu.LabelReq{Ident: uint32(id), Type: int32(pcp.LabelItem)}, true, sameBytes)
		default:
			if rng.IntN(4) == 0 {
				// A context ends; pmcd sends a profile before the next
				// fetch (PCP's agent would use the freed one).
				tw.do(&pdu.Error{Code: int32(pcp.ErrNotConn)}, false, sameBytes)
				tw.do(&pdu.Profile{State: pdu.ProfileInclude}, false, sameBytes)
			} else {
				indom := pcp.NewInDom(Domain, uint32(1+rng.IntN(13)))
				tw.do(&pdu.LabelReq{Ident: uint32(indom), Type: int32(pcp.LabelInstances)}, true, sameBytes)
			}
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d of %d replies as PCP's agent's", tw.same, tw.checks)
}
