package tlsrelay_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pmproxy/tlsrelay"
)

// TestCipherListLikeOpenSSL reads cipher strings as OpenSSL, the
// library PCP's pmproxy gives cipher_list to, reads them (its ciphers
// command lists what a string selects): the same suites of those
// crypto/tls has, every class word and separator of the table.
func TestCipherListLikeOpenSSL(t *testing.T) {
	bin := pcptest.NeedTool(t, "openssl")
	known := tlsrelay.SuiteNames()
	for _, s := range []string{
		"ECDHE", "EECDH", "kECDHE", "kEECDH", "ECDH", "aECDSA", "ECDSA", "aRSA", "RSA", "kRSA",
		"AES", "AES128", "AES256", "AESGCM", "CHACHA20", "SHA1", "SHA", "SHA256", "SHA384",
		"HIGH", "MEDIUM", "TLSv1.2", "TLSv1", "TLSv1.0", "SSLv3", "FIPS", "DEFAULT", "ALL",
		"HIGH;!aNULL", "ECDHE+AESGCM:!aRSA", "CHACHA20 , -aECDSA", "RSA+AES128,ECDSA+SHA1",
		"!kRSA:AES256-SHA:ECDHE-RSA-AES256-SHA", "ALL:-AESGCM:AES256", "ALL:!AESGCM:AES256",
		"ECDHE-ECDSA-AES128-GCM-SHA256:@SECLEVEL=1",
	} {
		var want []string
		if out, err := exec.Command(bin, "ciphers", s).Output(); err == nil {
			for _, n := range strings.Split(strings.TrimSpace(string(out)), ":") {
				if slices.Contains(known, n) {
					want = append(want, n)
				}
			}
		}
		var got []string
		for _, id := range tlsrelay.CipherList(s) {
			got = append(got, tlsrelay.SuiteName(id))
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%q: ours %v, OpenSSL's %v", s, got, want)
		}
	}
}
