package pmapi

import (
	"bytes"
	"context"
	"crypto/sha1"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// scriptStep is one thing a fake pmcd does: send a PDU, or read one of
// the client's AUTH PDUs (recording its payload).
type scriptStep struct {
	send pdu.Message
	read bool
}

func authBytes(s string) scriptStep {
	return scriptStep{send: &pdu.Attr{Key: pdu.AttrNone, Value: []byte(s)}}
}

// runScript plays script as pmcd against authenticate and returns what
// the client sent and authenticate's answer.
func runScript(t *testing.T, spec string, script []scriptStep) ([]string, error) {
	t.Helper()
	hs, err := ParseHostSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	client, server := net.Pipe()
	defer client.Close()
	sent := make(chan []string, 1)
	go func() {
		defer server.Close()
		var got []string
		defer func() { sent <- got }()
		r := pdu.NewReader(server, 5*time.Second)
		w := pdu.NewWriter(server)
		for _, s := range script {
			if s.read {
				b, err := r.ReadPDU(context.Background())
				if err != nil {
					return
				}
				var m pdu.Attr
				if err := m.Decode(b); err != nil || m.Key != pdu.AttrNone {
					got = append(got, "bad PDU")
					return
				}
				h, _ := pdu.ParseHeader(b)
				if h.From != 0 {
					got = append(got, "not FROM_ANON")
				}
				got = append(got, string(m.Value))
				continue
			}
			if err := w.WriteMessage(context.Background(), s.send, 0); err != nil {
				return
			}
		}
	}()
	_, _, err = authenticate(context.Background(), client, 5*time.Second, hs, "host.example", "")
	client.Close()
	return <-sent, err
}

// TestAuthExchange plays pmcd's side of the exchange: what the client
// sends for each mechanism, and how it ends on pmcd's refusals and on
// malformed input.
func TestAuthExchange(t *testing.T) {
	read := scriptStep{read: true}
	cases := []struct {
		name    string
		spec    string
		script  []scriptStep
		want    []string
		wantErr error
	}{
		{"plain", "h?username=u&password=p", []scriptStep{authBytes("PLAIN LOGIN"), read},
			[]string{"PLAIN\x00u\x00u\x00p"}, nil},
		{"login", "h?username=u&password=p&method=login", []scriptStep{authBytes("PLAIN LOGIN"), read, authBytes("Username:"), read, authBytes("Password:"), read},
			[]string{"LOGIN\x00", "u", "p"}, nil},
		{"refused at once", "h?username=u", []scriptStep{{send: &pdu.Error{Code: int32(pcp.ErrPermission)}}},
			nil, pcp.ErrPermission},
		{"refused after the choice", "h?username=u&method=login", []scriptStep{authBytes("LOGIN"), read, {send: &pdu.Error{Code: int32(saslError(saslBadAuth))}}},
			[]string{"LOGIN\x00"}, saslError(saslBadAuth)},
		{"another PDU", "h?username=u", []scriptStep{{send: pdu.VersionCreds(0)}}, nil, pcp.ErrIPC},
		{"list too long", "h?username=u", []scriptStep{authBytes("PLAIN " + strings.Repeat("X", pdu.MaxAuthLen))}, nil, pcp.ErrIPC},
		{"closed", "h?username=u&method=login", []scriptStep{authBytes("LOGIN"), read}, []string{"LOGIN\x00"}, pcp.ErrIPC},
		{"nothing in common", "h?username=u", []scriptStep{authBytes("GSSAPI")}, nil, saslError(saslNoMech)},
		{"no user name", "h?password=p", []scriptStep{authBytes("PLAIN")}, nil, saslError(saslBadParam)},
		{"bad SCRAM challenge", "h?username=u&password=p", []scriptStep{authBytes("SCRAM-SHA-256"), read, authBytes("s=abcd,r=x,i=1")},
			nil, saslError(saslBadProt)},
		{"bad DIGEST-MD5 challenge", "h?username=u&password=p", []scriptStep{authBytes("DIGEST-MD5"), read, authBytes(`nonce="a",nonce="b",algorithm=md5-sess`)},
			[]string{"DIGEST-MD5\x00"}, saslError(saslBadProt)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := runScript(t, c.spec, c.script)
			if c.wantErr == nil && err != nil || c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("error %v, want %v", err, c.wantErr)
			}
			if c.want != nil && strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("client sent %q, want %q", got, c.want)
			}
		})
	}
}

// TestAuthSCRAMSent: the client-first-message names the user twice
// (authorization identity and user name) after the mechanism and NUL.
func TestAuthSCRAMSent(t *testing.T) {
	got, _ := runScript(t, "h?username=a,b=c&password=p", []scriptStep{authBytes("PLAIN SCRAM-SHA-256"), {read: true}})
	if len(got) != 1 || !strings.HasPrefix(got[0], "SCRAM-SHA-256\x00n,a=a=2Cb=3Dc,n=a=2Cb=3Dc,r=") || len(got[0]) != len("SCRAM-SHA-256\x00n,a=a=2Cb=3Dc,n=a=2Cb=3Dc,r=")+scramNonceLen {
		t.Errorf("sent %q", got)
	}
}

// fuzzConn is a connection whose peer's bytes are given.
type fuzzConn struct {
	io.Reader
	io.Writer
}

// FuzzAuthenticate feeds arbitrary bytes as pmcd's side of the exchange
// (the mechanism list and every challenge are input): it must end with
// an answer, never a panic or an endless exchange.
func FuzzAuthenticate(f *testing.F) {
	pdus := func(vals ...string) []byte {
		var b []byte
		for _, v := range vals {
			b = (&pdu.Attr{Value: []byte(v)}).Append(b, 0)
		}
		return b
	}
	f.Add(pdus("LOGIN", "Username:", "Password:"), "")
	f.Add(pdus("SCRAM-SHA-1", "r=XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXYY,s=QSXCR+Q6sek8bf92,i=16", "v=rmF9pqV8S7suAoZWja4dJRkFsKQ="), "")
	f.Add(pdus("DIGEST-MD5", `realm="r",nonce="n",qop="auth",charset=utf-8,algorithm=md5-sess`, "rspauth=0"), "")
	f.Add(pdus("CRAM-MD5", "<1.2@h>"), "")
	f.Add(pdus("PLAIN"), "login")
	f.Add((&pdu.Error{Code: -12345}).Append(nil, 0), "")
	f.Fuzz(func(t *testing.T, in []byte, method string) {
		spec := "h?username=u&password=p"
		if method != "" {
			spec += "&method=" + urlEncode(method)
		}
		hs, err := ParseHostSpec(spec)
		if err != nil {
			return
		}
		var out bytes.Buffer
		authenticate(context.Background(), fuzzConn{bytes.NewReader(in), &out}, 0, hs, "h", "")
	})
}

// FuzzDigestChallenge: any challenge is answered or refused with
// SASL_BADPROT or SASL_BADPARAM, and any second message verified or
// refused.
func FuzzDigestChallenge(f *testing.F) {
	f.Add([]byte(`realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth",algorithm=md5-sess,charset=utf-8`), []byte("rspauth=x"))
	f.Add([]byte(`nonce="a\"b",realm="x",realm="y",algorithm=md5-sess`), []byte(`rspauth="`))
	f.Fuzz(func(t *testing.T, challenge, final []byte) {
		m := newDigestMD5(saslCreds{user: "u", pass: "p", host: "h"})
		out, _, err := m.step(challenge)
		if err != nil {
			if !errors.Is(err, saslError(saslBadProt)) && !errors.Is(err, saslError(saslBadParam)) {
				t.Fatalf("%q: %v", challenge, err)
			}
			return
		}
		if len(out) == 0 {
			t.Fatalf("%q: empty response", challenge)
		}
		m.step(final)
	})
}

// FuzzSCRAM: any server-first and server-final messages, for a client
// whose nonce the input can match, end in an answer or SASL_BADPROT /
// SASL_BADAUTH, never a panic; iteration counts stay bounded.
func FuzzSCRAM(f *testing.F) {
	f.Add([]byte("r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096"), []byte("v=rmF9pqV8S7suAoZWja4dJRkFsKQ="))
	f.Add([]byte("r=fyko+d2lbbFgONRv9qkxdawLX,s=QSXC,i=1,x=y"), []byte("v=,e=x"))
	f.Fuzz(func(t *testing.T, first, final []byte) {
		m := &scram{c: saslCreds{user: "user", pass: "pencil"}, hash: sha1.New, nonce: "fyko+d2lbbFgONRv9qkxdawL"}
		m.start()
		if _, _, err := m.step(first); err != nil {
			if !errors.Is(err, saslError(saslBadProt)) {
				t.Fatalf("%q: %v", first, err)
			}
			return
		}
		if _, _, err := m.step(final); err != nil && !errors.Is(err, saslError(saslBadProt)) && !errors.Is(err, saslError(saslBadAuth)) {
			t.Fatalf("%q: %v", final, err)
		}
	})
}

// TestUnixFailureIsENOENT: libpcp ends any failed unix: attempt with -2,
// "No such file or directory", whatever failed: here a path that is not
// a socket (connect says ECONNREFUSED) and a pmcd that closes at once.
func TestUnixFailureIsENOENT(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/file"
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := dir + "/sock"
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	for _, spec := range []string{"unix:" + file, "unix:" + sock, "unix:" + dir + "/nosuch"} {
		_, err := NewHostContext(context.Background(), spec)
		if !errors.Is(err, pcp.Error(-int32(syscall.ENOENT))) || pcp.TextOf(err) != "No such file or directory" {
			t.Errorf("%s: %v (%q)", spec, err, pcp.TextOf(err))
		}
	}
}
