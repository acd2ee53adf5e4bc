package pmapi

import (
	"crypto/sha1"
	"crypto/sha256"
	"errors"
	"hash"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDigestMD5RFC2831 checks the response and rspauth against RFC 2831's
// example (section 4).
func TestDigestMD5RFC2831(t *testing.T) {
	m := &digestMD5{c: saslCreds{user: "chris", pass: "secret", host: "elwood.innosoft.com"}, cnonce: "OA6MHXh6VqTrRk"}
	out, done, err := m.step([]byte(`realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth",algorithm=md5-sess,charset=utf-8`))
	if err != nil || done {
		t.Fatalf("step 1: done %v, err %v", done, err)
	}
	// the RFC's example digests the URI imap/elwood.innosoft.com
	got := string(out)
	for _, want := range []string{`username="chris"`, `realm="elwood.innosoft.com"`, `nonce="OA6MG9tEQGm2hh"`, `cnonce="OA6MHXh6VqTrRk"`, `nc=00000001`, `qop=auth`, `charset=utf-8`, `digest-uri="PCP Collector/elwood.innosoft.com"`} {
		if !strings.Contains(got, want) {
			t.Errorf("response %q lacks %s", got, want)
		}
	}
	resp, rsp := digestResponse("chris", "elwood.innosoft.com", "secret", "OA6MG9tEQGm2hh", "OA6MHXh6VqTrRk", "imap/elwood.innosoft.com")
	if resp != "d388dad90d4bbd760a152321f2143af7" || rsp != "ea40f60335c427b5527b84dbabcdfffd" {
		t.Errorf("RFC 2831 example: response %s rspauth %s", resp, rsp)
	}
}

// TestSCRAMVectors runs RFC 5802's SCRAM-SHA-1 and RFC 7677's
// SCRAM-SHA-256 examples (which send no authorization identity: "n,,").
func TestSCRAMVectors(t *testing.T) {
	cases := []struct {
		name                             string
		new                              func() hash.Hash
		nonce, first, final, serverFinal string
	}{
		{"SCRAM-SHA-1", sha1.New, "fyko+d2lbbFgONRv9qkxdawL",
			"r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096",
			"c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=",
			"v=rmF9pqV8S7suAoZWja4dJRkFsKQ="},
		{"SCRAM-SHA-256", sha256.New, "rOprNGfwEbeRWgbNEkqO",
			"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",
			"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
			"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &scram{c: saslCreds{user: "user", pass: "pencil"}, hash: c.new, nonce: c.nonce}
			out, done, err := m.start()
			if want := "n,a=user,n=user,r=" + c.nonce; string(out) != want || done || err != nil {
				t.Fatalf("start: %q %v %v, want %q (Cyrus names the authorization identity)", out, done, err, want)
			}
			m.gs2 = "n,," // as the RFCs' examples
			out, done, err = m.step([]byte(c.first))
			if string(out) != c.final || done || err != nil {
				t.Fatalf("client-final %q %v %v, want %q", out, done, err, c.final)
			}
			out, done, err = m.step([]byte(c.serverFinal))
			if len(out) != 0 || !done || err != nil {
				t.Fatalf("server-final: %q %v %v", out, done, err)
			}
		})
	}
	// a server that does not know the password
	m := &scram{c: saslCreds{user: "user", pass: "pencil"}, hash: sha256.New, nonce: cases[1].nonce}
	m.start()
	m.gs2 = "n,,"
	m.step([]byte(cases[1].first))
	if _, _, err := m.step([]byte("v=" + strings.Repeat("A", 43) + "=")); !errors.Is(err, saslError(saslBadAuth)) {
		t.Errorf("wrong server signature: %v, want SASL_BADAUTH", err)
	}
}

// TestSCRAMServerFirstRefused: the server-first-messages Cyrus SASL
// refuses, each SASL_BADPROT.
func TestSCRAMServerFirstRefused(t *testing.T) {
	const ours = "abcdefgh"
	for _, in := range []string{
		"", "r=", "m=ext,r=abcdefghX,s=QSXC,i=1", "s=QSXC,r=abcdefghX,i=1",
		"r=abcdefghX", "r=abcdefghX,i=1,s=QSXC", "r=abcdefghX,s=QSXC", "r=abcdefghX,s=QSXC,i=x",
		"r=abcdefghX,s=QSXC,i=65537", "r=abcdefghX,s=,i=1", "r=abcdefghX,s=QSX,i=1", "r=abcdefghX,s=Q!XC,i=1",
		"r=abcdefgh,s=QSXC,i=1", "r=zbcdefghX,s=QSXC,i=1", "r=abcdefghX\x00,s=QSXC,i=1",
	} {
		m := &scram{c: saslCreds{user: "u", pass: "p"}, hash: sha256.New, nonce: ours}
		m.start()
		if _, _, err := m.step([]byte(in)); !errors.Is(err, saslError(saslBadProt)) {
			t.Errorf("%q: %v, want SASL_BADPROT", in, err)
		}
	}
	m := &scram{c: saslCreds{user: "u", pass: "p"}, hash: sha256.New, nonce: ours}
	m.start()
	if _, _, err := m.step([]byte("r=abcdefghX,s=QSXC,i=65536,ext=1")); err != nil {
		t.Errorf("iteration count at the limit, with an extension: %v", err)
	}
}

// TestCRAMMD5RFC2195 checks RFC 2195's example.
func TestCRAMMD5RFC2195(t *testing.T) {
	m := newCRAMMD5(saslCreds{user: "tim", pass: "tanstaaftanstaaf"})
	if out, done, err := m.start(); out != nil || done || err != nil {
		t.Fatalf("start: %q %v %v", out, done, err)
	}
	out, done, err := m.step([]byte("<1896.697170952@postoffice.reston.mci.net>"))
	if string(out) != "tim b913a602c7eda7a495b4e6e7334d3890" || !done || err != nil {
		t.Errorf("response %q %v %v", out, done, err)
	}
	if _, _, err := m.step(nil); !errors.Is(err, saslError(saslBadProt)) {
		t.Errorf("a second challenge: %v", err)
	}
}

// TestPlainLogin checks what PLAIN and LOGIN send, as Cyrus's clients
// send it for libpcp (captured from PCP's pminfo with -D auth,pdu).
func TestPlainLogin(t *testing.T) {
	c := saslCreds{user: "nobody", pass: "secret1"}
	out, done, err := newPlain(c).start()
	if string(out) != "nobody\x00nobody\x00secret1" || !done || err != nil {
		t.Errorf("PLAIN: %q %v %v", out, done, err)
	}
	m := newLogin(c)
	if out, done, err := m.start(); out != nil || done || err != nil {
		t.Errorf("LOGIN start: %q %v %v", out, done, err)
	}
	for i, want := range []string{"nobody", "secret1"} {
		out, done, err := m.step([]byte("Username:"))
		if string(out) != want || done != (i == 1) || err != nil {
			t.Errorf("LOGIN step %d: %q %v %v", i+1, out, done, err)
		}
	}
}

// TestChooseMechanism: Cyrus SASL's choice from a list, whatever its
// order, case and separators; -PLUS names and unknown ones are passed
// over; nothing in common is SASL_NOMECH.
func TestChooseMechanism(t *testing.T) {
	for list, want := range map[string]string{
		"PLAIN LOGIN SCRAM-SHA-256":          "SCRAM-SHA-256",
		"plain login":                        "PLAIN",
		"login,plain":                        "PLAIN",
		"CRAM-MD5 DIGEST-MD5 PLAIN":          "DIGEST-MD5",
		"scram-sha-1  scram-sha-256":         "SCRAM-SHA-256",
		"SCRAM-SHA-256-PLUS SCRAM-SHA-1":     "SCRAM-SHA-1",
		"GSSAPI NTLM LOGIN":                  "LOGIN",
		"SCRAM-SHA-512 SCRAM-SHA-384 PLAIN":  "SCRAM-SHA-512",
		"PLAINX PLAI PLAIN":                  "PLAIN",
		"digest-md5;cram-md5":                "DIGEST-MD5",
		"SCRAM-SHA-224 SCRAM-SHA-1 CRAM-MD5": "SCRAM-SHA-224",
	} {
		if got, _, err := chooseMechanism(list); got != want || err != nil {
			t.Errorf("%q: %q %v, want %q", list, got, err, want)
		}
	}
	for _, list := range []string{"", " ", "GSSAPI", "SCRAM-SHA-256-PLUS", "PLAINX"} {
		if got, _, err := chooseMechanism(list); !errors.Is(err, saslError(saslNoMech)) {
			t.Errorf("%q: %q %v, want SASL_NOMECH", list, got, err)
		}
	}
}

// TestCanonUser follows Cyrus SASL's canonicalization, refusal rule
// included.
func TestCanonUser(t *testing.T) {
	for in, want := range map[string]struct {
		user string
		ok   bool
	}{
		"": {"", false}, " ": {"", true}, "  ": {"", true}, "a": {"a", true},
		" a ": {"a", false}, " ab ": {"ab", true}, "  ab": {"ab", false}, "\tab\n": {"ab", true}, "a b": {"a b", true},
	} {
		if u, ok := canonUser(in); u != want.user || ok != want.ok {
			t.Errorf("%q: %q %v, want %q %v", in, u, ok, want.user, want.ok)
		}
	}
}

// TestAskConsole reads answers as libpcp's console prompt does: one
// line, at most 254 bytes, one trailing newline or carriage return dropped
// unless it is the whole line; a regular file named as the console is
// emptied before it is read, as libpcp opens it for the prompt too;
// "none" and a console that does not open are no answer.
func TestAskConsole(t *testing.T) {
	for in, want := range map[string]string{
		"abc\n": "abc", "abc": "abc", "a b\nsecond\n": "a b", "x\r\n": "x\r", "x\r": "x",
		"\n": "\n", "": "", strings.Repeat("y", 300): strings.Repeat("y", maxConsoleLine),
	} {
		if got := readConsoleLine(strings.NewReader(in)); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "console")
	if err := os.WriteFile(path, []byte("user\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, ok := askConsole(path, "Username: ", false); got != "" || !ok {
		t.Errorf("file console: %q %v, want an empty answer", got, ok)
	}
	for _, path := range []string{"", "none", filepath.Join(dir, "nosuch", "x")} {
		if got, ok := askConsole(path, "Username: ", false); ok {
			t.Errorf("%q: answered %q", path, got)
		}
	}
}
