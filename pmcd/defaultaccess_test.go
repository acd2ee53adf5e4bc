package pmcd

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// remoteListener hands out connections that claim to come from another
// host, so that access control judges them as it would a remote client.
type remoteListener struct {
	net.Listener
	from net.IP
}

type remoteConn struct {
	net.Conn
	from net.IP
}

func (l remoteListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return remoteConn{c, l.from}, nil
}

func (c remoteConn) RemoteAddr() net.Addr { return &net.TCPAddr{IP: c.from, Port: 40000} }

// TestDefaultAccess: the built-in configuration carries PCP's shipped
// access policy (allow local clients everything, refuse stores from
// others): a store from another host gets PM_ERR_PERMISSION, a fetch
// from it works, and a store from this host (loopback TCP, or the Unix
// socket) works.
func TestDefaultAccess(t *testing.T) {
	t.Parallel()
	conf := DefaultConf()
	// pmcd's own agent alone: its pmcd.control.timeout takes stores and
	// needs no other agent registered in this test binary.
	conf.Agents = conf.Agents[:1]
	tree, err := AgentNamespace(context.Background(), conf, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{PMNS: tree, Conf: conf}
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serve := func(l net.Listener) {
		t.Cleanup(func() { l.Close() })
		go srv.Serve(ctx, l)
	}
	local, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serve(local)
	remote, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serve(remoteListener{remote, net.IPv4(192, 0, 2, 7)})
	sock := t.TempDir() + "/pmcd.socket"
	unix, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	serve(unix)

	timeout := pcp.NewPMID(2, 0, 4) // pmcd.control.timeout
	store := &pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{
		PMID: timeout, NumVal: 1, ValFmt: pcp.ValInSitu,
		Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 9}},
	}}}}
	for _, c := range []struct {
		name, network, addr string
		want                pcp.Error // 0: the store is done
	}{
		{"loopback", "tcp", local.Addr().String(), 0},
		{"Unix socket", "unix", sock, 0},
		{"another host", "tcp", remote.Addr().String(), pcp.ErrPermission},
	} {
		conn, err := net.Dial(c.network, c.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		hctx, hcancel := context.WithTimeout(ctx, 30*time.Second)
		_, err = pdu.ClientHandshake(hctx, conn, 0, pdu.DefaultTimeout)
		hcancel()
		if err != nil {
			t.Fatalf("%s: handshake: %v", c.name, err)
		}
		r, w := pdu.NewReader(conn, pdu.DefaultTimeout), pdu.NewWriter(conn)
		// A profile first, as libpcp sends before its first fetch.
		if err := w.WriteMessage(ctx, &pdu.Profile{State: pdu.ProfileInclude}, 1); err != nil {
			t.Fatal(err)
		}
		reply := roundTrip(t, r, w, store)
		e, ok := reply.(*pdu.Error)
		if !ok || pcp.Error(e.Code) != c.want {
			t.Errorf("%s: store answered %#v, want ERROR %d", c.name, reply, c.want)
		}
		res, ok := roundTrip(t, r, w, &pdu.Fetch{PMIDs: []pcp.PMID{timeout}}).(*pdu.Result)
		if !ok || len(res.Sets) != 1 || res.Sets[0].NumVal != 1 {
			t.Errorf("%s: fetch: %+v", c.name, res)
		}
	}
}

// TestUnixOnlyStores: the fallback for a host with no address of its own
// refuses stores from every address, loopback included, and allows them
// on the Unix socket.
func TestUnixOnlyStores(t *testing.T) {
	a, err := unixOnlyStores(func() []net.IP { return nil })
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id        access.ClientID
		wantStore bool
	}{
		{access.ClientID{IP: net.IPv4(192, 0, 2, 7).To4()}, false},
		{access.ClientID{IP: net.ParseIP("2001:db8::7")}, false},
		{access.ClientID{IP: net.IPv4(127, 0, 0, 1).To4()}, false},
		{access.ClientID{Unix: true}, true},
	} {
		deny, err := a.AdmitHost(c.id)
		if err != nil {
			t.Errorf("%v: %v", c.id, err)
			continue
		}
		if got := deny&access.OpStore == 0; got != c.wantStore || deny&access.OpFetch != 0 {
			t.Errorf("%v: denied %#x", c.id, deny)
		}
		a.ReleaseHost(c.id)
	}
}
