package resp

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"testing"
)

// fake is a server answering each command with answer's RESP.
func fake(t *testing.T, answer func(addr string, args []string) string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer nc.Close()
				rd := NewReader(bufio.NewReader(nc), Limits{})
				for {
					v, err := rd.Read()
					if err != nil {
						return
					}
					if _, err := nc.Write([]byte(answer(addr, v.Strings()))); err != nil {
						return
					}
				}
			}()
		}
	}()
	return addr
}

func slotsReply(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	return "*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$" + strconv.Itoa(len(host)) + "\r\n" + host + "\r\n:" + port + "\r\n"
}

// TestClusterRedirectBound: a node that redirects for ever ends the call
// with ErrRedirects after MaxRedirects tries; TRYAGAIN is tried again.
func TestClusterRedirectBound(t *testing.T) {
	var mu sync.Mutex
	tries := 0
	addr := fake(t, func(addr string, a []string) string {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case len(a) == 2 && a[0] == "CLUSTER":
			return slotsReply(addr)
		case a[0] == "GET":
			tries++
			return "-MOVED 1 " + addr + "\r\n"
		case a[0] == "SET":
			tries++
			if tries < 3 {
				return "-TRYAGAIN Multiple keys request during rehashing of slot\r\n"
			}
			return "+OK\r\n"
		}
		return "-ERR unknown\r\n"
	})
	c := NewCluster([]string{addr}, Options{MaxRedirects: 4})
	defer c.Close()
	_, err := c.Do(context.Background(), "GET", "k")
	var re *Error
	if !errors.Is(err, ErrRedirects) || !errors.As(err, &re) || re.Prefix() != "MOVED" || tries != 5 {
		t.Errorf("redirected for ever: %v after %d tries, want ErrRedirects after 5", err, tries)
	}
	tries = 0
	if v, err := c.Do(context.Background(), "SET", "k", "v"); err != nil || v.Str != "OK" || tries != 3 {
		t.Errorf("TRYAGAIN twice: %+v %v after %d tries", v, err, tries)
	}
}

// TestMalformedReplyEndsConnection: a reply that breaks RESP is
// ErrProtocol and the connection is not used again.
func TestMalformedReplyEndsConnection(t *testing.T) {
	addr := fake(t, func(_ string, a []string) string {
		if a[0] == "PING" {
			return "+PONG\r\n"
		}
		return "*1\r\n?what\r\n"
	})
	p := NewPool(addr, Options{MaxConns: 1})
	defer p.Close()
	ctx := context.Background()
	if _, err := p.Do(ctx, "GET", "x"); !errors.Is(err, ErrProtocol) {
		t.Fatalf("malformed reply: %v", err)
	}
	if v, err := p.Do(ctx, "PING"); err != nil || v.Str != "PONG" {
		t.Fatalf("next call: %+v %v", v, err)
	}
}
