package pmcd

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
)

// FuzzParseConf feeds pmcd.conf text, access section included, to the
// parser, which must answer with a Conf or a ConfError whose messages
// name lines of the text. The access statements it keeps, printed back
// as an [access] section and parsed again, must give the same verdict
// (accepted or not) and an access control that judges every probe
// client, host and account, the same way with PCP's error codes; the
// statements kept are no longer than the text. Host names are not
// resolved, so the fuzzer stays off the network.
func FuzzParseConf(f *testing.F) {
	for _, c := range accessCases {
		f.Add("pmcd 2 dso pmcd_init /p.so\n[access]\n" + c + "\n")
	}
	f.Add("a 1 pipe binary /bin/a\n")
	f.Add("[access]\nallow \"unquoted : fetch;")
	f.Add("[access]\nallow host1, localhost : all;\ndisallow user root : store;\nallow group 0 : all, maximum 2 connections;\n")
	f.Add("[access]\nallow 192.0.2.* : fetch, maximum 1 connections;\nallow unix : all except store;\ndisallow * : all;\n")
	saved := lookupHost
	lookupHost = func(name string) ([]net.IP, error) {
		if name == "localhost" || strings.HasPrefix(name, "host") {
			return []net.IP{net.ParseIP("192.0.2.7")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	f.Cleanup(func() { lookupHost = saved })
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseConf(strings.NewReader(text), "fuzz")
		lines := strings.Count(text, "\n") + 1
		var ce *ConfError
		if err != nil {
			if c != nil {
				t.Fatalf("error %v with a Conf", err)
			}
			if !errors.As(err, &ce) {
				return // a line longer than the reader's bound
			}
			checkLines(t, ce.Lines, lines)
		} else {
			checkLines(t, c.Warnings, lines)
		}
		if c == nil {
			return
		}
		size := 0
		for _, s := range c.Access {
			size += len(s)
		}
		if size > len(text) {
			t.Fatalf("%d bytes of statements from %d bytes", size, len(text))
		}
		if len(c.Access) == 0 {
			if c.ACL != nil {
				t.Fatalf("access control with no statements")
			}
			return
		}
		again := "[access]\n" + strings.Join(c.Access, ";\n") + ";\n"
		c2, err := ParseConf(strings.NewReader(again), "fuzz")
		if err != nil {
			t.Fatalf("statements %q printed back fail: %v", c.Access, err)
		}
		if a, b := judge(t, c.ACL), judge(t, c2.ACL); a != b {
			t.Fatalf("verdicts differ after printing back %q:\n%s\n%s", c.Access, a, b)
		}
	})
}

// checkLines requires every message that names a line to name one of
// the text.
func checkLines(t *testing.T, msgs []string, lines int) {
	t.Helper()
	for _, m := range msgs {
		var n int
		i := strings.Index(m, "[line ")
		if i < 0 {
			continue // a message going on from the line before
		}
		if _, err := fmt.Sscanf(m[i:], "[line %d]", &n); err != nil || n < 1 || n > lines+1 {
			t.Fatalf("message %q names line %d of %d", m, n, lines)
		}
	}
}

// judge admits each probe client twice (so connection limits bite) and
// describes the verdicts; every refusal carries PCP's code.
func judge(t *testing.T, acl *access.Control) string {
	t.Helper()
	var b strings.Builder
	for _, id := range []access.ClientID{{IP: net.ParseIP("192.0.2.7").To4()}, {IP: net.ParseIP("::1")},
		{IP: net.ParseIP("10.1.2.3").To4()}, {Unix: true, HasCreds: true}, {Unix: true, HasCreds: true, UID: 1000, GID: 1000},
		{Unix: true}} {
		for range 2 {
			deny, err := acl.AdmitHost(id)
			fmt.Fprintf(&b, "%v host %d %v", id, deny, err)
			if err != nil {
				if !errors.Is(err, pcp.ErrPermission) && !errors.Is(err, pcp.ErrConnLimit) {
					t.Fatalf("AdmitHost(%v): %v", id, err)
				}
				b.WriteByte('\n')
				continue
			}
			deny, counted, err := acl.AdmitAccount(id, deny)
			fmt.Fprintf(&b, " account %d %v %v\n", deny, counted, err)
			if err != nil && !errors.Is(err, pcp.ErrPermission) && !errors.Is(err, pcp.ErrConnLimit) {
				t.Fatalf("AdmitAccount(%v): %v", id, err)
			}
		}
	}
	return b.String()
}

// FuzzAccessFile reads fuzzed text as pmcd.conf.access, the file PCP's
// pmcd reads after pmcd.conf's [access] section, and as that section
// itself: the two must be accepted or refused alike, keep the same
// statements, and judge every probe client the same.
func FuzzAccessFile(f *testing.F) {
	for _, c := range accessCases {
		f.Add(c)
	}
	f.Add("allow host1 : all;\r\ndisallow \"host2\r\n: store;")
	saved := lookupHost
	lookupHost = func(name string) ([]net.IP, error) {
		if name == "localhost" || strings.HasPrefix(name, "host") {
			return []net.IP{net.ParseIP("192.0.2.7")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	f.Cleanup(func() { lookupHost = saved })
	f.Fuzz(func(t *testing.T, text string) {
		if strings.ContainsAny(text, "[") {
			return // a section heading means something else in pmcd.conf
		}
		file, ferr := parseConf(strings.NewReader(""), "pmcd", []byte(text))
		section, serr := parseConf(strings.NewReader("[access]\n"+text), "pmcd", nil)
		if (ferr == nil) != (serr == nil) {
			t.Fatalf("as a file: %v; as a section: %v", ferr, serr)
		}
		if ferr != nil {
			return
		}
		if !slices.Equal(file.Access, section.Access) {
			t.Fatalf("statements %q as a file, %q as a section", file.Access, section.Access)
		}
		if a, b := judge(t, file.ACL), judge(t, section.ACL); a != b {
			t.Fatalf("verdicts differ:\n%s\n%s", a, b)
		}
	})
}
