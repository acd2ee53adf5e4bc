package pmproxy

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
)

// TLSSettings are the TLS files and choices PCP's pmproxy takes from
// tls.conf and pmproxy.conf; empty means not given. Compat says some
// came from pmproxy.conf's own keys (or there was no tls.conf), which
// PCP's pmproxy logs as a note to move them.
type TLSSettings struct {
	CertFile, KeyFile, CAFile, CADir string
	Ciphers, CipherSuites            string
	VerifyClients                    string
	Compat                           bool
}

// maxTLSConf bounds the tls.conf read (PCP's is 1 KB).
const maxTLSConf = 1 << 20

// ReadTLSSettings decides, as PCP 6.0.3's pmproxy does at start, whether
// TLS is on and with what: nil when it is off. tlsconf is
// PCP_TLSCONF_PATH's file ("" when no variable names one: then, unlike
// PCP's, which cannot run without pcp.conf, it counts as a tls.conf that
// sets nothing, so that a pmproxy on a host without PCP does not refuse
// to start). PCP's rules: [pmproxy] secure.enabled set to a prefix of
// "false" (the empty word too) turns TLS off; without a tls.conf, a
// secure.enabled that is not a prefix of "true" does too; pmproxy.conf's
// certificates, private_key, authority, cipher_list and cipher_suites
// replace tls.conf's; with a tls.conf and none of those keys, TLS is on
// only when tls.conf names a certificate. Settings that are on but lack
// a certificate or key are returned as they are: the companion says so
// and pmproxy ends, as PCP's does.
func ReadTLSSettings(conf Conf, tlsconf string) (*TLSSettings, error) {
	option, set := conf["pmproxy.secure.enabled"]
	if set && strings.HasPrefix("false", option) {
		return nil, nil
	}
	s := &TLSSettings{}
	if tlsconf != "" {
		f, err := os.Open(tlsconf)
		if err != nil {
			s.Compat = true
		} else {
			data, err := io.ReadAll(io.LimitReader(f, maxTLSConf+1))
			f.Close()
			if err != nil {
				return nil, err
			}
			if len(data) > maxTLSConf {
				return nil, errors.New(tlsconf + ": longer than 1 MiB")
			}
			parseTLSConf(data, s)
		}
	}
	if s.Compat && set && !strings.HasPrefix("true", option) {
		return nil, nil
	}
	for key, field := range map[string]*string{
		"certificates": &s.CertFile, "private_key": &s.KeyFile, "authority": &s.CAFile,
		"cipher_list": &s.Ciphers, "cipher_suites": &s.CipherSuites,
	} {
		if v, ok := conf["pmproxy."+key]; ok {
			*field, s.Compat = v, true
		}
	}
	if !s.Compat && s.CertFile == "" {
		return nil, nil
	}
	return s, nil
}

// tlsConfLine is the longest line libpcp reads of tls.conf at once
// (fgets into BUFSIZ bytes): a longer one is read as several.
const tlsConfLine = 8191

// parseTLSConf reads tls.conf's "keyword = value" (or ':') lines into s
// as libpcp's __pmGetSecureConfig does, quirks included: a keyword is
// matched as a prefix of the known ones, in their order (so "tls-c"
// names tls-cert-file); a value ends at white space or '#'; a value
// that reaches the end of the file with no newline after it is not
// taken; a keyword separated from its value by white space alone has
// no value.
func parseTLSConf(data []byte, s *TLSSettings) {
	keywords := []struct {
		token string
		value *string
	}{
		{"tls-cert-file", &s.CertFile},
		{"tls-key-file", &s.KeyFile},
		{"tls-ciphers", &s.Ciphers},
		{"tls-ciphersuites", &s.CipherSuites},
		{"tls-ca-cert-file", &s.CAFile},
		{"tls-ca-cert-dir", &s.CADir},
		{"tls-client-cert-file", nil},
		{"tls-client-key-file", nil},
		{"tls-verify-clients", &s.VerifyClients},
	}
	for len(data) > 0 {
		n := min(len(data), tlsConfLine)
		if i := bytes.IndexByte(data[:n], '\n'); i >= 0 {
			n = i + 1
		}
		line := data[:n]
		data = data[n:]
		key, value, ok := tlsConfAssignment(line)
		if !ok {
			continue
		}
		for _, k := range keywords {
			if !strings.HasPrefix(k.token, key) {
				continue
			}
			if value != "" && k.value != nil {
				*k.value = value
			}
			break
		}
	}
}

// tlsConfAssignment splits one tls.conf line: the keyword (leading white
// space skipped, ended by white space, ':' or '='), and the value after
// the ':' or '=' ("" when there is none, or it is not taken). A comment
// or a line without a separator or space after its keyword is no
// assignment; a NUL ends the line, as it ends C's string.
func tlsConfAssignment(line []byte) (key, value string, ok bool) {
	if i := bytes.IndexByte(line, 0); i >= 0 {
		line = line[:i]
	}
	start, end, p := 0, -1, 0
	for ; p < len(line); p++ {
		c := line[p]
		if isCAlpha(c) {
			continue
		}
		if start == p && isCSpace(c) {
			start++
			continue
		}
		if c == '#' || c == '\n' {
			break
		}
		if c == ':' || c == '=' {
			if end < 0 {
				end = p
			}
			p++
			break
		}
		if isCSpace(c) && end < 0 {
			end = p
		}
	}
	if end < 0 {
		return "", "", false
	}
	key = string(line[start:end])
	rest := line[p:]
	for len(rest) > 0 && isCSpace(rest[0]) {
		rest = rest[1:]
	}
	if len(rest) == 0 || rest[0] == '#' {
		return key, "", true
	}
	for i := 1; i < len(rest); i++ {
		if rest[i] == '#' || isCSpace(rest[i]) {
			return key, string(rest[:i]), true
		}
	}
	// no white space or '#' after the value: C's scan passes the
	// string's end and the value is not taken
	return key, "", true
}

func isCAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
