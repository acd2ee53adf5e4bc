package pmapi

import (
	"bytes"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"hash"
	"strconv"
	"strings"
)

// SCRAM's bounds, Cyrus SASL's: the client's nonce is 32 characters and
// an iteration count over 65536 is refused (it bounds the work a server
// can ask of a client).
const (
	scramNonceLen      = 32
	scramMaxIterations = 0x10000
)

// scram is SCRAM-SHA-* (RFC 5802, RFC 7677) as Cyrus SASL's client does
// it for libpcp: no channel binding ("n"), the user name as the
// authorization identity too ("a="), no SASLprep of the password.
type scram struct {
	c     saslCreds
	hash  func() hash.Hash
	nonce string // ours, then the server's (which begins with ours)
	state int

	gs2, clientFirstBare string
	salted, authMessage  []byte
}

func newSCRAM(h func() hash.Hash, c saslCreds) mechanism {
	return &scram{c: c, hash: h, nonce: randomNonce()}
}

// The SCRAM mechanisms by hash. They are functions, not closures made by
// newSCRAM into package variables, which the package's initialisation
// would build in every program.
func newSCRAM1(c saslCreds) mechanism   { return newSCRAM(sha1.New, c) }
func newSCRAM224(c saslCreds) mechanism { return newSCRAM(sha256.New224, c) }
func newSCRAM256(c saslCreds) mechanism { return newSCRAM(sha256.New, c) }
func newSCRAM384(c saslCreds) mechanism { return newSCRAM(sha512.New384, c) }
func newSCRAM512(c saslCreds) mechanism { return newSCRAM(sha512.New, c) }

// randomNonce is a client nonce of printable characters without ','.
func randomNonce() string {
	b := make([]byte, scramNonceLen*3/4)
	rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

// saslName escapes a name for SCRAM's n= and a= fields.
func saslName(s string) string {
	return strings.NewReplacer("=", "=3D", ",", "=2C").Replace(s)
}

func (m *scram) start() ([]byte, bool, error) {
	m.gs2 = "n,a=" + saslName(m.c.user) + ","
	m.clientFirstBare = "n=" + saslName(m.c.user) + ",r=" + m.nonce
	return []byte(m.gs2 + m.clientFirstBare), false, nil
}

func (m *scram) step(in []byte) ([]byte, bool, error) {
	m.state++
	switch m.state {
	case 1:
		out, err := m.clientFinal(in)
		return out, false, err
	case 2:
		return nil, true, m.verifyServer(in)
	}
	return nil, true, errStepAfterDone()
}

// scramFirst is what a server-first-message holds.
type scramFirst struct {
	nonce      string
	salt       []byte
	iterations int
}

// parseSCRAMFirst reads a server-first-message as Cyrus SASL does: the
// nonce, salt and iteration count in that order (a mandatory extension
// "m=" first is refused), extensions after them ignored.
func parseSCRAMFirst(in []byte) (scramFirst, error) {
	bad := func(why string) (scramFirst, error) {
		return scramFirst{}, fmt.Errorf("SCRAM server-first-message: %s: %w", why, saslError(saslBadProt))
	}
	if len(in) < 3 || in[1] != '=' {
		return bad("malformed")
	}
	if in[0] == 'm' {
		return bad("unsupported mandatory extension")
	}
	if in[0] != 'r' {
		return bad("nonce (r=) expected")
	}
	if bytes.IndexByte(in, 0) >= 0 {
		return bad("NUL in message")
	}
	nonce, rest, ok := strings.Cut(string(in[2:]), ",")
	if !ok || !strings.HasPrefix(rest, "s=") {
		return bad("salt expected after the nonce")
	}
	salt64, rest, ok := strings.Cut(rest[2:], ",")
	if !ok || !strings.HasPrefix(rest, "i=") {
		return bad("iteration count expected after the salt")
	}
	count, _, _ := strings.Cut(rest[2:], ",")
	n, err := strconv.ParseUint(count, 10, 32)
	if err != nil {
		return bad("invalid iteration count")
	}
	if n > scramMaxIterations {
		return bad("iteration count too big")
	}
	if salt64 == "" || len(salt64)%4 != 0 {
		return bad("invalid salt")
	}
	salt, err := base64.StdEncoding.DecodeString(salt64)
	if err != nil {
		return bad("invalid salt")
	}
	return scramFirst{nonce: nonce, salt: salt, iterations: int(n)}, nil
}

func (m *scram) clientFinal(in []byte) ([]byte, error) {
	f, err := parseSCRAMFirst(in)
	if err != nil {
		return nil, err
	}
	if len(f.nonce) <= len(m.nonce) || !strings.HasPrefix(f.nonce, m.nonce) {
		return nil, fmt.Errorf("SCRAM server nonce does not begin with the client's: %w", saslError(saslBadProt))
	}
	m.nonce = f.nonce
	withoutProof := "c=" + base64.StdEncoding.EncodeToString([]byte(m.gs2)) + ",r=" + m.nonce
	m.authMessage = []byte(m.clientFirstBare + "," + string(in) + "," + withoutProof)
	// Cyrus computes Hi's first round even for a count of 0
	m.salted, err = pbkdf2.Key(m.hash, m.c.pass, f.salt, max(f.iterations, 1), m.hash().Size())
	if err != nil {
		return nil, fmt.Errorf("SCRAM: %v: %w", err, saslError(saslFail))
	}
	clientKey := m.hmac(m.salted, []byte("Client Key"))
	h := m.hash()
	h.Write(clientKey)
	sig := m.hmac(h.Sum(nil), m.authMessage)
	for i := range sig {
		sig[i] ^= clientKey[i]
	}
	return []byte(withoutProof + ",p=" + base64.StdEncoding.EncodeToString(sig)), nil
}

// verifyServer checks the server-final-message's signature ("v="): a
// server that cannot prove it knows the password fails the exchange.
func (m *scram) verifyServer(in []byte) error {
	if len(in) < 3 || !bytes.HasPrefix(in, []byte("v=")) {
		return fmt.Errorf("SCRAM server-final-message: server signature expected: %w", saslError(saslBadProt))
	}
	v, _, _ := bytes.Cut(in[2:], []byte(","))
	got, err := base64.StdEncoding.DecodeString(string(v))
	if err != nil || len(got) != m.hash().Size() {
		return fmt.Errorf("SCRAM server-final-message: invalid server signature: %w", saslError(saslBadProt))
	}
	want := m.hmac(m.hmac(m.salted, []byte("Server Key")), m.authMessage)
	if !hmac.Equal(got, want) {
		return fmt.Errorf("SCRAM server signature mismatch: %w", saslError(saslBadAuth))
	}
	return nil
}

func (m *scram) hmac(key, msg []byte) []byte {
	mac := hmac.New(m.hash, key)
	mac.Write(msg)
	return mac.Sum(nil)
}
