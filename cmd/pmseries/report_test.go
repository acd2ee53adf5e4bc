package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestReportOptionsMatchPCP asks PCP's pmseries and ours the reports
// and listings of every option and their combinations over one Redis
// holding two archives loaded by PCP's pmseries: -g globs (fnmatch's,
// '/' and brackets included) on each listing, -n's label names for
// metrics and instances, -w windows and their refusals, -S with sources,
// -d of identifiers without a descriptor, the usage refusals; output
// and exit status byte for byte.
func TestReportOptionsMatchPCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	srv := redistest.Start(t)
	for _, a := range []string{"sample-labels", "20041125"} {
		loadPCP(t, bin, conf, srv.Port, filepath.Join(qaArchives, a))
	}
	first := func(args ...string) string {
		f := strings.Fields(runPCP(t, bin, conf, srv.Port, args...))
		if len(f) == 0 || !isSID(f[0]) {
			t.Fatalf("pmseries %q: %q", args, f)
		}
		return f[0]
	}
	colour, mirage, rapid := first("sample.colour"), first("sample.mirage"), first("sample.rapid")
	load := first("kernel.all.load")
	inst := strings.Fields(strings.SplitN(runPCP(t, bin, conf, srv.Port, "-i", colour), "series ", 2)[1])[0]
	src := ""
	for _, f := range strings.Fields(runPCP(t, bin, conf, srv.Port, "-s", colour)) {
		if isSID(f) && f != colour {
			src = f
		}
	}
	src2 := ""
	for _, f := range strings.Fields(runPCP(t, bin, conf, srv.Port, "-s", load)) {
		if isSID(f) && f != load {
			src2 = f
		}
	}
	cases := []string{
		"-n", "-l", "-n -l", "-n -i", "-a -n", "-n -s", "-d -S", "-S -l", "-S -m", "-S", "-i -l", "-m -i -S",
		"-m -g sample.*", "-m -g *.all.*", "-m -g kernel.[a-m]*", "-m -g [!k]*", "-m -g *[[:digit:]]*",
		"-m -g nosuch", "-i -g b*", "-i -g ?", "-i -g cpu[01]_intr1[25]*", "-l -g h*", "-l -g *t",
		"-S -g *sample*", "-S -g /var/*", "-S -g *", "-S -l -g [sm]*", "-n -g r*", "-i -n -g ram1*",
		"-v -g a* agent", "-g x " + colour, "-m -g sample.c* " + colour,
		"-n " + colour, "-n -l " + colour, "-n -i " + colour, "-a -n " + colour, "-n -s " + colour,
		"-n " + colour + "," + mirage, "-n -m " + colour + " " + mirage, "-n " + rapid, "-l " + rapid,
		"-n " + load, "-n " + inst, "-a " + rapid, rapid + " " + colour, "-a " + rapid + "," + colour,
		"-s " + colour, "-S " + colour, "-M " + colour, "-I " + colour, "-i -S " + colour,
		"-d " + inst, "-a " + inst, "-s " + inst, "-M -I " + inst, "-d " + src, "-d -S " + src,
		"-S " + src + "," + src2, "-S " + src + " " + src2, "-S -g *sample* " + src, "-m -S " + src,
		"-w samples:2 " + colour, "-w samples:1 sample.colour", "-w [samples:1] " + colour + "," + mirage,
		"-w samples:1,interval:1 " + colour, "-w samples:1 -d " + colour, "-t -w samples:1 " + colour,
		"-w samples:3 " + load, "-w samples:1 " + colour + " " + load,
		"-w bogus:1 " + colour, "-w start:bogus " + colour, "-w samples:1,samples:2 " + colour,
		"-w sample.colour " + colour, "-w [] " + colour, "-w interval:1min,samples:2 " + load, "-Z EST5EDT -w samples:1 " + colour,
		"-v agent,role hostname", "-v nosuch", "-F -m " + colour,
		"-a", "-s", "-d", "-q", "-v", "-w samples:1", "-x", "-w samples:1 -q " + colour, "-L -n x", "-q -n x",
		"sample.colour sample.mirage", "-q sample.colour sample.mirage",
	}
	asks := make([][]string, 0, len(cases)+2)
	for _, c := range cases {
		asks = append(asks, strings.Fields(c))
	}
	// an empty glob, which matches nothing; -Z governing the times a
	// query or a window reads (the archive's last samples are at 23:31
	// UTC); -e, which PCP's getopt takes and refuses without a word
	asks = append(asks, []string{"-m", "-g", ""}, []string{"-S", "-l", "-g", ""},
		[]string{"-Z", "EST5EDT", `sample.colour[start:"2020-01-27 23:31:51",samples:2]`},
		[]string{"-Z", "EST5EDT", `sample.colour[start:"2020-01-27 18:31:51",samples:2]`},
		[]string{"-Z", "EST5EDT", "-w", `start:"2020-01-27 18:31:51",samples:2`, colour},
		[]string{"-w", `start:"2020-01-27 23:31:51",samples:2`, colour},
		[]string{"-e"}, []string{"-e", "-m"},
		// query globs are fnmatch's: '*' crosses the '/' of source paths
		[]string{`sample.colour{source.name:"*sample*"}`}, []string{`sample.colour{source.name~~"/var/*"}`},
		[]string{`kernel.all.load{source.name:"*2004*"}`}, []string{`sample.colour{instance.name~~"[rg"}`},
		[]string{`sample.c[ol]lour`}, []string{`sample.colour{instance.name~~"[!r]*"}`})
	same := 0
	for _, args := range asks {
		c := strings.Join(args, " ")
		want := pcpAnswer(t, bin, conf, srv.Port, args...)
		got := ourAnswer(conf, srv.Port, args...)
		if got != want {
			t.Errorf("pmseries %s:\nPCP's:\n%s\nours:\n%s", c, want, got)
			continue
		}
		same++
	}
	t.Logf("%d of %d option combinations answered alike by PCP's pmseries and ours", same, len(asks))

	// listings of maps too large for Redis's compact encoding, whose
	// own order (libpcp_web's HVALS) is not their HSCAN order
	big := redistest.Start(t)
	loadPCP(t, bin, conf, big.Port, filepath.Join(qaArchives, "20180102"))
	for _, args := range [][]string{{"-i"}, {"-i", "-g", "*[0-9]"}, {"-m"}, {"-l", "-i", "-m"}} {
		if want, got := pcpAnswer(t, bin, conf, big.Port, args...), ourAnswer(conf, big.Port, args...); got != want {
			t.Errorf("pmseries %q over 20180102:\nPCP's:\n%s\nours:\n%s", args, clipText(want), clipText(got))
		}
	}
}

func clipText(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// pcpAnswer is PCP's pmseries' exit status, standard output and standard
// error, run in UTC.
func pcpAnswer(t *testing.T, bin, conf string, port int, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"-c", conf, "-p", strconv.Itoa(port)}, args...)...)
	cmd.Env = append(cmd.Environ(), "TZ=UTC")
	out, errOut, code := clitest.RunCmd(t, cmd)
	return fmt.Sprintf("exit %d\nstdout:\n%sstderr:\n%s", code, out, errOut)
}

// ourAnswer is pcpAnswer for ours, run in this process.
func ourAnswer(conf string, port int, args ...string) string {
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"pmseries", "-c", conf, "-p", strconv.Itoa(port)}, args...), &out, &errOut)
	return fmt.Sprintf("exit %d\nstdout:\n%sstderr:\n%s", code, out.String(), errOut.String())
}
