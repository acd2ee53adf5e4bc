package series

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
)

var sidLine = regexp.MustCompile(`(?m)^([0-9a-f]{40})$`)

// TestStreamIDSamplingAsPCP gives a series stream entries whose sequence
// part is a million or more (what no loader writes, but Redis keeps as
// given) and asks PCP's pmseries and ours for its values at an interval:
// both take the same entries, libpcp_web reading the sequence as
// microseconds added to the milliseconds, carried into seconds, and
// taking a start at the epoch for none.
func TestStreamIDSamplingAsPCP(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmseries")
	conf := seriestest.WriteConf(t)
	srv := redistest.Start(t)
	c := client(t, srv)
	ctx := context.Background()
	st := NewStore(c)
	if _, err := st.Load(ctx, filepath.Join(qaArchives, "20041125"), LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-c", conf, "-p", strconv.Itoa(srv.Port), "network.tcp.maxconn").CombinedOutput()
	m := sidLine.FindStringSubmatch(string(out))
	if err != nil || m == nil {
		t.Fatalf("pmseries: %v\n%s", err, out)
	}
	sid := m[1]
	key := "pcp:values:series:" + sid
	redisDo(t, c, "DEL", key)
	ids := []string{"1000000-0", "1000000-1500000", "1001000-0", "1002000-999999", "1003000-0", "1003000-2000000", "1004000-0", "1005000-0"}
	// PCP's pmseries prints an entry's time as libpcp_web read it: the
	// milliseconds' seconds, and nanoseconds with the fraction not carried.
	printed := map[string]string{}
	for _, id := range ids {
		redisDo(t, c, "XADD", key, id, "", "1")
		msText, fracText, _ := strings.Cut(id, "-")
		ms, _ := strconv.ParseUint(msText, 10, 64)
		frac, _ := strconv.ParseUint(fracText, 10, 64)
		sec := time.Unix(int64(ms/1000), 0).UTC().Format("15:04:05")
		printed[fmt.Sprintf("%s.%09d", sec, frac*1000+ms%1000*1000000)] = id
	}
	stampLine := regexp.MustCompile(`(?m)^\s*\[\w+ \w+ +\d+ (\S+) \d+\] 1$`)
	for _, q := range []string{
		`network.tcp.maxconn[interval:"1s", start:"@Thu Jan  1 00:16:39 1970"]`,
		`network.tcp.maxconn[interval:"1s", start:"@Thu Jan  1 00:00:00 1970"]`,
		`network.tcp.maxconn[interval:"1s", samples: 100]`,
		`network.tcp.maxconn[interval:"2s", samples: 100]`,
		`network.tcp.maxconn[samples:100]`,
	} {
		out, err := exec.Command(bin, "-c", conf, "-p", strconv.Itoa(srv.Port), "-Z", "UTC", q).CombinedOutput()
		if err != nil {
			t.Fatalf("pmseries %s: %v\n%s", q, err, out)
		}
		var pcpTook []string
		for _, m := range stampLine.FindAllStringSubmatch(string(out), -1) {
			pcpTook = append(pcpTook, printed[m[1]])
		}
		r, err := st.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var ours []string
		for _, v := range r.Values {
			ours = append(ours, v.Stamp)
		}
		if strings.Join(ours, " ") != strings.Join(pcpTook, " ") || len(ours) == 0 {
			t.Errorf("%s: PCP's pmseries took %q, ours %q\n%s", q, pcpTook, ours, out)
		}
	}
}
