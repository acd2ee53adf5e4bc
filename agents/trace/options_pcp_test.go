package trace_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// pcpTraceAgentSays runs PCP's pmdatrace with -D appl0 and args, its
// stdin empty (it ends at once, having no pmcd), and returns what it
// wrote on stderr while parsing its options.
func pcpTraceAgentSays(t *testing.T, args ...string) string {
	t.Helper()
	in := testbed.Need(t)
	bin := filepath.Join(in.Var("PCP_PMDAS_DIR"), "trace", "pmdatrace")
	argv := append([]string{"-D", "appl0", "-l", filepath.Join(t.TempDir(), "log"), "-d", "10", "-I", "0"}, args...)
	cmd := exec.Command(bin, argv...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.Run() // it always fails: no pmcd answers on its stdin
	return stderr.String()
}

var (
	pcpAllow = regexp.MustCompile(`allow: host '([^']*)', maxconn=(-?\d+)`)
	pcpDeny  = regexp.MustCompile(`deny: host '([^']*)'`)
	pcpUnits = regexp.MustCompile(`dimSpace=(-?\d+), dimTime=(-?\d+), dimCount=(-?\d+), scaleSpace=(-?\d+), scaleTime=(-?\d+), scaleCount=(-?\d+)`)
)

// TestAccessParseAsPCP gives PCP's pmdatrace and ours the same -A
// specification: both refuse it or both read the same host and limit
// (PCP's as its appl0 debugging reports them), an allowed host without a
// colon completed from what follows it (AccessFollowing).
func TestAccessParseAsPCP(t *testing.T) {
	for _, spec := range []string{
		"allow:h:5", "allow:h: 5", "allow:h:\t+7", "allow:h:4294967297", "allow:h:-4294967295",
		"allow:h:2147483648", "allow:h:99999999999999999999", "allow:h:-1", "allow:h:", "allow:h:x",
		"allow:h:5 ", "allow:h: ", "allow:h:5:6", "ALLOW:  h:3", "Allow:\th:0x10", "allow:h:010",
		"disallow:h", "DisAllow: h:anything", "diſallow:h", "ALLOW:h:1", "allow:", "allow: ",
		"disallow:", "deny:h", "allow", "allow :h:1", "allow::1", "disallow:*", "allow:10.0.0.*:2",
		"allow:h", "allow: h",
	} {
		pcpSays := pcpTraceAgentSays(t, "-A", spec)
		// the last argument: PCP's reads a missing limit from the
		// first environment string, which the agent inherits
		next := os.Args[0]
		if env := os.Environ(); len(env) > 0 {
			next = env[0]
		}
		host, deny, maxConn, err := atrace.ParseAccess(atrace.AccessFollowing(spec, next))
		var want, got string
		switch m, d := pcpAllow.FindStringSubmatch(pcpSays), pcpDeny.FindStringSubmatch(pcpSays); {
		case m != nil:
			want = fmt.Sprintf("allow %q %s", m[1], m[2])
		case d != nil:
			want = fmt.Sprintf("deny %q", d[1])
		case strings.Contains(pcpSays, "Usage:"):
			want = "refused"
		default:
			t.Fatalf("%q: PCP's pmdatrace said neither:\n%s", spec, pcpSays)
		}
		switch {
		case err != nil:
			got = "refused"
		case deny:
			got = fmt.Sprintf("deny %q", host)
		default:
			got = fmt.Sprintf("allow %q %d", host, maxConn)
		}
		if got != want {
			t.Errorf("-A %q: PCP's pmdatrace: %s, ours: %s (%v)", spec, want, got, err)
		}
	}
}

// TestUnitsParseAsPCP gives PCP's pmdatrace and ours the same -U: both
// refuse it or both read the same six numbers, PCP's cut to the four bits
// of a descriptor's fields as its agent then reports them (which
// TestDescriptorsAsPCP checks through pminfo -d).
func TestUnitsParseAsPCP(t *testing.T) {
	for _, spec := range []string{
		"0,0,1,0,0,0", "1,-1,0,1,3,0", ",,1,0,,0,0,0,7", "1,2,3,4,5,6,garbage", "1,2,3,4,5",
		"8,16,-1,-1,17,-9", "99999999999999999999,-99999999999999999999,4294967297,0,0,0",
		" 1, 2,\t3,+4,-0,5", "1 ,2,3,4,5,6", "1,2,3,4,5,6x", "0x1,0,0,0,0,0", "010,0,0,0,0,0",
		"a,b,c,d,e,f", "1,,,,,,2,3,4,5", ",,,,,", "", " ,1,2,3,4,5",
	} {
		pcpSays := pcpTraceAgentSays(t, "-U", spec)
		u, err := atrace.ParseUnits(spec)
		want := "refused"
		if m := pcpUnits.FindStringSubmatch(pcpSays); m != nil {
			var n [6]int32
			for i := range n {
				v, _ := strconv.ParseInt(m[i+1], 10, 32)
				n[i] = int32(v)
			}
			s4 := func(v int32) int32 { return v << 28 >> 28 }
			want = fmt.Sprint(s4(n[0]), s4(n[1]), s4(n[2]), n[3]&15, n[4]&15, s4(n[5]))
		} else if !strings.Contains(pcpSays, "Usage:") {
			t.Fatalf("%q: PCP's pmdatrace said neither:\n%s", spec, pcpSays)
		}
		got := "refused"
		if err == nil {
			got = fmt.Sprint(u.DimSpace, u.DimTime, u.DimCount, u.ScaleSpace, u.ScaleTime, u.ScaleCount)
		}
		if got != want {
			t.Errorf("-U %q: PCP's pmdatrace: %s, ours: %s (%v)", spec, want, got, err)
		}
	}
}
