package proc

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// fakeRoot serves pmdaroot's cgroup questions on a Unix socket in dir,
// to the one connection an agent keeps: cgroups maps container names to
// their cgroup, other names get PM_ERR_NOCONTAINER, as pmdaroot answers
// them. It returns the socket.
func fakeRoot(t *testing.T, dir string, cgroups map[string]string) string {
	path := filepath.Join(dir, "root.socket")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go serveRoot(l, cgroups)
	return path
}

// serveRoot answers the first connection's questions until it ends.
func serveRoot(l net.Listener, cgroups map[string]string) {
	c, err := l.Accept()
	if err != nil {
		return
	}
	defer c.Close()
	c.Write(rootInts(nil, rootInfo, rootInfoLen, 0, rootVersion, 4, 0))
	b := make([]byte, 8192)
	for {
		n, err := c.Read(b)
		if err != nil || n < rootContainerLen {
			return
		}
		cg, ok := cgroups[string(b[rootContainerLen:n])]
		status := int32(0)
		if !ok {
			status = int32(pcp.ErrNoContainer)
		}
		c.Write(append(rootInts(nil, rootCgroupAnswer, int32(rootContainerLen+len(cg)), status, rootVersion, 0, int32(len(cg))), cg...))
	}
}

// TestContainerClient: a client that names a container sees that
// container's processes only: those its cgroup lists where PCP's agent
// looks (the cgroup2 mount's machine.slice, the stats prefix written
// twice as pmdaproc writes it), asked of pmdaroot at each request; an
// unknown container is pmdaroot's PM_ERR_NOCONTAINER and no pmdaroot
// -ENOTCONN, for every metric of the fetch and for instance requests;
// other clients still see every process.
func TestContainerClient(t *testing.T) {
	root := fixtureTree(t, 5)
	os.WriteFile(filepath.Join(root, "proc", "mounts"), []byte("cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n"), 0o644)
	cg := filepath.Join(root, root, "sys", "fs", "cgroup", "machine.slice", "docker", "abc", "container")
	if err := os.MkdirAll(cg, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(cg, "cgroup.procs"), []byte("1001\n1003\n"), 0o644)
	sock := fakeRoot(t, t.TempDir(), map[string]string{"web": "docker/abc"})

	a, err := New(Domain, Options{StatsPath: root, Hertz: 100, PageSize: 4096, RootSocket: sock})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	cred := func(c int32, container string) {
		a.Attribute(pmda.Client(c), pdu.AttrGroupID, []byte(strconv.Itoa(os.Getgid())+"\x00"))
		a.Attribute(pmda.Client(c), pdu.AttrUserID, []byte(strconv.Itoa(os.Getuid())+"\x00"))
		if container != "" {
			a.Attribute(pmda.Client(c), pdu.AttrContainer, []byte(container+"\x00"))
		}
	}
	cred(1, "web")
	cred(2, "")
	cred(3, "nosuch")
	ctx := context.Background()
	ids := []pcp.PMID{pmidOf(t, "proc.psinfo.pid"), pmidOf(t, "proc.nprocs"), pmidOf(t, "proc.control.all.threads")}
	pids := func(c int32) ([]int32, []int32) {
		r, err := a.Fetch(ctx, pmda.Client(c), ids)
		if err != nil {
			t.Fatal(err)
		}
		var got []int32
		for _, v := range r.Sets[0].Values {
			got = append(got, v.Inst)
		}
		return got, []int32{r.Sets[0].NumVal, r.Sets[1].NumVal, r.Sets[2].NumVal}
	}
	if got, n := pids(1); len(got) != 2 || got[0] != 1001 || got[1] != 1003 || n[1] != 1 {
		t.Errorf("container web: pids %v, counts %v; want 1001 1003", got, n)
	}
	if got, _ := pids(2); len(got) != 5 {
		t.Errorf("no container: pids %v, want 5", got)
	}
	for _, n := range func() []int32 { _, n := pids(3); return n }() {
		if n != int32(pcp.ErrNoContainer) {
			t.Errorf("unknown container: counts %v, want PM_ERR_NOCONTAINER for each", n)
		}
	}
	insts, err := a.Instance(ctx, pmda.Client(1), pcp.NewInDom(Domain, procInDom), pcp.InstNull, "")
	if err != nil || len(insts.Entries) != 2 {
		t.Errorf("container web: instances %+v, %v", insts, err)
	}
	if _, err := a.Instance(ctx, pmda.Client(3), pcp.NewInDom(Domain, procInDom), pcp.InstNull, ""); !errors.Is(err, pcp.ErrNoContainer) {
		t.Errorf("unknown container: instances error %v", err)
	}

	// With no pmdaroot, as PCP's agent without one.
	b, err := New(Domain, Options{StatsPath: root, Hertz: 100, PageSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.Attribute(pmda.Client(1), pdu.AttrContainer, []byte("web\x00"))
	r, err := b.Fetch(ctx, pmda.Client(1), ids[1:2])
	if err != nil || r.Sets[0].NumVal != -int32(syscall.ENOTCONN) {
		t.Errorf("no pmdaroot: %+v, %v; want -ENOTCONN", r, err)
	}
}

// FuzzRootAnswer decodes pmdaroot's greetings and answers: a name, a
// refusal or an error, never a panic, and never a name longer than the
// message.
func FuzzRootAnswer(f *testing.F) {
	ans := func(vals ...int32) []byte { return rootInts(nil, vals...) }
	f.Add(append(ans(rootCgroupAnswer, rootContainerLen+10, 0, 2, 0, 10), "docker/abc"...))
	f.Add(ans(rootCgroupAnswer, rootContainerLen, int32(pcp.ErrNoContainer), 2, 0, 0))
	f.Add(ans(rootInfo, rootInfoLen, 0, 2, 4, 0))
	f.Add(append(ans(rootCgroupAnswer, rootContainerLen+3, 0, 2, 0, -1), "abc"...))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = decodeRootInfo(b)
		name, err := decodeRootCgroup(b)
		if err == nil && len(name) > len(b)-rootContainerLen {
			t.Fatalf("name %q longer than the answer", name)
		}
	})
}
