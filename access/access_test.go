package access

import (
	"errors"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// stubLookup resolves addresses to themselves, this host's name,
// "localhost" and names starting "host" to one documentation address,
// and fails every other name, so that tests stay off the network.
func stubLookup(name string) ([]net.IP, error) {
	if ip := net.ParseIP(name); ip != nil {
		return []net.IP{ip}, nil
	}
	if me, _ := os.Hostname(); name == me || name == "localhost" || strings.HasPrefix(name, "host") {
		return []net.IP{net.ParseIP("192.0.2.7")}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

func newTest(ops int) *Control {
	return New(Options{Ops: ops, Lookup: stubLookup, MyAddrs: func() []net.IP { return []net.IP{net.ParseIP("192.0.2.7").To4()} }})
}

var (
	remote = ClientID{IP: net.ParseIP("198.51.100.3").To4()}
	subnet = ClientID{IP: net.ParseIP("10.1.2.3").To4()}
	v6     = ClientID{IP: net.ParseIP("2001:db8::5")}
	loop   = ClientID{IP: net.ParseIP("127.0.0.1").To4()}
	unixCl = ClientID{Unix: true}
	rootCl = ClientID{Unix: true, HasCreds: true}
)

// TestAdmitHost judges clients by sections with PCP's rules: the most
// specific matching entry decides the operations it names, a loopback
// client is judged by this host's addresses, the Unix socket only by
// "unix:", "local:" and "*", a client denied everything is refused, and
// a client nothing matches may do everything.
func TestAdmitHost(t *testing.T) {
	for _, c := range []struct {
		section string
		id      ClientID
		deny    int
		err     error
	}{
		{"disallow * : store;", remote, OpStore, nil},
		{"disallow * : store;", unixCl, OpStore, nil},
		{"disallow * : all;\nallow 10.1.* : fetch;", subnet, OpStore, nil},
		{"disallow * : all;\nallow 10.1.* : fetch;", remote, OpAll, pcp.ErrPermission},
		{"disallow 10.* : all;\nallow 10.1.2.3 : all;", subnet, 0, nil},
		{"disallow 10.* : all;", v6, 0, nil},
		{"disallow \":*\" : store;", v6, OpStore, nil},
		{"disallow \"2001:db8:*\" : all;", v6, OpAll, pcp.ErrPermission},
		{"disallow \"unix:\" : store;", unixCl, OpStore, nil},
		{"disallow \"unix:\" : store;", remote, 0, nil},
		{"disallow localhost : store;", loop, OpStore, nil},
		{"disallow host1 : all except fetch;", ClientID{IP: net.ParseIP("192.0.2.7").To4()}, OpStore, nil},
		{"allow \"local:*\" : all;\ndisallow * : all;", unixCl, 0, nil},
		{"allow \"local:*\" : all;\ndisallow * : all;", loop, 0, nil},
		{"allow \"local:*\" : all;\ndisallow * : all;", remote, OpAll, pcp.ErrPermission},
	} {
		a := newTest(0)
		if msgs, ok := a.Parse(strings.Split(c.section, "\n"), 1, 2, "test"); !ok {
			t.Fatalf("%q: %q", c.section, msgs)
		}
		deny, err := a.AdmitHost(c.id)
		if deny != c.deny || !errors.Is(err, c.err) {
			t.Errorf("%q, %v: deny %b %v, want %b %v", c.section, c.id, deny, err, c.deny, c.err)
		}
		if err == nil {
			a.ReleaseHost(c.id)
		}
	}
}

// TestConnectionLimit: the most specific match's limit counts
// connections until they are released.
func TestConnectionLimit(t *testing.T) {
	a := newTest(0)
	if msgs, ok := a.Parse([]string{"allow 10.1.* : maximum 2 connections, fetch;"}, 1, 1, "test"); !ok {
		t.Fatal(msgs)
	}
	for i := range 2 {
		if _, err := a.AdmitHost(subnet); err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
	}
	if _, err := a.AdmitHost(subnet); !errors.Is(err, pcp.ErrConnLimit) {
		t.Fatalf("third connection: %v, want PM_ERR_CONNLIMIT", err)
	}
	if _, err := a.AdmitHost(remote); err != nil {
		t.Fatalf("another host: %v", err)
	}
	a.ReleaseHost(subnet)
	if _, err := a.AdmitHost(subnet); err != nil {
		t.Fatalf("after a release: %v", err)
	}
}

// TestAccounts: user and group rules oblige credentials, which only
// Unix-socket clients have.
func TestAccounts(t *testing.T) {
	a := newTest(0)
	if msgs, ok := a.Parse([]string{"disallow users root : store;"}, 1, 1, "test"); !ok {
		t.Fatal(msgs)
	}
	if !a.HasAccounts() || a.Empty() {
		t.Fatal("user rule not kept")
	}
	deny, counted, err := a.AdmitAccount(rootCl, 0)
	if err != nil || deny != OpStore || !counted {
		t.Errorf("root: deny %b counted %v %v", deny, counted, err)
	}
	a.ReleaseAccount(rootCl)
	if _, _, err := a.AdmitAccount(unixCl, 0); !errors.Is(err, pcp.ErrPermission) {
		t.Errorf("no credentials: %v, want PM_ERR_PERMISSION", err)
	}
	other := ClientID{Unix: true, HasCreds: true, UID: 4000000, GID: 4000000}
	if _, _, err := a.AdmitAccount(other, 0); !errors.Is(err, pcp.ErrPermission) {
		t.Errorf("another user: %v, want PM_ERR_PERMISSION", err)
	}
}

// TestParseVerdicts: a bad statement fails the section with a message
// naming its line and the source; an unknown host is a warning that
// leaves the rest; a section with nothing valid fails; a nil or empty
// Control allows everything.
func TestParseVerdicts(t *testing.T) {
	for _, c := range []struct {
		section string
		ok      bool
		msg     string
	}{
		{"allow host1 : all;", true, ""},
		{"allow nosuch.invalid : fetch;\nallow host1 : fetch;", true, "test config[line 1]: Warning: access control error for host 'nosuch.invalid'"},
		{"allow nosuch.invalid : fetch;", false, "no valid statements"},
		{"allow host1 : fetch store;", false, "test config[line 1]: Error: ',' or ';' expected in permission list"},
		{"allow host1 : all;\nfoo x : all;", false, "test config[line 2]: Error: allow or disallow statement expected"},
		{"allow host1 : all", false, "test config[line 9]: Error: ',' or ';' expected in permission list"},
		{"allow 1.*.3 : all;", false, "access control error for host '1.*.3'"},
	} {
		a := newTest(0)
		msgs, ok := a.Parse(strings.Split(c.section, "\n"), 1, 9, "test")
		joined := strings.Join(msgs, "\n")
		if ok != c.ok || !strings.Contains(joined, c.msg) {
			t.Errorf("%q: ok %v, messages:\n%s\nwant ok %v and %q", c.section, ok, joined, c.ok, c.msg)
		}
	}
	var none *Control
	if deny, err := none.AdmitHost(remote); deny != 0 || err != nil || !none.Empty() {
		t.Errorf("nil Control: %b %v", deny, err)
	}
	if !newTest(0).Empty() {
		t.Error("new Control not empty")
	}
}

// TestOwnOps: a server with its own operations (pmlogger's) refuses a
// client denied all of them, not pmcd's two.
func TestOwnOps(t *testing.T) {
	const all = 1<<3 - 1
	a := newTest(all)
	if err := a.AddHost("10.1.*", all, 3); err != nil {
		t.Fatal(err)
	}
	if deny, err := a.AdmitHost(subnet); deny != 3 || err != nil {
		t.Errorf("partly denied: %b %v", deny, err)
	}
	if err := a.AddHost("10.1.2.3", all, all); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AdmitHost(subnet); !errors.Is(err, pcp.ErrPermission) {
		t.Errorf("all denied: %v", err)
	}
	// A clash with an earlier statement is noted and the statement
	// ignored.
	if err := a.AddHost("10.1.2.3", all, 0); err == nil || len(a.Notes()) != 1 {
		t.Errorf("clash: %v", err)
	}
}

// TestClientOf identifies TCP peers by address and Unix-socket peers by
// their credentials.
func TestClientOf(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if id := ClientOf(s); id.Unix || !id.IP.Equal(net.IPv4(127, 0, 0, 1)) || len(id.IP) != 4 {
		t.Errorf("TCP peer: %+v", id)
	}

	ul, err := net.Listen("unix", t.TempDir()+"/s")
	if err != nil {
		t.Fatal(err)
	}
	defer ul.Close()
	uc, err := net.Dial("unix", ul.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer uc.Close()
	us, err := ul.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer us.Close()
	id := ClientOf(us)
	if !id.Unix {
		t.Fatalf("Unix peer: %+v", id)
	}
	if id.HasCreds && (int(id.UID) != os.Geteuid() || int(id.PID) != os.Getpid()) {
		t.Errorf("Unix peer credentials %+v, want uid %d pid %d", id, os.Geteuid(), os.Getpid())
	}
}
