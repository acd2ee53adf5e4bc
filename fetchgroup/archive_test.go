package fetchgroup

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pmapi"
)

// qaArchives holds PCP's QA archives (package pcp-testsuite).
const qaArchives = "/var/lib/pcp/testsuite/archives"

// archiveCase is one script run through libpcp's fetchgroups and through
// this package on the same archive. Archives replay the same values each
// time, so transcripts must be equal, timestamps included.
type archiveCase struct {
	name, archive, script string
}

var archiveCases = []archiveCase{
	{name: "counter rates forward", archive: "sample-secs", script: `
ts
item sample.milliseconds - - double
item sample.milliseconds - instant 64
item sample.milliseconds - rate float
item sample.milliseconds - sec/sec double
item sample.seconds - - u32
item sample.seconds - instant string
item sample.seconds - count/min double
item sample.seconds - kbyte 32
item sample.no.such - - 32
fetch
fetch
fetch
fetch
`},
	{name: "counter rates interpolated", archive: "sample-secs", script: `
mode interp 2.5
ts
item sample.milliseconds - - double
item sample.seconds - instant 64
item sample.seconds - - u64
fetch
fetch
fetch
fetch
mode interp 0.3
fetch
fetch
mode back
fetch
fetch
fetch
`},
	{name: "reading past the end", archive: "sample-secs", script: `
mode interp 20
ts
item sample.seconds - instant 64
fetch
fetch
fetch
fetch
fetch
fetch
`},
	{name: "instances that come and go", archive: "mirage", script: `
mode interp 30
ts
indom sample.mirage - 32 100
indom sample.mirage - string 3
indom sample.bin - u64 20
item sample.bin bin-500 - double
item sample.mirage m-00 - 32
item sample.mirage m-29 - 32
item sample.mirage no-such - 32
item sample.drift - - 64
item sample.drift - instant double
fetch
fetch
fetch
fetch
fetch
clear
mode forw
indom sample.mirage - 64 50
ts
fetch
fetch
fetch
`},
	{name: "scale and types", archive: "sample_expr", script: `
item sample.byte_ctr - - double
item sample.byte_ctr - kbyte/sec double
item sample.byte_ctr - instant string
item sample.kbyte_ctr - mbyte/hour float
item sample.byte_rate - - double
item sample.byte_rate - kbyte/min 64
item sample.byte_rate_perhour - byte/sec double
item sample.scale_step.time_up_nanosecs - - double
item sample.scale_step.time_up_secs - instant u64
item sample.scale_step.bytes_down - instant 32
item sample.scale_step.count_down - - double
item sample.mirage_longlong - - string
item sample.byte_ctr - count double
fetch
fetch
fetch
fetch
`},
	{name: "event fields", archive: "eventrec", script: `
ts
event sample.event.records fungus sample.event.param_string - string 10
event sample.event.records bogus sample.event.param_32 - 32 10
event sample.event.records fungus sample.event.type - u32 2
event sample.event.records fungus sample.event.param_double - double 10
event sample.event.no_indom_records - sample.event.param_u64 - u64 10
event sample.event.highres_records - sample.event.param_64 - 64 10
event sample.event.records nobody sample.event.param_32 - 32 4
item sample.colour red - 32
indom sample.colour - string 3
fetch
fetch
fetch
fetch
fetch
fetch
`},
	{name: "linux instance domains", archive: "20041125", script: `
mode interp 600
ts
indom kernel.percpu.cpu.user - double 8
indom kernel.percpu.cpu.sys - 64 8
indom network.interface.in.bytes - kbyte/sec double 16
indom network.interface.in.bytes - instant string 16
indom disk.dev.read - float 2
indom kernel.all.load - - float 3
item network.interface.in.bytes eth0 - double
item kernel.percpu.cpu.user cpu1 - 64
item kernel.all.load 15 - double
item mem.util.used - mbyte double
item mem.physmem - - string
item swap.pagesin - - u32
item kernel.all.pswitch - count/sec double
fetch
fetch
fetch
fetch
fetch
fetch
fetch
`},
	{name: "linux forward", archive: "20041125", script: `
ts
indom network.interface.in.bytes - double 16
item kernel.all.intr - - double
indom kernel.percpu.interrupts - 64 4
fetch
fetch
fetch
`},
	{name: "lookup failures and maximum", archive: "20041125", script: `
item no.such.metric - - 32
item kernel.percpu.cpu.user - - 32
item kernel.percpu.cpu.user cpu99 - 32
item mem.physmem cpu0 - 32
item pmcd.timezone - - 32
item pmcd.timezone - - string
item pmcd.version - kbyte string
item mem.physmem - junk-units 32
item mem.physmem - sec 32
item kernel.all.load - rate double
indom no.such - 32 4
indom kernel.percpu.cpu.user - 32 1
indom kernel.percpu.cpu.user - 32 0
indom network.interface.in.bytes - 64 2
indom network.interface.in.bytes - string 3
indom mem.physmem - 32 4
fetch
fetch
clear
item mem.physmem - - double
ts
fetch
`},
	{name: "gaps and duplicate names", archive: "gap", script: `
mode interp 1
ts
item sample.longlong.million - - double
item sample.dupnames.two.bin bin-100 - 32
indom sample.bin - 32 10
indom sample.dupnames.three.bin - string 10
item hinv.ncpu - - 32
item proc.nprocs - - u32
item pmcd.pdu_in.total - - double
fetch
fetch
fetch
fetch
fetch
fetch
fetch
fetch
fetch
fetch
fetch
fetch
`},
	// a directory of four archives: a fetch past their end has no
	// values while libpcp still reads in an earlier archive, and fails
	// with PM_ERR_EOL only from the last one
	{name: "several archives past their end", archive: "multi", script: `
mode interp 15000
ts
item kernel.all.cpu.user - - double
item mem.util.free - - u64
item kernel.all.load - - float
fetch
fetch
fetch
mode interp 400
fetch
fetch
fetch
fetch
fetch
fetch
`},
	{name: "several archives forward past their end", archive: "multi", script: `
mode forw 0
ts
item kernel.all.cpu.user - - double
item kernel.all.load - - float
item kernel.all.load 5 - double
` + strings.Repeat("fetch\n", 60)},
	{name: "several archives backward past their start", archive: "multi", script: `
mode back 0
ts
item kernel.all.cpu.user - - double
item mem.util.free - - u64
` + strings.Repeat("fetch\n", 60)},
	{name: "several archives interpolated backward past their start", archive: "multi", script: `
mode back 0
mode interp 3000
ts
item kernel.all.cpu.user - - double
item mem.util.free - - u64
fetch
fetch
` + strings.Repeat("fetch\n", 12)},
	{name: "several compressed archives past their end", archive: "multi-xz", script: `
mode interp 7200
ts
item kernel.all.cpu.user - - double
item kernel.all.load - - float
` + strings.Repeat("fetch\n", 12)},
	{name: "an archive list past its end", archive: "multi/20150508.11.50,multi/20150508.11.44,multi/20150508.11.57", script: `
mode interp 9000
ts
item kernel.all.cpu.user - - double
item mem.util.free - - u64
` + strings.Repeat("fetch\n", 10)},
}

func TestArchivesAgainstLibpcp(t *testing.T) {
	bin := pcptest.Harness(t, "testdata/harness/fetchgroup.c")
	for _, c := range archiveCases {
		t.Run(c.name, func(t *testing.T) {
			var paths []string
			for _, a := range strings.Split(c.archive, ",") {
				paths = append(paths, filepath.Join(qaArchives, a))
			}
			path := strings.Join(paths, ",")
			if _, err := os.Stat(paths[0] + ".meta"); err != nil && !isDir(paths[0]) {
				pcptest.Missing(t, "QA archive "+c.archive+": "+err.Error())
			}
			want := pcptest.Run(t, c.script, bin, "archive", path)
			g, err := Create(context.Background(), pmapi.KindArchive, path)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			got := runScript(t, g, c.script, nil)
			if d := diffTranscripts(want, got, 0); d != "" {
				t.Errorf("%s\nlibpcp:\n%s\ngopcp:\n%s", d, want, got)
			}
		})
	}
}

// isDir reports a directory, which names every archive in it.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
