package pmapi

import (
	"crypto/md5"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"strings"
)

// maxDigestChallenge is Cyrus SASL's bound on a DIGEST-MD5 challenge.
const maxDigestChallenge = 2048

// digestMD5 is DIGEST-MD5 (RFC 2831) without a security layer (qop
// "auth"): libpcp's Cyrus client negotiates the strongest layer pmcd
// offers but neither side ever applies one, so the exchange proves the
// same thing. The digest-uri is libpcp's service name, "/" and the host
// name libpcp gives SASL.
type digestMD5 struct {
	c      saslCreds
	cnonce string
	state  int

	uri, rspauth string
}

func newDigestMD5(c saslCreds) mechanism { return &digestMD5{c: c, cnonce: randomNonce()} }

func (m *digestMD5) start() ([]byte, bool, error) { return nil, false, nil }

func (m *digestMD5) step(in []byte) ([]byte, bool, error) {
	m.state++
	switch m.state {
	case 1:
		out, err := m.response(in)
		return out, false, err
	case 2:
		return nil, true, m.verify(in)
	}
	return nil, true, errStepAfterDone()
}

// digestChallenge is what a DIGEST-MD5 challenge holds.
type digestChallenge struct {
	realms            []string
	nonce, algorithm  string
	qop               []string
	utf8, stale       bool
	hasNonce, hasAlgo bool
}

// parseDigestPairs splits a DIGEST-MD5 message into its name=value
// pairs, values quoted or not (a backslash escapes a quoted byte).
func parseDigestPairs(s string) ([][2]string, error) {
	var pairs [][2]string
	for {
		s = strings.TrimLeft(s, " \t\r\n,")
		if s == "" {
			return pairs, nil
		}
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return nil, fmt.Errorf("DIGEST-MD5: %q is not name=value", s)
		}
		name := strings.TrimSpace(s[:eq])
		s = strings.TrimLeft(s[eq+1:], " \t")
		var value strings.Builder
		if strings.HasPrefix(s, `"`) {
			i := 1
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				value.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("DIGEST-MD5: unterminated quoted value of %s", name)
			}
			s = s[i+1:]
		} else {
			end := strings.IndexByte(s, ',')
			if end < 0 {
				end = len(s)
			}
			value.WriteString(strings.TrimSpace(s[:end]))
			s = s[end:]
		}
		pairs = append(pairs, [2]string{strings.ToLower(name), value.String()})
		if len(pairs) > 64 {
			return nil, fmt.Errorf("DIGEST-MD5: more than 64 directives")
		}
	}
}

// parseDigestChallenge reads a digest-challenge as Cyrus SASL's client
// does: a nonce and algorithm=md5-sess are required, each once.
func parseDigestChallenge(in []byte) (digestChallenge, error) {
	bad := func(why string) (digestChallenge, error) {
		return digestChallenge{}, fmt.Errorf("DIGEST-MD5 challenge: %s: %w", why, saslError(saslBadProt))
	}
	if len(in) > maxDigestChallenge {
		return bad("too long")
	}
	pairs, err := parseDigestPairs(string(in))
	if err != nil {
		return bad(err.Error())
	}
	var c digestChallenge
	for _, p := range pairs {
		switch p[0] {
		case "realm":
			c.realms = append(c.realms, p[1])
		case "nonce":
			if c.hasNonce {
				return bad("nonce given twice")
			}
			c.nonce, c.hasNonce = p[1], true
		case "qop":
			for _, q := range strings.Split(p[1], ",") {
				c.qop = append(c.qop, strings.ToLower(strings.TrimSpace(q)))
			}
		case "charset":
			c.utf8 = strings.EqualFold(p[1], "utf-8")
		case "algorithm":
			if c.hasAlgo {
				return bad("algorithm given twice")
			}
			c.algorithm, c.hasAlgo = p[1], true
		case "stale":
			c.stale = true
		}
	}
	switch {
	case !c.hasNonce:
		return bad("no nonce")
	case !c.hasAlgo || !strings.EqualFold(c.algorithm, "md5-sess"):
		return bad("algorithm md5-sess expected")
	}
	return c, nil
}

// digestQuote quotes a value as Cyrus SASL does.
func digestQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func (m *digestMD5) response(in []byte) ([]byte, error) {
	ch, err := parseDigestChallenge(in)
	if err != nil {
		return nil, err
	}
	if len(ch.qop) > 0 && !containsFold(ch.qop, "auth") {
		return nil, fmt.Errorf("DIGEST-MD5: server offers no qop \"auth\": %w", saslError(saslBadProt))
	}
	var realm string
	switch {
	case len(ch.realms) == 1:
		realm = ch.realms[0]
	case m.c.hasRealm:
		realm = m.c.realm
	case len(ch.realms) > 1:
		return nil, fmt.Errorf("DIGEST-MD5: server offers realms %q and none was given (?realm=): %w", ch.realms, saslError(saslBadParam))
	default:
		realm = m.c.host
	}
	m.uri = saslService + "/" + m.c.host
	var response string
	response, m.rspauth = digestResponse(m.c.user, realm, m.c.pass, ch.nonce, m.cnonce, m.uri)
	var b strings.Builder
	b.WriteString("username=" + digestQuote(m.c.user))
	b.WriteString(",realm=" + digestQuote(realm))
	b.WriteString(",nonce=" + digestQuote(ch.nonce))
	b.WriteString(",cnonce=" + digestQuote(m.cnonce))
	b.WriteString(",nc=" + digestNC + ",qop=auth")
	if ch.utf8 {
		b.WriteString(",charset=utf-8")
	}
	b.WriteString(",digest-uri=" + digestQuote(m.uri))
	b.WriteString(",response=" + response)
	return []byte(b.String()), nil
}

// digestNC is the nonce count of the one response sent.
const digestNC = "00000001"

// digestResponse computes RFC 2831's response value for qop "auth" and
// the rspauth the server must answer with.
func digestResponse(user, realm, pass, nonce, cnonce, uri string) (response, rspauth string) {
	sum := md5.Sum([]byte(user + ":" + realm + ":" + pass))
	ha1 := md5hex(string(sum[:]) + ":" + nonce + ":" + cnonce)
	kd := func(a2 string) string {
		return md5hex(ha1 + ":" + nonce + ":" + digestNC + ":" + cnonce + ":auth:" + md5hex(a2))
	}
	return kd("AUTHENTICATE:" + uri), kd(":" + uri)
}

// verify checks the server's rspauth, its proof that it knows the
// password.
func (m *digestMD5) verify(in []byte) error {
	pairs, err := parseDigestPairs(string(in))
	if err != nil || len(pairs) == 0 || pairs[0][0] != "rspauth" {
		return fmt.Errorf("DIGEST-MD5: rspauth expected: %w", saslError(saslBadProt))
	}
	if subtle.ConstantTimeCompare([]byte(pairs[0][1]), []byte(m.rspauth)) != 1 {
		return fmt.Errorf("DIGEST-MD5: server's rspauth does not match: %w", saslError(saslBadAuth))
	}
	return nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
