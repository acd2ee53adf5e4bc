package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestSASLThroughProxy: the protocol proxy relays pmcd's SASL exchange
// as it relays everything else. PCP's pminfo authenticates to PCP's pmcd
// (a private SASL configuration) directly and through our proxy, with
// right and wrong passwords and two mechanisms: the same outcomes.
func TestSASLThroughProxy(t *testing.T) {
	s := testbed.NewSASL(t, "plain login scram-sha-256", "pw")
	bed := testbed.StartPMCD(t, s.Options())
	proxy := startOurs(t, proxybed.Conf)
	for _, pass := range []string{"pw", "wrong"} {
		for _, method := range []string{"", "&method=plain"} {
			attrs := "?username=" + url.QueryEscape(s.User) + "&password=" + pass + method
			direct := bed.Run("pminfo", "-h", bed.Host()+attrs, "-f", "pmcd.numagents")
			via := bed.Run("pminfo", "-h", bed.Host()+"@"+proxy+attrs, "-f", "pmcd.numagents")
			d := strings.ReplaceAll(direct.Stdout+direct.Stderr, bed.Host()+attrs, "HOST")
			v := strings.ReplaceAll(via.Stdout+via.Stderr, bed.Host()+"@"+proxy+attrs, "HOST")
			if d != v || direct.ExitCode != via.ExitCode {
				t.Errorf("%s: direct (exit %d):\n%s\nthrough our proxy (exit %d):\n%s", attrs, direct.ExitCode, d, via.ExitCode, v)
			}
			if want := pass == "pw"; strings.Contains(d, "    value ") != want {
				t.Errorf("%s: unexpected outcome:\n%s", attrs, d)
			}
		}
	}
}
