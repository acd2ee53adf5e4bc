package pmapi

import (
	"context"
	"errors"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// saslMechs are the mechanisms the test pmcd offers: PCP's own list
// (plain login scram-sha-256) and the others Debian's libsasl2-modules
// gives pmcd that take a password.
const saslMechs = "plain login scram-sha-256 scram-sha-1 digest-md5 cram-md5"

// TestSASLAgainstPCP authenticates to PCP's pmcd (a private SASL
// configuration and sasldb) with each mechanism and right and wrong
// passwords, and with the mistakes a user makes, and compares the
// outcome with PCP's pminfo's on the same host specification: connected
// and answering, refused while connecting, or refused at the first
// request (PLAIN and LOGIN learn pmcd's verdict there), with the same
// error text. The last go through PCP's pmproxy.
func TestSASLAgainstPCP(t *testing.T) {
	s := testbed.NewSASL(t, saslMechs, "s3cret pass")
	other := "daemon" // a local account the bed's [access] does not allow
	if s.User == other {
		other = "nobody"
	}
	s.AddUser(t, other, "pw2")
	bed := testbed.StartPMCD(t, s.Options())
	base := "localhost:" + strconv.Itoa(bed.Port()) + "?username=" + url.QueryEscape(s.User)
	var specs []string
	for _, m := range append([]string{""}, strings.Fields(saslMechs)...) {
		for _, pass := range []string{s.Password, "wrong"} {
			spec := base + "&password=" + url.QueryEscape(pass)
			if m != "" {
				spec += "&method=" + m
			}
			specs = append(specs, spec)
		}
	}
	specs = append(specs,
		"localhost:"+strconv.Itoa(bed.Port()), // no credentials: SASL wants a name
		"localhost:"+strconv.Itoa(bed.Port())+"?username=nosuchuser-x&password=x",
		base,                           // no password
		base+"&password=x&method=ntlm", // a mechanism the server offers, we lack
		base+"&password=x&method=scram-sha-512",                                       // one we have, the server lacks
		base+"&password=x&method=",                                                    // none
		"localhost:"+strconv.Itoa(bed.Port())+"?username=&password=x",                 // empty name
		"localhost:"+strconv.Itoa(bed.Port())+"?username=+a+&password=x&method=plain", // SASL refuses " a " too
		base+"&password="+url.QueryEscape(s.Password)+"&method=PLAIN,digest-md5",
		base+"&password="+url.QueryEscape(s.Password)+"&method=digest-md5&realm=other",
		"unix:"+bed.SocketPath()+"?username="+url.QueryEscape(s.User)+"&password=wrong",
		// authenticated, but refused by pmcd's access control
		"localhost:"+strconv.Itoa(bed.Port())+"?username="+other+"&password=pw2",
		"localhost:"+strconv.Itoa(bed.Port())+"?username="+other+"&password=pw2&method=plain",
	)
	// long passwords about libpcp's bounds on what it sends: PLAIN's
	// initial message at 2048 bytes (PM_ERR_IPC) and past (E2BIG), and
	// LOGIN's answer at 2048 bytes (PM_ERR_IPC)
	plainAt := pdu.MaxAuthLen - len("PLAIN\x00") - 2*(len(s.User)+1)
	for _, c := range []struct {
		n      int
		method string
	}{{plainAt - 1, "plain"}, {plainAt, "plain"}, {plainAt + 1, "plain"}, {pdu.MaxAuthLen - 1, "login"}, {pdu.MaxAuthLen, "login"}} {
		specs = append(specs, base+"&password="+strings.Repeat("x", c.n)+"&method="+c.method)
	}
	// through PCP's pmproxy, which relays the exchange
	px := proxybed.Start(t, bed)
	for _, pass := range []string{s.Password, "wrong"} {
		for _, m := range []string{"", "&method=plain"} {
			specs = append(specs, "localhost:"+strconv.Itoa(bed.Port())+"@"+px.Addr()+"?username="+url.QueryEscape(s.User)+"&password="+url.QueryEscape(pass)+m)
		}
	}
	for _, spec := range specs {
		want := pcpOutcome(t, bed, spec)
		got := ourOutcome(spec)
		if got != want {
			t.Errorf("%s:\nours:  %s\nPCP's: %s", spec, got, want)
		}
		if len(spec) > 200 {
			spec = spec[:200] + "..."
		}
		t.Logf("%s: %s", spec, got)
	}
	t.Logf("%d host specifications compared", len(specs))
}

// TestSASLOptionalAgainstPCP: a pmcd that demands no credentials (no user
// rules) still authenticates a client that gives them, over TCP and over
// its Unix socket: outcomes as PCP's pminfo's.
func TestSASLOptionalAgainstPCP(t *testing.T) {
	s := testbed.NewSASL(t, "plain scram-sha-256 digest-md5", "pw")
	bed := testbed.StartPMCD(t, testbed.Options{Env: s.Options().Env})
	user := "?username=" + url.QueryEscape(s.User)
	var specs []string
	for _, host := range []string{bed.Host(), "unix:" + bed.SocketPath()} {
		specs = append(specs, host, host+user+"&password=pw", host+user+"&password=no",
			host+user+"&password=no&method=plain", host+user+"&password=pw&method=digest-md5")
	}
	for _, spec := range specs {
		want := pcpOutcome(t, bed, spec)
		if got := ourOutcome(spec); got != want {
			t.Errorf("%s:\nours:  %s\nPCP's: %s", spec, got, want)
		}
		t.Logf("%s: %s", spec, want)
	}
}

// ourOutcome makes a context and asks one name, as pminfo -f does first.
func ourOutcome(spec string) string {
	ctx := context.Background()
	c, err := NewHostContext(ctx, spec)
	if err != nil {
		return "connect: " + errText(err)
	}
	defer c.Close()
	if _, err := c.LookupName(ctx, "pmcd.numagents"); err != nil {
		return "request: " + errText(err)
	}
	return "ok"
}

func errText(err error) string {
	var e pcp.Error
	if errors.As(err, &e) {
		return pcp.ErrorText(int32(e))
	}
	return err.Error()
}

// pcpOutcome runs PCP's pminfo -f on spec with no terminal to prompt on.
func pcpOutcome(t *testing.T, bed *testbed.PMCD, spec string) string {
	t.Helper()
	cmd, err := bed.Command(context.Background(), "pminfo", "-h", spec, "-f", "pmcd.numagents")
	if err != nil {
		t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if _, text, ok := strings.Cut(line, "Cannot connect to PMCD on host \""+spec+"\": "); ok {
			return "connect: " + text
		}
		if text, ok := strings.CutPrefix(line, "Error: pmcd.numagents: "); ok {
			return "request: " + text
		}
		if strings.HasPrefix(line, "    value ") {
			return "ok"
		}
	}
	t.Fatalf("pminfo -h %s: unrecognized output:\n%s", spec, out)
	return ""
}
