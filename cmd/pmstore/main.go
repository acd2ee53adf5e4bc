// Command pmstore is PCP's pmstore(1): it changes the value of a metric
// (all its instances, or those -i names) through a pmcd or in-process
// agents (-L, -K), printing the old and new values, its messages and exit
// codes as PCP 6.0.3's pmstore does, character for character. -F fetches
// the metric again to show the value the agent kept, -f stores even when
// the metric has no value now.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

func main() {
	cli.Signals()
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

type flags struct {
	force, fetch bool
	insts        []string
}

func command(f *flags) *cli.Command {
	return &cli.Command{
		Name:  "pmstore",
		Usage: "[options] metricname value",
		POSIX: true,
		Options: []cli.Option{
			cli.Header("General options"),
			cli.OptDebug, cli.OptHost, cli.OptLocalPMDA, cli.OptSpecLocal,
			cli.OptNamespace, cli.OptVersion, cli.OptHelp,
			cli.Header("Value options"),
			{Long: "fetch", Short: 'F', Help: "perform pmFetch after pmStore to confirm value"},
			{Long: "force", Short: 'f', Help: "store the value even if there is no current value set"},
			{Long: "insts", Short: 'i', Arg: "INSTS", Help: "restrict store to comma-separated list of instances"},
		},
		Handle: f.handle,
	}
}

func (f *flags) handle(o cli.Option, arg string, p *cli.Parsed) {
	switch o.Short {
	case 'f':
		f.force = true
	case 'F':
		f.fetch = true
	case 'i':
		// strtok on commas and blanks: empty names vanish
		f.insts = append(f.insts, strings.FieldsFunc(arg, func(r rune) bool {
			return r == ',' || r == ' ' || r == '\t' || r == '\n'
		})...)
	}
}

// exitError ends the run with a message already written and status 1.
type exitError struct{}

func (exitError) Error() string { return "exit 1" }

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	f := &flags{}
	cmd := command(f)
	p := cli.Parse(cmd, argv)
	if p.Errors > 0 || p.Exit || len(p.Args) != 2 {
		if len(p.Args) != 2 && !p.Exit {
			p.Errors++
		}
		fmt.Fprint(stderr, p.Report(cmd))
		if p.Exit {
			return 0
		}
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	errw := &flushFirst{out: out, w: stderr}
	s := &storer{f: f, out: out, errw: errw, prog: p.Progname()}
	if err := s.run(ctx, p); err != nil {
		return 1
	}
	return 0
}

// flushFirst writes to stderr after flushing stdout, keeping the order a
// terminal would show.
type flushFirst struct {
	out *bufio.Writer
	w   io.Writer
}

func (f *flushFirst) Write(b []byte) (int, error) {
	f.out.Flush()
	return f.w.Write(b)
}

type storer struct {
	f    *flags
	out  *bufio.Writer
	errw io.Writer
	prog string
}

func (s *storer) fail(w io.Writer, format string, args ...any) error {
	fmt.Fprintf(w, format, args...)
	return exitError{}
}

func (s *storer) run(ctx context.Context, p *cli.Parsed) error {
	kind := p.Kind()
	source := p.Source("local:")
	if kind == pmapi.KindArchive {
		// pmstore takes no archive: one named by $PCP_ARCHIVE leaves it
		// on the local pmcd, as PCP's pmstore does
		kind, source = pmapi.KindHost, "local:"
	}
	src, err := p.NewSource(ctx, kind, source)
	if err != nil {
		if kind == pmapi.KindLocal {
			return s.fail(s.errw, "%s: Cannot make standalone local connection: %s\n", s.prog, pcp.TextOf(err))
		}
		var hs *pmapi.HostSpecError
		if errors.As(err, &hs) {
			fmt.Fprintf(s.errw, "pmNewContext: bad host specification\n%s", hs.Report())
		}
		return s.fail(s.errw, "%s: Cannot connect to PMCD on host \"%s\": %s\n", s.prog, source, pcp.TextOf(err))
	}
	defer src.Close()
	src = p.WithDerived(src, s.errw)
	name, value := p.Args[0], p.Args[1]

	pmid, err := src.LookupName(ctx, name)
	if err != nil {
		return s.fail(s.out, "%s: pmLookupName: %s\n", name, pcp.TextOf(err))
	}
	desc, err := src.LookupDesc(ctx, pmid)
	if err != nil {
		return s.fail(s.out, "%s: pmLookupDesc: %s\n", name, pcp.TextOf(err))
	}
	switch desc.Type {
	case pcp.TypeAggregate, pcp.TypeAggregateStatic:
		return s.fail(s.errw, "%s: Cannot modify values for PM_TYPE_AGGREGATE metrics\n", s.prog)
	case pcp.TypeEvent, pcp.TypeHighResEvent:
		return s.fail(s.errw, "%s: Cannot modify values for event type metrics\n", s.prog)
	}
	if len(s.f.insts) > 0 {
		_ = src.DelProfile(desc.InDom, nil)
		for _, in := range s.f.insts {
			n, err := src.LookupInDom(ctx, desc.InDom, in)
			if err != nil {
				return s.fail(s.out, "pmLookupInDom %s[%s]: %s\n", name, in, pcp.TextOf(err))
			}
			if err := src.AddProfile(desc.InDom, []int32{n}); err != nil {
				return s.fail(s.out, "pmAddProfile %s[%s]: %s\n", name, in, pcp.TextOf(err))
			}
		}
	}
	var old pcp.Result
	if _, err := src.Fetch(ctx, []pcp.PMID{pmid}, &old); err != nil {
		return s.fail(s.out, "%s: pre pmFetch: %s\n", name, pcp.TextOf(err))
	}
	ovs := &old.Sets[0]
	if ovs.NumVal < 0 {
		return s.fail(s.out, "%s: Error: %s\n", name, pcp.ErrorText(ovs.NumVal))
	}
	atom, err := pmapi.StringValue(value, desc.Type)
	if err != nil {
		return s.convError(value, desc.Type, err)
	}
	store := pcp.ValueSet{PMID: ovs.PMID, NumVal: ovs.NumVal, ValFmt: ovs.ValFmt}
	for _, v := range ovs.Values {
		store.Values = append(store.Values, pcp.Value{Inst: v.Inst})
	}
	forced := false
	if ovs.NumVal == 0 {
		if !s.f.force {
			return s.fail(s.out, "%s: No value(s) available!\n", name)
		}
		// no value now: store one for the null instance, as PCP does
		store.NumVal = 1
		store.Values = []pcp.Value{{Inst: pcp.InstNull}}
		forced = true
	}
	for i := range store.Values {
		v, vf, err := pmapi.StuffValue(atom, desc.Type, store.Values[i].Inst)
		if err != nil {
			return s.fail(s.errw, "%s: cannot convert string value \"%s\": %s\n", s.prog, value, pcp.TextOf(err))
		}
		store.Values[i], store.ValFmt = v, vf
	}
	storeRes := &pcp.Result{Timestamp: old.Timestamp, Sets: []pcp.ValueSet{store}}
	if err := src.Store(ctx, storeRes); err != nil {
		return s.fail(s.out, "%s: new value=\"%s\" pmStore: %s\n", name, value, pcp.TextOf(err))
	}
	nvs := &storeRes.Sets[0]
	if s.f.fetch {
		var now pcp.Result
		if _, err := src.Fetch(ctx, []pcp.PMID{pmid}, &now); err != nil {
			return s.fail(s.out, "%s: post pmFetch: %s\n", name, pcp.TextOf(err))
		}
		nvs = &now.Sets[0]
	}
	for i := range nvs.Values {
		nv := &nvs.Values[i]
		s.out.WriteString(name)
		if desc.InDom != pcp.InDomNull {
			if iname, err := src.NameInDom(ctx, desc.InDom, nv.Inst); err != nil {
				fmt.Fprintf(s.out, " inst [%d]", nv.Inst)
			} else {
				fmt.Fprintf(s.out, " inst [%d or \"%s\"]", nv.Inst, iname)
			}
		}
		s.out.WriteString(" old value=")
		if forced || i >= len(ovs.Values) {
			s.out.WriteString(`"(none)"`)
		} else {
			s.out.WriteString(pcp.FormatValue(ovs.ValFmt, desc.Type, &ovs.Values[i], 1))
		}
		s.out.WriteString(" new value=")
		s.out.WriteString(pcp.FormatValue(nvs.ValFmt, desc.Type, nv, 1))
		s.out.WriteByte('\n')
	}
	return nil
}

// convError reports a value that does not convert to the metric's type,
// in mkAtom's words.
func (s *storer) convError(value string, t pcp.Type, err error) error {
	switch {
	case errors.Is(err, pcp.ErrType):
		return s.fail(s.errw, "The value \"%s\" is incompatible with the data type (PM_TYPE_%s)\n", value, t)
	case errors.Is(err, pcp.Error(-int32(syscall.ERANGE))):
		return s.fail(s.errw, "The value \"%s\" is out of range for the data type (PM_TYPE_%s)\n", value, t)
	}
	return s.fail(s.errw, "%s: cannot convert string value \"%s\": %s\n", s.prog, value, pcp.TextOf(err))
}
