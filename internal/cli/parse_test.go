package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// pminfoLike is pminfo's option table, a tool whose parsing errors PCP's
// own pminfo shows us without connecting anywhere.
func pminfoLike(seen *[]string) *Command {
	return &Command{
		Name:  "pminfo",
		Usage: "[options] [metricname | pmid | indom]...",
		Options: []Option{
			Header("General options"),
			OptArchive, OptDebug, OptHost, OptContainer, OptLocalPMDA,
			OptSpecLocal, OptNamespace, OptUniqNames, OptOrigin,
			OptTimezone, OptHostZone, OptVersion, OptHelp,
			Header("Protocol options"),
			{Long: "batch", Short: 'b', Arg: "N", Help: "fetch N metrics at a time for -f and -v [128]"},
			{Long: "desc", Short: 'd', Help: "get and print metric description"},
			{Long: "fetch", Short: 'f', Help: "fetch and print values for all instances"},
			{Long: "fetchall", Short: 'F', Help: "fetch and print values for non-enumerable indoms"},
			{Long: "fullindom", Short: 'I', Help: "print InDom in verbose format"},
			{Long: "labels", Short: 'l', Help: "print InDom, metric and instance labels"},
			{Long: "pmid", Short: 'm', Help: "print PMID"},
			{Long: "fullpmid", Short: 'M', Help: "print PMID in verbose format"},
			{Long: "series", Short: 's', Help: "print source, metric, instance series identifiers"},
			{Long: "oneline", Short: 't', Help: "get and display (terse) oneline text"},
			{Long: "helptext", Short: 'T', Help: "get and display (verbose) help text"},
			Header("Metrics options"),
			{Long: "derived", Short: 'c', Arg: "FILE", Help: "load derived metric definitions from FILE(s)"},
			{Long: "events", Short: 'x', Help: "unpack and report on any fetched event records"},
			{Long: "verify", Short: 'v', Help: "verify mode, be quiet and only report errors"},
		},
		Handle: func(o Option, arg string, p *Parsed) {
			if o.Short == 'b' {
				if _, ok := Strtol(arg); !ok {
					p.Errorf("-b requires numeric argument")
				}
			}
			*seen = append(*seen, string(o.Short)+arg)
		},
	}
}

// TestParseErrorsAgainstPCP gives PCP's pminfo command lines it refuses
// (or answers without a metrics source) and compares what it prints on
// stderr, and its status, with Parse and Report.
func TestParseErrorsAgainstPCP(t *testing.T) {
	pminfo := pcptest.NeedTool(t, "pminfo")
	tests := [][]string{
		{"-Z"},
		{"-y"},
		{"--bogus"},
		{"--host"},
		{"-h"},
		{"-fdy"},
		{"--fetch=1"},
		{"-?"},
		{"--help"},
		{"-V"},
		{"--version"},
		{"-b", "x"},
		{"-b", "12x"},
		{"--batch=x", "-y"},
		{"-h", "a", "-a", "b"},
		{"-a", "b", "-h", "a"},
		{"-h", "a", "-h", "b"},
		{"-h", "a", "-O", "@10:00"},
		{"-O", "@10:00", "-h", "a"},
		{"-Z", "UTC", "-z"},
		{"-z", "-Z", "UTC"},
		{"-z"},
		{"-f", "sample", "-y"},
		{"sample", "--", "-y"},
		{"--h"},
		{"--fu"},
		{"--he"},
		{"--fet=1"},
		{"--bogus=1"},
		{"--vers=1"},
		{"-y", "-q"},
		{"--bogus", "-y", "-Z"},
		{"--vers"},
		{"--hel", "-y"},
		{"-fdy", "-q"},
		{"-b", "x", "-b", "y"},
		{"--batch", "x", "--batc=y", "--fetcha"},
		{"-zZ", "UTC"},
		{"-Z"},
		{"--host=a", "--ho", "b"},
		{"-D", "foo"},
		{"-D", "pdu,bogus"},
		{"-D", "1x"},
		{"-D", "3,FETCH,pdu", "-y"},
		{"--debug=fetch,", "-y"},
		{"-D", "pdu,,fetch"},
		{"-yV"},
		{"-yzZ"},
		{"-qbx", "-y"},
		{"-fb"},
		// getopt keeps the "=" of a joined argument
		{"-b=3", "-y"},
		{"-D=pdu", "-y"},
		{"-fZ=UTC", "-z"},
		{"-n", "/nonexistent/pmns"},
		{"-N", "/etc/hosts", "-y"},
		// a PMNS error flushes the messages of the options before it
		{"-b", "x", "-n", "/nonexistent/pmns"},
		{"-n", "/nonexistent/pmns", "-b", "x"},
		{"-b", "x", "-N", "/etc/hosts", "-Z"},
		{"-y", "-n", "/nonexistent/pmns", "-b", "x", "-q"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := exec.Command(pminfo, args...)
			cmd.Env = cleanEnv(t)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			var seen []string
			c := pminfoLike(&seen)
			p := ParseEnv(c, append([]string{"/usr/bin/pminfo"}, args...), cleanEnv(t))
			done, status := p.Done()
			if !done {
				if code == 0 || !strings.Contains(stderr.String(), "Cannot connect") {
					t.Fatalf("Parse accepted %q; PCP's pminfo exited %d: %s", args, code, stderr.String())
				}
				t.Logf("accepted, as by PCP")
				return
			}
			if got := p.Report(c); got != stderr.String() {
				t.Errorf("Report:\n%s\nPCP's pminfo:\n%s", got, stderr.String())
			}
			if status != code {
				t.Errorf("status %d, PCP's %d", status, code)
			}
		})
	}
}

// TestEnvironmentAgainstPCP sets standard options through PCP_* variables.
func TestEnvironmentAgainstPCP(t *testing.T) {
	pminfo := pcptest.NeedTool(t, "pminfo")
	tests := []struct {
		env  []string
		args []string
	}{
		{[]string{"PCP_HOST=a"}, []string{"-h", "b"}},
		{[]string{"PCP_SAMPLES=x"}, nil},
		{[]string{"PCP_HOSTZONE=", "PCP_TIMEZONE=UTC"}, nil},
		{[]string{"PCP_ORIGIN=@10"}, []string{"-h", "a"}},
		{[]string{"PCP_ARCHIVE=x"}, []string{"-h", "a"}},
		{[]string{"PCP_NAMESPACE=/nonexistent"}, nil},
		{[]string{"PCP_HOSTZONE="}, []string{"-Z", "UTC"}},
		// libpcp complains of a bad $PCP_DEBUG as it starts, then
		// pmGetOptions refuses it as -D
		{[]string{"PCP_DEBUG=bogus"}, nil},
		{[]string{"PCP_DEBUG=pdu,nosuch"}, []string{"-D", "bad", "-x"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(append(tt.env, tt.args...), " "), func(t *testing.T) {
			env := append(cleanEnv(t), tt.env...)
			cmd := exec.Command(pminfo, tt.args...)
			cmd.Env = env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			var seen []string
			c := pminfoLike(&seen)
			p := ParseEnv(c, append([]string{"pminfo"}, tt.args...), env)
			done, status := p.Done()
			if !done {
				t.Fatalf("Parse accepted; PCP's pminfo exited %d: %s", code, stderr.String())
			}
			if got := p.Report(c); got != stderr.String() || status != code {
				t.Errorf("Report (%d):\n%s\nPCP's pminfo (%d):\n%s", status, got, code, stderr.String())
			}
		})
	}
}

// cleanEnv keeps PCP_* settings, which pmGetOptions reads as options, out,
// and points PCP's tools' default source, local:, nowhere: no Unix socket
// (the system's pmcd listens on $PCP_RUN_DIR/pmcd.socket) and a TCP port
// nothing listens on, so a tool that gets past parsing cannot connect,
// whatever runs here.
func cleanEnv(t testing.TB) []string {
	t.Helper()
	port, err := nowherePort()
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "PCP_") || strings.HasPrefix(e, "PCP_CONF=") || strings.HasPrefix(e, "PCP_DIR=") {
			env = append(env, e)
		}
	}
	return append(env, "PMCD_CONNECT_TIMEOUT=0.5", "PMCD_PORT="+strconv.Itoa(port), "PMCD_SOCKET=/nonexistent/gopcp/pmcd.socket")
}

// nowherePort is one of testbed's private ports, reserved for the life
// of the test binary (the kernel drops the reservation when it exits):
// no other test run is handed it meanwhile, so nothing listens there.
var nowherePort = sync.OnceValues(func() (int, error) {
	port, _, err := testbed.FreePort()
	return port, err
})

func TestParseAccepted(t *testing.T) {
	tests := []struct {
		args []string
		want Parsed
		seen []string
	}{
		{[]string{"-h", "host:44321", "-fd", "sample"},
			Parsed{Context: ContextHost, Hosts: []string{"host:44321"}, Parsed: getopt.Parsed{Args: []string{"sample"}}},
			[]string{"f", "d"}},
		{[]string{"--host=h", "--batch", "7", "a", "b"},
			Parsed{Context: ContextHost, Hosts: []string{"h"}, Parsed: getopt.Parsed{Args: []string{"a", "b"}}},
			[]string{"b7"}},
		{[]string{"-a", "arch", "-O", "@10:00", "-Z", "UTC"},
			Parsed{Context: ContextArchive, Archives: []string{"arch"}, Origin: "@10:00", OriginSet: true, Timezone: "UTC", TimezoneSet: true},
			nil},
		{[]string{"-L", "-b3"},
			Parsed{Context: ContextLocal, LocalPMDA: true}, []string{"b3"}},
		{[]string{"-h", "h", "-z", "--container", "c", "-D", "pdu"},
			Parsed{Context: ContextHost, Hosts: []string{"h"}, HostZone: true, Container: "c", Parsed: getopt.Parsed{Debug: []string{"pdu"}}},
			nil},
		{[]string{"x", "-m", "--", "-f"},
			Parsed{Parsed: getopt.Parsed{Args: []string{"x", "-f"}}}, []string{"m"}},
	}
	for _, tt := range tests {
		var seen []string
		p := ParseEnv(pminfoLike(&seen), append([]string{"pminfo"}, tt.args...), nil)
		// only the operands and -D of getopt's part
		p.Parsed = getopt.Parsed{Args: p.Args, Debug: p.Debug}
		tt.want.Args = append([]string{}, tt.want.Args...)
		if p.Args == nil {
			p.Args = []string{}
		}
		if !reflect.DeepEqual(*p, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.args, *p, tt.want)
		}
		if !reflect.DeepEqual(seen, tt.seen) {
			t.Errorf("Parse(%q) handed the tool %q, want %q", tt.args, seen, tt.seen)
		}
	}
}
