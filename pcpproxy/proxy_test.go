package pcpproxy

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

func TestReadTarget(t *testing.T) {
	for _, c := range []struct {
		in   string
		host string
		port int
		ok   bool
	}{
		{"localhost 44321\n", "localhost", 44321, true},
		{"10.0.0.1 1\nextra", "10.0.0.1", 1, true},
		{"localhost\n", "", 0, false},
		{"a b c\n", "", 0, false},
		{"host 99999\n", "", 0, false},
		{"host 12x\n", "", 0, false},
		{"host 1", "", 0, false},
		{strings.Repeat("x", 2000) + " 1\n", "", 0, false},
	} {
		h, p, err := readTarget(bufio.NewReader(strings.NewReader(c.in)))
		if (err == nil) != c.ok || h != c.host || p != c.port {
			t.Errorf("readTarget(%.20q) = %q %d %v", c.in, h, p, err)
		}
	}
}

// TestHandleRelays runs the handshake against a fake pmcd and checks the
// bytes sent before the target line's end reach it, and its answer comes
// back.
func TestHandleRelays(t *testing.T) {
	pmcd, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pmcd.Close()
	go func() {
		c, err := pmcd.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		b := make([]byte, 4)
		if _, err := io.ReadFull(c, b); err == nil {
			_, _ = c.Write([]byte(strings.ToUpper(string(b))))
		}
	}()
	client, server := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- Handle(context.Background(), server, nil, Options{}) }()
	_ = client.SetDeadline(time.Now().Add(30 * time.Second))
	go func() {
		_, _ = io.WriteString(client, ClientHello)
	}()
	hello := make([]byte, len(ServerHello))
	if _, err := io.ReadFull(client, hello); err != nil || string(hello) != ServerHello {
		t.Fatalf("greeting %q %v", hello, err)
	}
	_, port, _ := net.SplitHostPort(pmcd.Addr().String())
	if _, err := io.WriteString(client, "127.0.0.1 "+port+"\nabcd"); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 4)
	if _, err := io.ReadFull(client, got); err != nil || string(got) != "ABCD" {
		t.Fatalf("relayed %q %v", got, err)
	}
	client.Close()
	if err := <-done; err != nil {
		t.Errorf("Handle: %v", err)
	}
}

func TestHandleBadGreeting(t *testing.T) {
	client, server := net.Pipe()
	go func() { _, _ = io.WriteString(client, "GET / HTTP/1.1\r\n\r\n"); client.Close() }()
	err := Handle(context.Background(), server, nil, Options{HandshakeTimeout: 5 * time.Second})
	var he *HandshakeError
	if !errors.As(err, &he) {
		t.Fatalf("Handle = %v, want a HandshakeError", err)
	}
}

func FuzzReadTarget(f *testing.F) {
	f.Add("localhost 44321\n")
	f.Add("a  b\n")
	f.Fuzz(func(t *testing.T, s string) {
		h, p, err := readTarget(bufio.NewReader(strings.NewReader(s)))
		if err == nil && (h == "" || p < 0 || p > 65535) {
			t.Fatalf("accepted %q as %q %d", s, h, p)
		}
	})
}
