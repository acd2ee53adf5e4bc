package access

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// FuzzParse reads fuzzed text as an [access] section: Parse must not
// panic, its messages must name lines of the text (or the end line), a
// section it accepts must hold a statement, and the access control it
// builds must judge clients with PCP's codes only. Host names go to a
// stub resolver, so the fuzzer stays off the network.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"allow localhost : all;",
		"disallow \".*\" : store;\ndisallow \":*\" : store;\nallow \"local:*\" : all;",
		"allow 1.2.3.* : maximum 2 connections, fetch;\nallow 1.2.* : maximum 3 connections;",
		"disallow * : all except fetch, maximum 2 connections;",
		"allow users root : fetch;\nallow groups root, nosuchgroup-x : all;",
		"allow fe80::223:14ff:feaf:* : all;",
		"foo a : all; allow x",
		"allow host1 : all",
		"allow \"unquoted : fetch;",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Split(text, "\n")
		a := newTest(0)
		msgs, ok := a.Parse(lines, 3, 3+len(lines), "fuzz")
		for _, m := range msgs {
			i := strings.Index(m, "config[line ")
			if i < 0 {
				continue
			}
			var n int
			if _, err := fmt.Sscanf(m[i:], "config[line %d]", &n); err != nil || n < 3 || n > 3+len(lines) {
				t.Fatalf("message %q names a line outside 3..%d", m, 3+len(lines))
			}
		}
		if ok && a.Empty() && len(msgs) == 0 {
			t.Fatalf("accepted with no statement and no message")
		}
		for _, id := range []ClientID{{IP: net.ParseIP("192.0.2.7").To4()}, {IP: net.ParseIP("::1")},
			{IP: net.ParseIP("10.1.2.3").To4()}, {Unix: true, HasCreds: true}, {Unix: true}} {
			deny, err := a.AdmitHost(id)
			if err != nil {
				if !errors.Is(err, pcp.ErrPermission) && !errors.Is(err, pcp.ErrConnLimit) {
					t.Fatalf("AdmitHost(%v): %v", id, err)
				}
				continue
			}
			if _, counted, err := a.AdmitAccount(id, deny); err != nil && !errors.Is(err, pcp.ErrPermission) && !errors.Is(err, pcp.ErrConnLimit) {
				t.Fatalf("AdmitAccount(%v): %v", id, err)
			} else if counted {
				a.ReleaseAccount(id)
			}
			a.ReleaseHost(id)
		}
	})
}
