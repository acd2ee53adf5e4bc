package tlsrelay

import (
	"crypto/tls"
	"strings"
)

// suite is a TLS 1.2 cipher suite crypto/tls has, by OpenSSL's name,
// with the words of OpenSSL's cipher strings that select it, as
// OpenSSL 3 selects (TestCipherListLikeOpenSSL): "RSA" is RSA key
// exchange only, SHA256 and SHA384 name HMACs, not GCM's hashes.
type suite struct {
	name  string
	id    uint16
	words string
}

// suites12 are crypto/tls's TLS 1.2 suites that OpenSSL names.
var suites12 = []suite{
	{"ECDHE-ECDSA-AES128-GCM-SHA256", tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, "ECDHE EECDH kECDHE kEECDH ECDH aECDSA ECDSA AES AES128 AESGCM HIGH TLSv1.2 FIPS"},
	{"ECDHE-RSA-AES128-GCM-SHA256", tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, "ECDHE EECDH kECDHE kEECDH ECDH aRSA AES AES128 AESGCM HIGH TLSv1.2 FIPS"},
	{"ECDHE-ECDSA-AES256-GCM-SHA384", tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, "ECDHE EECDH kECDHE kEECDH ECDH aECDSA ECDSA AES AES256 AESGCM HIGH TLSv1.2 FIPS"},
	{"ECDHE-RSA-AES256-GCM-SHA384", tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, "ECDHE EECDH kECDHE kEECDH ECDH aRSA AES AES256 AESGCM HIGH TLSv1.2 FIPS"},
	{"ECDHE-ECDSA-CHACHA20-POLY1305", tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, "ECDHE EECDH kECDHE kEECDH ECDH aECDSA ECDSA CHACHA20 HIGH TLSv1.2"},
	{"ECDHE-RSA-CHACHA20-POLY1305", tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, "ECDHE EECDH kECDHE kEECDH ECDH aRSA CHACHA20 HIGH TLSv1.2"},
	{"ECDHE-ECDSA-AES128-SHA", tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA, "ECDHE EECDH kECDHE kEECDH ECDH aECDSA ECDSA AES AES128 SHA1 SHA HIGH TLSv1 TLSv1.0 FIPS"},
	{"ECDHE-RSA-AES128-SHA", tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, "ECDHE EECDH kECDHE kEECDH ECDH aRSA AES AES128 SHA1 SHA HIGH TLSv1 TLSv1.0 FIPS"},
	{"ECDHE-ECDSA-AES256-SHA", tls.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA, "ECDHE EECDH kECDHE kEECDH ECDH aECDSA ECDSA AES AES256 SHA1 SHA HIGH TLSv1 TLSv1.0 FIPS"},
	{"ECDHE-RSA-AES256-SHA", tls.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA, "ECDHE EECDH kECDHE kEECDH ECDH aRSA AES AES256 SHA1 SHA HIGH TLSv1 TLSv1.0 FIPS"},
	{"AES128-GCM-SHA256", tls.TLS_RSA_WITH_AES_128_GCM_SHA256, "kRSA aRSA RSA AES AES128 AESGCM HIGH TLSv1.2 FIPS"},
	{"AES256-GCM-SHA384", tls.TLS_RSA_WITH_AES_256_GCM_SHA384, "kRSA aRSA RSA AES AES256 AESGCM HIGH TLSv1.2 FIPS"},
	{"AES128-SHA", tls.TLS_RSA_WITH_AES_128_CBC_SHA, "kRSA aRSA RSA AES AES128 SHA1 SHA HIGH SSLv3 FIPS"},
	{"AES256-SHA", tls.TLS_RSA_WITH_AES_256_CBC_SHA, "kRSA aRSA RSA AES AES256 SHA1 SHA HIGH SSLv3 FIPS"},
}

// maxCipherWords bounds the words of a cipher string looked at.
const maxCipherWords = 256

// cipherList is the TLS 1.2 suites an OpenSSL cipher string selects,
// of those crypto/tls has: its words, separated by ':', ',', ';' or spaces,
// are a suite's OpenSSL name, a class ("HIGH", "ECDHE", "AESGCM", ...;
// "DEFAULT" and "ALL" every suite here) or classes joined by '+'
// (suites in all of them); '!' or '-' before a word takes its suites
// out ('!' for good), '+' before it keeps the list as it is (order is
// crypto/tls's own), "@..." and unknown words select nothing. Empty
// when nothing is selected: OpenSSL then refuses the string.
func cipherList(s string) []uint16 {
	on := make(map[uint16]bool)
	banned := make(map[uint16]bool)
	words := strings.FieldsFunc(s, func(r rune) bool { return r == ':' || r == ',' || r == ' ' || r == ';' })
	for i, w := range words {
		if i == maxCipherWords {
			break
		}
		op := byte(0)
		if w != "" && strings.IndexByte("!-+", w[0]) >= 0 {
			op, w = w[0], w[1:]
		}
		if op == '+' || strings.HasPrefix(w, "@") {
			continue
		}
		for _, su := range suites12 {
			if !selects(su, w) {
				continue
			}
			switch op {
			case '!':
				banned[su.id] = true
				delete(on, su.id)
			case '-':
				delete(on, su.id)
			default:
				if !banned[su.id] {
					on[su.id] = true
				}
			}
		}
	}
	var ids []uint16
	for _, su := range suites12 {
		if on[su.id] {
			ids = append(ids, su.id)
		}
	}
	return ids
}

// selects says whether a word of a cipher string names su.
func selects(su suite, w string) bool {
	if w == su.name || w == "DEFAULT" || w == "ALL" {
		return true
	}
	if w == "" {
		return false
	}
	classes := " " + su.words + " "
	for _, c := range strings.Split(w, "+") {
		if c == "" || !strings.Contains(classes, " "+c+" ") {
			return false
		}
	}
	return true
}

// suites13 are TLS 1.3's suites by name; crypto/tls has the first
// three (and always offers them all).
var suites13 = map[string]bool{
	"TLS_AES_128_GCM_SHA256":       true,
	"TLS_AES_256_GCM_SHA384":       true,
	"TLS_CHACHA20_POLY1305_SHA256": true,
	"TLS_AES_128_CCM_SHA256":       false,
	"TLS_AES_128_CCM_8_SHA256":     false,
}

// cipherSuites reads a TLS 1.3 suite list as OpenSSL's set_ciphersuites
// does: names separated by ':', unknown ones passed over, the list
// refused (ok false) when it names no suite at all. named is how many
// of crypto/tls's suites it names, all whether it names all three.
func cipherSuites(s string) (named int, all, ok bool) {
	seen := make(map[string]bool)
	for i, n := range strings.Split(s, ":") {
		if i == maxCipherWords {
			break
		}
		has, known := suites13[n]
		ok = ok || known
		if has && !seen[n] {
			seen[n] = true
			named++
		}
	}
	if !ok {
		return 0, false, false
	}
	return named, named == 3, true
}
