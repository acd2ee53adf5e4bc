package derive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// hostSource is the adapter pmapi's host contexts need to be a Base.
type hostSource struct{ *pmapi.HostContext }

func (h hostSource) Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) error {
	_, err := h.HostContext.Fetch(ctx, pmids, r)
	return err
}

// volatile names the sample metrics whose values change from one fetch
// to the next, so that only their metadata can be compared.
var volatile = regexp.MustCompile(`colour|byte_ctr|byte_rate|seconds|milliseconds|mirage|drift|load|step|darkness|datasize|magnitude|kbyte_rate|sysinfo|ulonglong\.bin`)

// conformanceCases reads testdata/cases.txt: the expressions, their
// names, a configuration file defining them, and the names whose values
// are stable enough to compare.
func conformanceCases(t *testing.T) (exprs, names, stable []string, conf string) {
	for _, line := range readLines(t, "testdata/cases.txt") {
		if line == "" || line[0] == '#' {
			continue
		}
		name := fmt.Sprintf("c.m%03d", len(exprs))
		broken := line[0] == '!'
		line = strings.TrimPrefix(line, "!")
		exprs = append(exprs, line)
		if broken {
			continue
		}
		names = append(names, name)
		if !volatile.MatchString(line) {
			stable = append(stable, name)
		}
	}
	var b strings.Builder
	for i, e := range exprs {
		fmt.Fprintf(&b, "c.m%03d = %s\n", i, e)
	}
	conf = filepath.Join(t.TempDir(), "cases.conf")
	if err := os.WriteFile(conf, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return exprs, names, stable, conf
}

// pcpPminfo runs PCP's pminfo with the definitions of conf.
func pcpPminfo(t *testing.T, p *testbed.PMCD, conf string, args ...string) (string, string) {
	t.Helper()
	cmd, err := p.Command(context.Background(), "pminfo", append([]string{"-b", "1", "-h", p.Host()}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(cmd.Env, "PCP_DERIVED_CONFIG="+conf)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run() // pminfo exits 1 when a name is unknown
	return out.String(), errb.String()
}

// ourPminfo prints what pminfo -b 1 prints for names (-d, -f, or both)
// with derive over a pmapi host context.
func ourPminfo(t *testing.T, host, conf string, desc, values bool, names []string) (string, string) {
	t.Helper()
	ctx := context.Background()
	var out, errb strings.Builder
	reg := NewRegistry()
	reg.Warn = func(m string) { errb.WriteString(m) }
	if _, err := reg.LoadConfig(conf); err != nil {
		t.Fatal(err)
	}
	pc, err := pmapi.NewHostContext(ctx, host)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	dc := NewLayer(hostSource{pc}, reg)
	for _, arg := range names {
		leaves, err := dc.Traverse(ctx, arg)
		if err != nil {
			fmt.Fprintf(&errb, "Error: %s: %s\n", arg, errText(err))
			continue
		}
		for _, name := range leaves {
			pmids, err := dc.LookupNames(ctx, []string{name})
			if err != nil {
				fmt.Fprintf(&errb, "Error: %s: %s\n", name, errText(err))
				continue
			}
			d, err := dc.LookupDesc(ctx, pmids[0])
			if err != nil {
				fmt.Fprintf(&out, "\n%s: pmLookupDesc: %s\n", name, errText(err))
				continue
			}
			fmt.Fprintf(&out, "\n%s\n", name)
			if desc {
				printDesc(&out, d)
			}
			if values {
				var r pcp.Result
				if err := dc.Fetch(ctx, pmids, &r); err != nil {
					t.Fatalf("fetch %s: %v", name, err)
				}
				dumpValues(ctx, &out, pc, d, &r.Sets[0])
			}
		}
	}
	return out.String(), errb.String()
}

func errText(err error) string {
	var code pcp.Error
	if errors.As(err, &code) {
		return code.Error()
	}
	return err.Error()
}

var typeNames = map[pcp.Type]string{
	pcp.Type32: "32-bit int", pcp.TypeU32: "32-bit unsigned int", pcp.Type64: "64-bit int",
	pcp.TypeU64: "64-bit unsigned int", pcp.TypeFloat: "float", pcp.TypeDouble: "double",
	pcp.TypeString: "string", pcp.TypeAggregate: "aggregate", pcp.TypeAggregateStatic: "static aggregate",
	pcp.TypeEvent: "event record array", pcp.TypeHighResEvent: "highres event record array",
}

func printDesc(out *strings.Builder, d pcp.Desc) {
	fmt.Fprintf(out, "    Data Type: %s  InDom: %s 0x%x\n", typeNames[d.Type], d.InDom, uint32(d.InDom))
	units := d.Units.String()
	if units == "" {
		units = "none"
	}
	fmt.Fprintf(out, "    Semantics: %s  Units: %s\n", d.Sem, units)
}

func dumpValues(ctx context.Context, out *strings.Builder, pc *pmapi.HostContext, d pcp.Desc, vs *pcp.ValueSet) {
	switch {
	case vs.NumVal == 0:
		out.WriteString("No value(s) available!\n")
		return
	case vs.NumVal < 0:
		fmt.Fprintf(out, "Error: %s\n", pcp.ErrorText(vs.NumVal))
		return
	}
	for j := range vs.Values {
		v := &vs.Values[j]
		if d.InDom != pcp.InDomNull {
			name, err := pc.NameInDom(ctx, d.InDom, v.Inst)
			if err != nil {
				name = "?"
			}
			fmt.Fprintf(out, "    inst [%d or \"%s\"]", v.Inst, name)
		} else {
			out.WriteString("   ")
		}
		fmt.Fprintf(out, " value %s\n", pcp.FormatValue(vs.ValFmt, d.Type, v, 1))
	}
}

// TestConformance compares pminfo -d (every case) and pminfo -f (the
// cases over stable values) of PCP's libpcp with the same through derive
// and pmapi, against golden output captured from PCP and against PCP live.
func TestConformance(t *testing.T) {
	exprs, names, stable, conf := conformanceCases(t)
	p := testbed.StartPMCD(t, testbed.Options{})
	golden := "testdata/cases.golden"
	sep := "\n==== %s ====\n"
	render := func(dOut, dErr, fOut, fErr string) string {
		return fmt.Sprintf(sep, "pminfo -d stdout") + dOut + fmt.Sprintf(sep, "pminfo -d stderr") + dErr +
			fmt.Sprintf(sep, "pminfo -f stdout") + fOut + fmt.Sprintf(sep, "pminfo -f stderr") + fErr
	}
	dOut, dErr := pcpPminfo(t, p, conf, append([]string{"-d"}, names...)...)
	fOut, fErr := pcpPminfo(t, p, conf, append([]string{"-f"}, stable...)...)
	// configuration errors name the file, which lives in a temporary
	// directory
	live := strings.ReplaceAll(render(dOut, dErr, fOut, fErr), conf, "cases.conf")
	if *update {
		if err := os.WriteFile(golden, []byte(live), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != live {
		t.Errorf("PCP's output differs from %s: regenerate with UPDATE_GOLDEN=1", golden)
	}
	odOut, odErr := ourPminfo(t, p.Host(), conf, true, false, names)
	ofOut, ofErr := ourPminfo(t, p.Host(), conf, false, true, stable)
	got := strings.ReplaceAll(render(odOut, odErr, ofOut, ofErr), conf, "cases.conf")
	if got != string(want) {
		diffReport(t, exprs, string(want), got)
	}
	t.Logf("%d cases: pminfo -d on all, pminfo -f on %d", len(exprs), len(stable))
}

// diffReport shows the first lines where two outputs part.
func diffReport(t *testing.T, exprs []string, want, got string) {
	t.Helper()
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	shown := 0
	for i := 0; i < max(len(wl), len(gl)) && shown < 15; i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("line %d:\n got: %s\nwant: %s", i+1, g, w)
			shown++
		}
	}
	if shown == 0 {
		t.Errorf("outputs differ")
	}
}
