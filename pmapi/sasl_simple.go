package pmapi

import (
	"crypto/hmac"
	"crypto/md5"
	"encoding/hex"
	"fmt"
)

// errStepAfterDone is a challenge that comes after the mechanism is
// complete. It is made when that happens, not as a package variable:
// fmt.Errorf at initialisation cost every tool linking pmapi about 1.5%
// of a short run's CPU (perf, pmseries).
func errStepAfterDone() error {
	return fmt.Errorf("challenge after the exchange completed: %w", saslError(saslBadProt))
}

// plain is PLAIN (RFC 4616) as Cyrus SASL's client sends it for libpcp:
// the user name as both the authorization and the authentication
// identity, then the password, NUL separated, all in the initial
// response.
type plain struct{ c saslCreds }

func newPlain(c saslCreds) mechanism { return &plain{c} }

func (m *plain) start() ([]byte, bool, error) {
	out := make([]byte, 0, 2*len(m.c.user)+len(m.c.pass)+2)
	out = append(out, m.c.user...)
	out = append(out, 0)
	out = append(out, m.c.user...)
	out = append(out, 0)
	out = append(out, m.c.pass...)
	return out, true, nil
}

func (m *plain) step([]byte) ([]byte, bool, error) { return nil, true, errStepAfterDone() }

// login is LOGIN: no initial response; the first challenge (whatever it
// says) is answered with the user name, the second with the password.
type login struct {
	c     saslCreds
	state int
}

func newLogin(c saslCreds) mechanism { return &login{c: c} }

func (m *login) start() ([]byte, bool, error) { return nil, false, nil }

func (m *login) step([]byte) ([]byte, bool, error) {
	m.state++
	switch m.state {
	case 1:
		return []byte(m.c.user), false, nil
	case 2:
		return []byte(m.c.pass), true, nil
	}
	return nil, true, errStepAfterDone()
}

// cramMD5 is CRAM-MD5 (RFC 2195): the server's challenge is answered
// with the user name and the hex HMAC-MD5 of the challenge keyed by the
// password. Cyrus refuses a challenge over 1024 bytes.
type cramMD5 struct {
	c    saslCreds
	done bool
}

func newCRAMMD5(c saslCreds) mechanism { return &cramMD5{c: c} }

func (m *cramMD5) start() ([]byte, bool, error) { return nil, false, nil }

func (m *cramMD5) step(in []byte) ([]byte, bool, error) {
	if m.done {
		return nil, true, errStepAfterDone()
	}
	if len(in) > 1024 {
		return nil, true, fmt.Errorf("CRAM-MD5 challenge of %d bytes: %w", len(in), saslError(saslBadProt))
	}
	m.done = true
	mac := hmac.New(md5.New, []byte(m.c.pass))
	mac.Write(in)
	out := append([]byte(m.c.user), ' ')
	return hex.AppendEncode(out, mac.Sum(nil)), true, nil
}
