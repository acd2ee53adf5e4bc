package tlsrelay_test

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/goroutines"
	"github.com/gopcp/gopcp/internal/testing/tlstest"
	"github.com/gopcp/gopcp/pmproxy/tlsrelay"
)

// TestLoadFailures: each setup PCP's pmproxy ends on gives the line it
// logs (cmd/pmproxy's TestTLSLikePCP compares them with PCP's own).
func TestLoadFailures(t *testing.T) {
	f := tlstest.Certs(t)
	v := tlsrelay.Version()
	for _, c := range []struct {
		files tlsrelay.Files
		want  string
	}{
		{tlsrelay.Files{KeyFile: f.Key}, "Info: " + v + " - no certificate file found"},
		{tlsrelay.Files{CertFile: f.Cert}, "Info: " + v + " - no private key found"},
		{tlsrelay.Files{CertFile: "/nonexistent", KeyFile: f.Key}, "Error: Cannot load certificate chain from /nonexistent"},
		{tlsrelay.Files{CertFile: f.Key, KeyFile: f.Key}, "Error: Cannot load certificate chain from " + f.Key},
		{tlsrelay.Files{CertFile: f.Cert, KeyFile: f.Cert}, "Error: Cannot load private key from " + f.Cert},
		{tlsrelay.Files{CertFile: f.Cert, KeyFile: f.OtherKey}, "Error: Cannot load private key from " + f.OtherKey},
		{tlsrelay.Files{CertFile: f.Cert, KeyFile: f.Key, CAFile: f.Key}, "Error: Cannot load the client CA list from " + f.Key},
		{tlsrelay.Files{CertFile: f.Cert, KeyFile: f.Key, Ciphers: "NOSUCH:MEDIUM"}, "Error: Cannot set the cipher list from NOSUCH:MEDIUM"},
		{tlsrelay.Files{CertFile: f.Cert, KeyFile: f.Key, CipherSuites: "NOSUCH:TLS_AES_128_GCM_SHA25"}, "Error: Cannot set the cipher suites from NOSUCH:TLS_AES_128_GCM_SHA25"},
	} {
		_, _, err := tlsrelay.Load(c.files)
		if err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v, want %q", c.files, err, c.want)
		}
	}
	if _, _, err := tlsrelay.Load(tlsrelay.Files{CertFile: f.Cert, KeyFile: f.Key, CAFile: f.CA, Ciphers: "HIGH:!aNULL", CipherSuites: "TLS_AES_256_GCM_SHA384:NOSUCH"}); err != nil {
		t.Errorf("good files: %v", err)
	}
}

// TestCipherList: OpenSSL cipher strings read for crypto/tls's suites.
func TestCipherList(t *testing.T) {
	all := len(tlsrelay.CipherList("ALL"))
	for _, c := range []struct {
		s    string
		want []uint16
	}{
		{"ECDHE-ECDSA-AES128-GCM-SHA256", []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}},
		{"ECDHE+AESGCM:!aRSA", []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384}},
		{"CHACHA20 , -aECDSA", []uint16{tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256}},
		{"!kRSA:AES256-SHA:ECDHE-RSA-AES256-SHA", []uint16{tls.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA}},
		{"MEDIUM:LOW:NOSUCH:@SECLEVEL=2", nil},
	} {
		if got := tlsrelay.CipherList(c.s); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v, want %v", c.s, got, c.want)
		}
	}
	if n := len(tlsrelay.CipherList("DEFAULT:HIGH")); n != all || all == 0 {
		t.Errorf("DEFAULT:HIGH %d suites, ALL %d", n, all)
	}
}

// FuzzCipherList reads cipher lists and TLS 1.3 suite lists.
func FuzzCipherList(f *testing.F) {
	for _, s := range []string{"HIGH:!aNULL", "ECDHE+AESGCM:-aRSA", "DEFAULT:@SECLEVEL=1", "!!:+:,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seen := map[uint16]bool{}
		for _, id := range tlsrelay.CipherList(s) {
			if seen[id] {
				t.Fatalf("%q: suite %#x twice", s, id)
			}
			seen[id] = true
		}
		if named, all, ok := tlsrelay.CipherSuites(s); !ok && (named != 0 || all) || named > 3 || all != (named == 3) {
			t.Fatalf("%q: suites %d %v %v", s, named, all, ok)
		}
	})
}

// TestServe relays one TLS connection handed over a control socket as
// pmproxy hands it (its first byte read, the descriptors attached), and
// ends with every goroutine once the control socket is closed, the
// connection still open.
func TestServe(t *testing.T) {
	f := tlstest.Certs(t)
	cfg, _, err := tlsrelay.Load(tlsrelay.Files{CertFile: f.Cert, KeyFile: f.Key})
	if err != nil {
		t.Fatal(err)
	}
	ctrlFDs, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	ours, theirs := fileConn(t, ctrlFDs[0]), fileConn(t, ctrlFDs[1])
	done := make(chan error, 1)
	go func() { done <- tlsrelay.Serve(theirs.(*net.UnixConn), cfg, tlsrelay.Options{}) }()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client := make(chan net.Conn, 1)
	go func() {
		c, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{RootCAs: f.Pool, ServerName: "localhost"})
		if err != nil {
			t.Error(err)
			close(client)
			return
		}
		client <- c
	}()
	accepted, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	var first [1]byte
	if _, err := io.ReadFull(accepted, first[:]); err != nil {
		t.Fatal(err)
	}
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := accepted.(*net.TCPConn).File()
	_, _, err = ours.(*net.UnixConn).WriteMsgUnix(first[:], syscall.UnixRights(int(raw.Fd()), pair[1]), nil)
	raw.Close()
	accepted.Close()
	syscall.Close(pair[1])
	if err != nil {
		t.Fatal(err)
	}
	plain := fileConn(t, pair[0])
	defer plain.Close()
	c := <-client
	if c == nil {
		return
	}
	defer c.Close()
	go io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	req, err := http.ReadRequest(bufio.NewReader(plain))
	if err != nil {
		t.Fatalf("plaintext: %v", err)
	}
	if req.Method != "GET" {
		t.Errorf("plaintext request %v", req)
	}
	io.WriteString(plain, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("over TLS: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "ok" {
		t.Errorf("over TLS: %q", b)
	}

	ours.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Serve did not return once its control socket closed")
	}
	if left := goroutines.Left("github.com/gopcp/gopcp/pmproxy/tlsrelay."); len(left) > 0 {
		t.Errorf("goroutines left:\n%s", strings.Join(left, "\n\n"))
	}
	// the relayed connection ended with Serve
	_ = c.SetReadDeadline(time.Now().Add(time.Minute))
	if n, err := c.Read(make([]byte, 1)); err == nil {
		t.Errorf("client read %d bytes after Serve ended", n)
	}
}

func fileConn(t *testing.T, fd int) net.Conn {
	t.Helper()
	f := os.NewFile(uintptr(fd), "socket")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestLoadCADir: a directory of authorities (tls-ca-cert-dir) is read
// by its name, even one a pattern would misread, for its regular files
// (symbolic links followed) named as c_rehash names them, the only ones
// OpenSSL reads there (cmd/pmproxy's TestTLSLikePCP compares PCP's); a
// FIFO is passed over, not waited on.
func TestLoadCADir(t *testing.T) {
	f := tlstest.Certs(t)
	for _, c := range []struct {
		name string
		fifo bool
		want *x509.CertPool
	}{
		{"0123abcd.0", true, f.Pool},
		{"ca.pem", false, x509.NewCertPool()},
		{"0123ABCD.0", false, x509.NewCertPool()},
		{"0123abcd.r0", false, x509.NewCertPool()},
	} {
		dir := filepath.Join(t.TempDir(), "ca[1]")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(f.CA, filepath.Join(dir, c.name)); err != nil {
			t.Fatal(err)
		}
		if c.fifo {
			if err := syscall.Mkfifo(filepath.Join(dir, "89abcdef.0"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cfg, _, err := tlsrelay.Load(tlsrelay.Files{CertFile: f.Cert, KeyFile: f.Key, CADir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if !cfg.ClientCAs.Equal(c.want) {
			t.Errorf("%s: the authorities taken are not the expected", c.name)
		}
	}
}
