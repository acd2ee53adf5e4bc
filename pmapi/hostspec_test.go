package pmapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

var hostSpecs = []string{
	"localhost",
	"localhost:44321",
	"localhost:44321,4321,1",
	"app1.example.com:44321",
	"192.168.122.1:44321",
	"[fe80::5eff:35ff:fe07:55ca]:44321,4321",
	"[::1]",
	"pcp://localhost:44321",
	"pcp:localhost",
	"pcps://server:1?secure=relaxed",
	"local:",
	"local://",
	"local:/run/pcp/pmcd.socket",
	"local://run/pcp/pmcd.socket",
	"unix:/tmp/sock",
	"unix:tmp/sock",
	"unix:/tmp/sock?container=abc",
	"local:/x:",
	"host?container=web&user=fred",
	"host:1?compress&userauth",
	"host?container=a+b%20c",
	"host?container=%zz",
	"host?nosuch=1&container=x",
	"host/",
	"host:1/",
	"app@proxy",
	"app:1,2@proxy:3",
	"app@proxy@third:5",
	"app@proxy:1,2",
	"",
	":44321",
	"localhost:",
	"localhost:x",
	"localhost:1x",
	"localhost:1,",
	"[::1",
	"[::1]x",
	"host:1:2",
	"host:+1",
	"host!",
	"[]",
	"[]:44321,2",
	"app@[]?container=x",
	"[[]",
	"[/]:1",
	"[a@b?c]",
	"local:\x00/x",
}

type specAnswer struct {
	Sts      int32  `json:"sts"`
	Errmsg   string `json:"errmsg"`
	Count    int    `json:"count"`
	Unparsed string `json:"unparsed"`
}

func parseWithLibpcp(t *testing.T, specs []string) []specAnswer {
	t.Helper()
	testbed.Need(t)
	in, _ := json.Marshal(specs)
	cmd := exec.Command("python3", "testdata/hostspec_harness.py")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hostspec harness: %v\n%s", err, stderr.String())
	}
	var ans []specAnswer
	if err := json.Unmarshal(out, &ans); err != nil || len(ans) != len(specs) {
		t.Fatalf("hostspec harness output: %v\n%s", err, out)
	}
	return ans
}

// attrSet splits a printed specification into its part before '?' and
// the set of its attributes, whose order libpcp's hash table decides.
func attrSet(s string) (string, []string) {
	head, attrs, _ := strings.Cut(s, "?")
	var list []string
	if attrs != "" {
		list = strings.Split(attrs, "&")
	}
	slices.Sort(list)
	return head, list
}

func TestParseHostSpecMatchesLibpcp(t *testing.T) {
	t.Setenv("PMCD_SOCKET", "/run/pcp/pmcd.socket") // for libpcp
	want := parseWithLibpcp(t, hostSpecs)
	for i, spec := range hostSpecs {
		w := want[i]
		hs, err := parseHostSpec(spec, "/run/pcp/pmcd.socket")
		if w.Sts < 0 {
			if codeOf(err) != w.Sts {
				t.Errorf("ParseHostSpec(%q) = %v, %v; libpcp %d %s", spec, hs, err, w.Sts, w.Errmsg)
			}
			var se *HostSpecError
			if errors.As(err, &se) && se.Report() != w.Errmsg {
				t.Errorf("ParseHostSpec(%q) report\n%s\nlibpcp\n%s", spec, se.Report(), w.Errmsg)
			}
			continue
		}
		if err != nil || len(hs.Hosts) != w.Count {
			t.Errorf("ParseHostSpec(%q) = %v, %v; libpcp %d hosts %q", spec, hs, err, w.Count, w.Unparsed)
			continue
		}
		if w.Count == 0 {
			continue
		}
		gotHead, gotAttrs := attrSet(hs.String())
		wantHead, wantAttrs := attrSet(w.Unparsed)
		if gotHead != wantHead || !slices.Equal(gotAttrs, wantAttrs) {
			t.Errorf("ParseHostSpec(%q) = %q, libpcp %q", spec, hs.String(), w.Unparsed)
		}
	}
}

// TestNewHostContextErrors compares failures to connect with what
// pminfo reports for the same host specification.
func TestNewHostContextErrors(t *testing.T) {
	bed := startBed(t)
	t.Setenv("PMCD_CONNECT_TIMEOUT", "5")
	ctx := testContext(t)
	// Refused ports are private ones held to the test's end: port 1 or
	// any other fixed one may have a listener on some machine.
	p1, p2 := strconv.Itoa(testbed.ReservedPort(t)), strconv.Itoa(testbed.ReservedPort(t))
	for _, spec := range []string{
		"localhost:" + p1,
		"pcp://localhost:" + p1 + "," + p2,
		"no.such.host.invalid",
		"unix:/nonexistent/pmcd.socket",
		"",
		"localhost:x",
		"[::1",
		":44321",
		"localhost:" + p1 + "?compress",
	} {
		c, err := NewHostContext(ctx, spec)
		if err == nil {
			c.Close()
			t.Errorf("NewHostContext(%q) succeeded", spec)
			continue
		}
		res := bed.Run("pminfo", "-h", spec, "sample.long.one")
		var se *HostSpecError
		var code pcp.Error
		switch {
		case errors.As(err, &se):
			if !strings.Contains(res.Stderr, "pmNewContext: bad host specification\n"+se.Report()) {
				t.Errorf("NewHostContext(%q): %v; pminfo said\n%s", spec, err, res.Stderr)
			}
		case errors.As(err, &code):
			if !strings.Contains(res.Stderr, ": "+code.Error()+"\n") {
				t.Errorf("NewHostContext(%q): %v; pminfo said\n%s", spec, err, res.Stderr)
			}
		default:
			t.Errorf("NewHostContext(%q): %v carries no PCP code", spec, err)
		}
	}
}
