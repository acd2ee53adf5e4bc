package pmapi

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

var econnrefused = pcp.Error(-int32(syscall.ECONNREFUSED))

// TestConnectForms reaches the bed's pmcd through each form of host
// specification and checks that each context works and names the same
// host as libpcp does.
func TestConnectForms(t *testing.T) {
	bed := startBed(t)
	ctx := testContext(t)
	port := strconv.Itoa(bed.Port())
	// a port nothing listens on, reserved to the test's end
	nowhere := strconv.Itoa(testbed.ReservedPort(t))
	want := askLibpcp(t, bed, bed.Host(), "", []req{{"op": "hostname"}})[0]
	if want.Name == nil {
		t.Fatal("libpcp gave no host name")
	}
	// The socket comes from the option; pmapi reads no PMCD_SOCKET.
	t.Setenv("PMCD_SOCKET", "/nonexistent/pmcd.socket")
	for _, spec := range []string{
		bed.Host(),
		"localhost:" + nowhere + "," + port,
		"127.0.0.1:" + port,
		"[127.0.0.1]:" + port,
		"pcp://localhost:" + port,
		"unix:" + bed.SocketPath(),
		"local:" + bed.SocketPath(),
		"local:",
		"unix:",
	} {
		c, err := NewHostContext(ctx, spec, WithSocketPath(bed.SocketPath()))
		if err != nil {
			t.Errorf("NewHostContext(%q): %v", spec, err)
			continue
		}
		if f := c.Features(); f&pdu.FlagHighRes == 0 || f&pdu.FlagDescs == 0 || f&pdu.FlagLabels == 0 {
			t.Errorf("NewHostContext(%q): pmcd offers %s", spec, f)
		}
		if name, err := c.HostName(ctx); err != nil || name != *want.Name {
			t.Errorf("HostName via %q = %q, %v; libpcp %q", spec, name, err, *want.Name)
		}
		if _, err := c.LookupName(ctx, "sample.long.one"); err != nil {
			t.Errorf("LookupName via %q: %v", spec, err)
		}
		c.Close()
	}
}

// TestDefaultPorts connects to a host without ports through WithPorts
// (PMCD_PORT's list), whose first port has nobody listening; the
// variable itself is not read here.
func TestDefaultPorts(t *testing.T) {
	bed := startBed(t)
	ctx := testContext(t)
	// The first port is a private one reserved to the test's end, so
	// nothing can listen there meanwhile.
	nowhere := testbed.ReservedPort(t)
	t.Setenv("PMCD_PORT", strconv.Itoa(nowhere))
	ports := WithPorts(ParsePorts(strconv.Itoa(nowhere) + "," + strconv.Itoa(bed.Port())))
	c, err := NewHostContext(ctx, "localhost", ports)
	if err != nil {
		t.Fatalf("NewHostContext with WithPorts: %v", err)
	}
	c.Close()
	// local: falls back to localhost on these ports without a socket.
	c, err = NewHostContext(ctx, "local:", ports, WithSocketPath("/nonexistent/pmcd.socket"))
	if err != nil {
		t.Fatalf("NewHostContext(local:) without a socket: %v", err)
	}
	c.Close()
	if _, err := NewHostContext(ctx, "localhost", WithPorts([]int{nowhere})); !errors.Is(err, econnrefused) {
		t.Errorf("NewHostContext with port %d: %v, want ECONNREFUSED", nowhere, err)
	}
}

func TestPortList(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want []int
	}{
		{"44321", []int{44321}},
		{"1,2,3", []int{1, 2, 3}},
		{"0x10,010, 7", []int{16, 8, 7}},
		{"", []int{0}},
		{"1,,2", []int{1, 0, 2}},
		{"44321x", []int{DefaultPort}},
		{"-1", []int{DefaultPort}},
		{"08", []int{DefaultPort}},
		// As libpcp's __pmServerAddPorts took them: no digits is a
		// port only in an empty field, a second sign is refused, and
		// LONG_MIN cut to an int is port 0.
		{"-", []int{DefaultPort}},
		{" ", []int{DefaultPort}},
		{"1,-", []int{DefaultPort}},
		{"1,", []int{1, 0}},
		{"+-5", []int{DefaultPort}},
		{"0x+5", []int{DefaultPort}},
		{"5 ", []int{DefaultPort}},
		{"99999999999999999999", []int{DefaultPort}},
		{"-99999999999999999999", []int{0}},
		{"4294967296", []int{0}},
	} {
		if got := ParsePorts(tc.env); !slices.Equal(got, tc.want) {
			t.Errorf("PMCD_PORT=%q: %v, want %v", tc.env, got, tc.want)
		}
	}
}

func TestClose(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := c.LookupName(ctx, "sample.long.one"); !errors.Is(err, pcp.ErrNoContext) {
		t.Errorf("LookupName after Close: %v, want %v", err, pcp.ErrNoContext)
	}
	if err := c.AddProfile(colourInDom, nil); !errors.Is(err, pcp.ErrNoContext) {
		t.Errorf("AddProfile after Close: %v, want %v", err, pcp.ErrNoContext)
	}
	if err := c.Reconnect(ctx); !errors.Is(err, pcp.ErrNoContext) {
		t.Errorf("Reconnect after Close: %v, want %v", err, pcp.ErrNoContext)
	}
}

// TestReconnect breaks the connection under a context with a profile,
// and checks that calls fail until Reconnect and that the profile still
// applies afterwards.
func TestReconnect(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	pmid, err := c.LookupName(ctx, "sample.colour")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.DelProfile(colourInDom, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.AddProfile(colourInDom, []int32{2}); err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	if _, err := c.Fetch(ctx, []pcp.PMID{pmid}, &r); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.conn.conn.Close()
	c.mu.Unlock()
	if _, err := c.Fetch(ctx, []pcp.PMID{pmid}, &r); !errors.Is(err, pcp.ErrIPC) {
		t.Errorf("Fetch on a closed connection: %v, want %v", err, pcp.ErrIPC)
	}
	if _, err := c.LookupName(ctx, "sample.colour"); !errors.Is(err, pcp.ErrIPC) {
		t.Errorf("LookupName after a failure: %v, want %v", err, pcp.ErrIPC)
	}
	if err := c.Reconnect(ctx); err != nil {
		t.Fatalf("Reconnect: %v", err)
	}
	if _, err := c.Fetch(ctx, []pcp.PMID{pmid}, &r); err != nil {
		t.Fatalf("Fetch after Reconnect: %v", err)
	}
	if len(r.Sets) != 1 || r.Sets[0].NumVal != 1 || r.Sets[0].Values[0].Inst != 2 {
		t.Errorf("Fetch after Reconnect: %+v, want instance 2 only", r.Sets)
	}
}

// TestReconnectBackoff checks that a failed reconnection makes the next
// attempt fail at once with ETIMEDOUT, as libpcp does, until the back-off
// counted from the whole second of the failure (libpcp's time(2)) ends.
func TestReconnectBackoff(t *testing.T) {
	bed := startBed(t)
	ctx := testContext(t)
	c := dial(t, bed)
	c.spec = &HostSpec{Kind: HostTCP, Hosts: []Host{{Name: "localhost", Ports: []int{1}}}, Attrs: c.spec.Attrs}
	etimedout := pcp.Error(-int32(syscall.ETIMEDOUT))
	before := time.Now()
	if err := c.Reconnect(ctx); !errors.Is(err, etimedout) || !errors.Is(err, econnrefused) {
		t.Errorf("Reconnect to a closed port: %v, want ETIMEDOUT and ECONNREFUSED", err)
	}
	after := time.Now()
	first := DefaultReconnectBackoff[0]
	if c.retryAt.Nanosecond() != 0 || c.retryAt.Before(before.Truncate(time.Second).Add(first)) || c.retryAt.After(after.Add(first)) {
		t.Errorf("next attempt at %v after a failure between %v and %v; want a whole second, %v after the failure's", c.retryAt, before, after, first)
	}
	if err := c.Reconnect(ctx); !errors.Is(err, etimedout) || errors.Is(err, econnrefused) {
		t.Errorf("second Reconnect: %v, want ETIMEDOUT without trying", err)
	}
}

// TestConcurrentUse runs the calls of several goroutines on one HostContext
// at once; each must get the answers it gets alone. Run with -race.
func TestConcurrentUse(t *testing.T) {
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	names, pmids := leafPMIDs(t, c)
	descs, err := c.LookupDescs(ctx, pmids)
	if err != nil {
		t.Fatal(err)
	}
	insts, err := c.GetInDom(ctx, colourInDom)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r pcp.Result
			for i := range 20 {
				k := (g + i) % len(names)
				pmid, err := c.LookupName(ctx, names[k])
				if err != nil || pmid != pmids[k] {
					errs <- fmt.Errorf("LookupName(%s) = %s, %v", names[k], pmid, err)
				}
				d, err := c.LookupDesc(ctx, pmid)
				if err != nil || d != descs[k] {
					errs <- fmt.Errorf("LookupDesc(%s) = %+v, %v", pmid, d, err)
				}
				got, err := c.GetInDom(ctx, colourInDom)
				if err != nil || !slices.Equal(got, insts) {
					errs <- fmt.Errorf("GetInDom = %v, %v", got, err)
				}
				if _, err := c.Fetch(ctx, pmids, &r); err != nil || len(r.Sets) != len(pmids) {
					errs <- fmt.Errorf("Fetch: %d sets, %v", len(r.Sets), err)
				}
				if g%2 == 0 {
					if err := c.AddProfile(colourInDom, nil); err != nil {
						errs <- err
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

const localNamespace = `root {
    sample
    other	30:1:2
}
sample {
    long
    colour	29:0:5
    alias	29:0:5
    secret	29:*:*
}
sample.long {
    one	29:0:10
    ten	29:0:11
}
`

// TestLocalNamespaceMatchesLibpcp answers name questions from a local
// namespace file, as libpcp does after pmLoadASCIINameSpace, while the
// rest still goes to pmcd.
func TestLocalNamespaceMatchesLibpcp(t *testing.T) {
	bed := startBed(t)
	ctx := testContext(t)
	file := filepath.Join(t.TempDir(), "root")
	if err := os.WriteFile(file, []byte(localNamespace), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, err := pmns.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, bed, WithNamespace(tree))
	names := []string{"sample.long.one", "sample.colour", "sample.alias", "sample.secret", "sample.secret.foo.one", "sample", "other", "nosuch", "sample.write_me"}
	var reqs []req
	reqs = append(reqs, req{"op": "lookup", "names": names})
	for _, n := range names {
		reqs = append(reqs, req{"op": "lookup", "names": []string{n}}, req{"op": "children", "name": n}, req{"op": "traverse", "name": n})
	}
	pmids := []pcp.PMID{pcp.NewPMID(29, 0, 5), pcp.NewPMID(29, 0, 10), pcp.NewPMID(29, 0, 14), pcp.NewPMID(30, 1, 2)}
	for _, p := range pmids {
		reqs = append(reqs, req{"op": "nameid", "pmid": uint32(p)}, req{"op": "nameall", "pmid": uint32(p)})
	}
	want := askLibpcp(t, bed, bed.Host(), file, reqs)

	got, err := c.LookupNames(ctx, names)
	if err != nil || len(got) != len(want[0].PMIDs) {
		t.Fatalf("LookupNames = %v, %v; libpcp %v", got, err, want[0].PMIDs)
	}
	for i := range got {
		if uint32(got[i]) != want[0].PMIDs[i] {
			t.Errorf("LookupNames: %s = %s, libpcp %s", names[i], got[i], pcp.PMID(want[0].PMIDs[i]))
		}
	}
	k := 1
	for _, n := range names {
		pmid, err := c.LookupName(ctx, n)
		if w := want[k]; codeOf(err) != min(w.Sts, 0) || uint32(pmid) != w.PMIDs[0] {
			t.Errorf("LookupName(%q) = %s, %v; libpcp %s, %d", n, pmid, err, pcp.PMID(w.PMIDs[0]), w.Sts)
		}
		kids, err := c.Children(ctx, n)
		if w := want[k+1]; codeOf(err) != min(w.Sts, 0) || !slices.Equal(kids, w.Names) {
			t.Errorf("Children(%q) = %q, %v; libpcp %q, %d", n, kids, err, w.Names, w.Sts)
		}
		all, err := c.Traverse(ctx, n)
		if w := want[k+2]; codeOf(err) != min(w.Sts, 0) || !slices.Equal(all, w.Names) {
			t.Errorf("Traverse(%q) = %q, %v; libpcp %q, %d", n, all, err, w.Names, w.Sts)
		}
		k += 3
	}
	for _, p := range pmids {
		name, err := c.NameID(ctx, p)
		if w := want[k]; codeOf(err) != min(w.Sts, 0) || (w.Name != nil && name != *w.Name) {
			t.Errorf("NameID(%s) = %q, %v; libpcp %v, %d", p, name, err, deref(w.Name), w.Sts)
		}
		all, err := c.NameAll(ctx, p)
		if w := want[k+1]; codeOf(err) != min(w.Sts, 0) || !slices.Equal(all, w.Names) {
			t.Errorf("NameAll(%s) = %q, %v; libpcp %q, %d", p, all, err, w.Names, w.Sts)
		}
		k += 2
	}
	// Metadata still comes from pmcd.
	if d, err := c.LookupDesc(ctx, pcp.NewPMID(29, 0, 10)); err != nil || d.Type != pcp.Type32 {
		t.Errorf("LookupDesc with a local namespace = %+v, %v", d, err)
	}
}
