package resp

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestPoolAgainstRedis runs the replies the series code reads through a
// private redis-server: strings, nil, integers, arrays with nils, error
// replies keeping Redis's text, and pipelines.
func TestPoolAgainstRedis(t *testing.T) {
	srv := redistest.Start(t)
	p := NewPool(srv.Addr(), Options{})
	defer p.Close()
	ctx := context.Background()
	do := func(args ...string) Value {
		t.Helper()
		v, err := p.Do(ctx, args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return v
	}
	if v := do("SET", "k", "a\r\nb\x00"); v.Kind != KindSimple || v.Str != "OK" {
		t.Errorf("SET: %+v", v)
	}
	if s, ok := do("GET", "k").Text(); !ok || s != "a\r\nb\x00" {
		t.Errorf("GET: %q %v", s, ok)
	}
	if v := do("GET", "missing"); !v.IsNil() {
		t.Errorf("GET of no key: %+v", v)
	}
	if n, ok := do("HSET", "h", "f1", "1", "f2", "2").Integer(); !ok || n != 2 {
		t.Errorf("HSET: %d", n)
	}
	if got := do("HMGET", "h", "f2", "none", "f1"); !reflect.DeepEqual(got.Strings(), []string{"2", "", "1"}) || !got.Elems[1].IsNil() {
		t.Errorf("HMGET: %+v", got)
	}
	if got := do("HGETALL", "h").StringMap(); !reflect.DeepEqual(got, map[string]string{"f1": "1", "f2": "2"}) {
		t.Errorf("HGETALL: %v", got)
	}
	do("XADD", "s", "1-0", "a", "1")
	do("XADD", "s", "2-0", "b", "2")
	x := do("XRANGE", "s", "-", "+")
	if len(x.Elems) != 2 || x.Elems[1].Elems[0].Str != "2-0" || !reflect.DeepEqual(x.Elems[1].Elems[1].Strings(), []string{"b", "2"}) {
		t.Errorf("XRANGE: %+v", x)
	}
	// an error reply: a typed error with Redis's text, the value too
	v, err := p.Do(ctx, "XADD", "s", "1-0", "c", "3")
	var re *Error
	if !errors.As(err, &re) || !strings.Contains(re.Msg, "equal or smaller than the target stream top item") || v.Kind != KindError {
		t.Errorf("XADD of an old entry: %+v, %v", v, err)
	}
	if _, err := p.Do(ctx, "NOSUCHCOMMAND"); !errors.As(err, &re) || re.Prefix() != "ERR" {
		t.Errorf("unknown command: %v", err)
	}
	// a pipeline: one reply a command, errors among them
	cmds := [][]string{{"INCR", "n"}, {"INCR", "n"}, {"HGET", "k", "x"}, {"INCR", "n"}}
	vs, err := p.Pipeline(ctx, cmds)
	if err != nil || len(vs) != 4 || vs[1].Int != 2 || vs[2].Kind != KindError || !strings.HasPrefix(vs[2].Str, "WRONGTYPE") || vs[3].Int != 3 {
		t.Errorf("pipeline: %+v, %v", vs, err)
	}
	// a large pipeline, written in several pieces
	big := make([][]string, 20000)
	for i := range big {
		big[i] = []string{"SADD", "set", strconv.Itoa(i)}
	}
	if vs, err := p.Pipeline(ctx, big); err != nil || len(vs) != len(big) {
		t.Fatalf("pipeline of %d: %d replies, %v", len(big), len(vs), err)
	}
	if n, _ := do("SCARD", "set").Integer(); n != 20000 {
		t.Errorf("SCARD = %d", n)
	}
}

// TestPoolAuth: a password alone, as requirepass wants it, and a user and
// password, as an ACL user wants them; a wrong one is Redis's refusal.
func TestPoolAuth(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	none := NewPool(srv.Addr(), Options{})
	defer none.Close()
	if _, err := none.Do(ctx, "CONFIG", "SET", "requirepass", "s3cret"); err != nil {
		t.Fatal(err)
	}
	// a connection made since the password was set must give it
	other := NewPool(srv.Addr(), Options{})
	defer other.Close()
	if _, err := other.Do(ctx, "PING"); err == nil || !strings.HasPrefix(err.Error(), "NOAUTH") {
		t.Errorf("no password: %v, want NOAUTH", err)
	}
	p := NewPool(srv.Addr(), Options{Password: "s3cret"})
	defer p.Close()
	if v, err := p.Do(ctx, "PING"); err != nil || v.Str != "PONG" {
		t.Fatalf("password: %+v %v", v, err)
	}
	if _, err := p.Do(ctx, "ACL", "SETUSER", "pcp", "on", ">pw", "~*", "+@all"); err != nil {
		t.Fatal(err)
	}
	u := NewPool(srv.Addr(), Options{Username: "pcp", Password: "pw"})
	defer u.Close()
	if v, err := u.Do(ctx, "ACL", "WHOAMI"); err != nil || v.Str != "pcp" {
		t.Errorf("user: %+v %v", v, err)
	}
	wrong := NewPool(srv.Addr(), Options{Username: "pcp", Password: "wrong"})
	defer wrong.Close()
	_, err := wrong.Do(ctx, "PING")
	if re, ok := ReplyError(err); !ok || re.Prefix() != "WRONGPASS" {
		t.Errorf("wrong password: %v", err)
	}
}

// TestPoolCancelAndBound: cancelling a call's context ends it at once
// (a BLPOP that would wait for ever), and a call beyond MaxConns waits
// for a connection only within its context.
func TestPoolCancelAndBound(t *testing.T) {
	srv := redistest.Start(t)
	p := NewPool(srv.Addr(), Options{MaxConns: 1})
	defer p.Close()
	watch := NewPool(srv.Addr(), Options{})
	defer watch.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var err error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, err = p.Do(ctx, "BLPOP", "never", "0")
	}()
	// wait (bounded) until Redis has the BLPOP blocked
	for i := 0; ; i++ {
		v, err := watch.Do(context.Background(), "CLIENT", "LIST")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(v.Str, "cmd=blpop") {
			break
		}
		if i == 10000 {
			t.Fatal("the BLPOP never reached Redis")
		}
	}
	// the one connection is held: another call waits for it, and gives
	// up when its own context ends
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err2 := p.Do(ctx2, "PING"); !errors.Is(err2, context.Canceled) {
		t.Errorf("call waiting for a connection: %v", err2)
	}
	cancel()
	wg.Wait()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled BLPOP: %v", err)
	}
	// the connection was broken by the cancel; the pool dials anew
	if v, err := p.Do(context.Background(), "PING"); err != nil || v.Str != "PONG" {
		t.Errorf("after the cancel: %+v %v", v, err)
	}
}

// TestPoolServerRestarted: a kept connection the server closed is
// replaced on the next call, which succeeds.
func TestPoolServerRestarted(t *testing.T) {
	srv := redistest.Start(t)
	p := NewPool(srv.Addr(), Options{})
	defer p.Close()
	ctx := context.Background()
	if _, err := p.Do(ctx, "SET", "a", "1"); err != nil {
		t.Fatal(err)
	}
	srv.Restart()
	if v, err := p.Do(ctx, "PING"); err != nil || v.Str != "PONG" {
		t.Fatalf("after a restart: %+v %v", v, err)
	}
	srv.Stop()
	if _, err := p.Do(ctx, "PING"); err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("server down: %v, want connection refused", err)
	}
	p.Close()
	if _, err := p.Do(ctx, "PING"); !errors.Is(err, ErrClosed) {
		t.Errorf("closed pool: %v", err)
	}
}

// TestPoolNoResend: with NoResend a kept connection the server closed
// fails the call that found it so (libpcp_web's rule: nothing sent
// again); the broken connection is dropped, so a later call dials anew.
func TestPoolNoResend(t *testing.T) {
	srv := redistest.Start(t)
	p := NewPool(srv.Addr(), Options{NoResend: true})
	defer p.Close()
	ctx := context.Background()
	if _, err := p.Do(ctx, "PING"); err != nil {
		t.Fatal(err)
	}
	srv.Restart()
	if v, err := p.Do(ctx, "PING"); err == nil {
		t.Fatalf("after a restart: %+v, want the closed connection's failure", v)
	}
	if v, err := p.Do(ctx, "PING"); err != nil || v.Str != "PONG" {
		t.Errorf("the call after: %+v %v", v, err)
	}
}
