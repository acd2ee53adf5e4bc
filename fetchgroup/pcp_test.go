package fetchgroup

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
)

// pcpCase is one script run through libpcp's fetchgroups and through this
// package against the same pmcd with PCP's sample agent. Values that move
// with time (rates) are compared within tol, relatively (the sample agent
// reads its clock apart from pmcd's timestamp, so on a loaded machine a
// rate of its milliseconds counter strays from 1000 by several percent);
// the rest, errors and counts included, exactly.
type pcpCase struct {
	name   string
	script string
	tol    float64
}

var pcpCases = []pcpCase{
	{name: "items of every type", script: `
item sample.long.one - - 32
item sample.long.hundred - - u32
item sample.long.million - - 64
item sample.ulong.million - - u64
item sample.float.ten - - float
item sample.double.million - - double
item sample.longlong.million - - string
item sample.ulonglong.hundred - - string
item sample.float.hundred - - string
item sample.double.ten - - string
item sample.string.hullo - - string
item sample.long.ten - - double
item sample.double.hundred - - 32
fetch
fetch
`},
	{name: "strings to numbers", script: `
item sample.string.hullo - - 32
item sample.string.hullo - - double
item sample.string.write_me - - u64
item sample.string.write_me - - float
fetch
`},
	// The negative metrics move by one with each fetch of any client.
	{name: "narrowing and sign", tol: 1e-3, script: `
item sample.longlong.million - - 32
item sample.ulonglong.million - - u32
item sample.negative.instant.m_32 - - u32
item sample.negative.instant.m_64 - - u64
item sample.negative.instant.m_64 - - 32
item sample.negative.instant.m_double - - 64
item sample.negative.instant.m_float - - u32
item sample.negative.instant.m_double - - string
item sample.negative.instant.m_float - - string
fetch
`},
	{name: "instances", script: `
item sample.bin bin-300 - 32
item sample.bin bin-900 - double
item sample.bucket bin-100 - u64
indom sample.bin - 32 20
indom sample.bin - string 20
indom sample.long.ten - 32 1
indom sample.string.bin - u32 20
fetch
`},
	{name: "instance domain maximum", script: `
indom sample.bin - 32 3
indom sample.bin - 32 9
indom sample.bin - 32 0
fetch
`},
	{name: "lookup failures", script: `
item sample.no.such.metric - - 32
item sample.bin - - 32
item sample.bin bin-9999 - 32
item sample.long.one bin-100 - 32
item sample.bad.nosupport - - 32
item sample.event.records fungus - 32
item sample.aggregate.hullo - - string
indom sample.no.such - 32 4
item sample.long.one - junk-units 32
item sample.long.one - kbyte 32
item sample.mem.written - - 32
fetch
`},
	{name: "fetch failures", script: `
item sample.bad.unknown - - 32
item sample.bad.novalues - - 32
item sample.bad.fetch.again - - 32
item sample.noinst - - 32
item sample.long.one - - 32
fetch
fetch
`},
	{name: "units", tol: 0.25, script: `
item sample.mem.written - - 32
item sample.milliseconds - sec/min double
item sample.milliseconds - microsec/sec u64
item sample.milliseconds - hour/hour double
item sample.datasize - mbyte double
item sample.datasize - byte u64
item sample.datasize - 2kbyte double
item sample.datasize - 1e3byte double
item sample.datasize - 0.5kbyte/sec double
item sample.datasize - kbyte/sec double
item sample.step_counter - count/sec u32
item sample.step_counter - count/hour double
item sample.step_counter - instant u32
item sample.step_counter - rate u32
item sample.datasize - count double
item sample.datasize - millisec double
item sample.seconds - byte double
item sample.seconds - sec/min^2 double
fetch
sleep 0.25
fetch
`},
	{name: "rates", tol: 0.25, script: `
item sample.milliseconds - - double
item sample.milliseconds - rate float
item sample.milliseconds - millisec/sec double
item sample.milliseconds - sec/hour double
item sample.milliseconds - rate string
item sample.milliseconds - - string
item sample.milliseconds - rate 32
item sample.long.one - rate double
indom sample.ulong.bin_ctr - double 20
ts
fetch
sleep 0.25
fetch
sleep 0.25
fetch
`},
	{name: "discrete metrics keep their values", script: `
store sample.ghosts.visible 4
indom sample.ghosts.origin - string 10
indom sample.ghosts.karma - 32 10
item sample.ghosts.origin Obambo - string
item sample.ghosts.karma Banjhakri - 64
item sample.ghosts.state Mogwai - 32
item sample.ghosts.karma Duppy - double
fetch
store sample.ghosts.visible 0
fetch
store sample.ghosts.visible 2
fetch
store sample.ghosts.visible 8
fetch
store sample.ghosts.visible -1
fetch
`},
	{name: "clear", script: `
item sample.long.one - - 32
indom sample.bin - 32 20
ts
fetch
clear
item sample.long.ten - - 32
item sample.milliseconds - - double
fetch
clear
fetch
`},
	{name: "event fields", script: `
store sample.event.reset 0
event sample.event.records fungus sample.event.param_32 - 32 20
event sample.event.records fungus sample.event.param_string - string 20
event sample.event.records bogus sample.event.param_u64 - double 20
event sample.event.records fungus sample.event.param_double - string 20
event sample.event.records fungus sample.event.param_float - u32 20
event sample.event.records fungus sample.event.type - 64 20
event sample.event.no_indom_records - sample.event.param_32 - 32 20
event sample.event.records fungus sample.event.param_string - 32 20
event sample.event.records fungus sample.event.type - 32 1
fetch
fetch
fetch
fetch
fetch
`},
	{name: "high resolution event fields", script: `
store sample.event.reset_highres 0
event sample.event.highres_records fungus sample.event.param_32 - 32 20
event sample.event.highres_records fungus sample.event.param_string - string 20
event sample.event.highres_records bogus sample.event.param_u32 - u32 20
event sample.event.highres_records fungus sample.event.param_double - float 20
fetch
fetch
fetch
fetch
`},
	{name: "event lookup failures", script: `
event sample.long.one - sample.event.param_32 - 32 4
event sample.event.records - sample.event.param_32 - 32 4
event sample.event.records fungus sample.no.such - 32 4
event sample.event.records fungus sample.bin - 32 4
event sample.event.records fungus sample.event.param_32 rate 32 4
event sample.event.records fungus sample.event.param_aggregate - string 4
event sample.event.no_indom_records bogus sample.event.param_32 - 32 4
event sample.event.records nobody sample.event.param_32 - 32 4
fetch
`},
}

func TestAgainstLibpcp(t *testing.T) {
	bin := pcptest.Harness(t, "testdata/harness/fetchgroup.c")
	bed := testbed.StartPMCD(t, testbed.Options{})
	store := func(metric, value string) {
		if r := bed.Run("pmstore", "-h", bed.Host(), metric, value); r.Err != nil {
			t.Fatalf("pmstore %s %s: %v\n%s", metric, value, r.Err, r.Stderr)
		}
	}
	for _, c := range pcpCases {
		t.Run(c.name, func(t *testing.T) {
			res := bed.RunInput([]byte(c.script), bin, "host", bed.Host())
			if res.Err != nil {
				t.Fatalf("harness: %v\n%s", res.Err, res.Stderr)
			}
			g, err := Create(context.Background(), pmapi.KindHost, bed.Host())
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			ours := runScript(t, g, c.script, store)
			if d := diffTranscripts(res.Stdout, ours, c.tol); d != "" {
				t.Errorf("%s\nlibpcp:\n%s\ngopcp:\n%s", d, res.Stdout, ours)
			}
		})
	}
}

// diffTranscripts describes the first difference between two transcripts,
// numbers within tol of each other (relatively) counting as equal.
func diffTranscripts(want, got string, tol float64) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	if len(wl) != len(gl) {
		return fmt.Sprintf("%d lines from libpcp, %d from gopcp", len(wl), len(gl))
	}
	for i := range wl {
		if !sameLine(wl[i], gl[i], tol) {
			return fmt.Sprintf("line %d: libpcp %q, gopcp %q", i+1, wl[i], gl[i])
		}
	}
	return ""
}

func sameLine(a, b string, tol float64) bool {
	if a == b {
		return true
	}
	if tol == 0 {
		return false
	}
	af, bf := strings.Fields(a), strings.Fields(b)
	if len(af) != len(bf) {
		return false
	}
	for i := range af {
		if af[i] == bf[i] {
			continue
		}
		x, err1 := strconv.ParseFloat(strings.Trim(af[i], `"`), 64)
		y, err2 := strconv.ParseFloat(strings.Trim(bf[i], `"`), 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if math.Abs(x-y) > tol*math.Max(math.Abs(x), math.Abs(y))+1 {
			return false
		}
	}
	return true
}

// TestShowTranscripts prints libpcp's transcripts, for reading.
func TestShowTranscripts(t *testing.T) {
	if testing.Short() || !testing.Verbose() {
		t.Skip("verbose only")
	}
	bin := pcptest.Harness(t, "testdata/harness/fetchgroup.c")
	bed := testbed.StartPMCD(t, testbed.Options{})
	for _, c := range pcpCases {
		res := bed.RunInput([]byte(c.script), bin, "host", bed.Host())
		t.Logf("== %s\n%s%s", c.name, res.Stdout, res.Stderr)
	}
}
