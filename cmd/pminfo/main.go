// Command pminfo is PCP's pminfo(1) for live hosts: it lists metric names
// and prints their PMIDs, descriptors, help text, labels, series
// identifiers and values (event records unpacked with -x) as PCP 6.0.3's
// pminfo does, character for character, with its messages and exit codes.
//
// Not yet implemented, and reported in PCP's words as such: archives (-a),
// local PMDA contexts (-L, -K) and derived metric definitions (-c,
// --derived; a missing file fails as in PCP). Time zone options are
// accepted and checked but have no effect on a live host.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	f := &flags{batch: 128}
	cmd := command(f)
	p := cli.Parse(cmd, argv)
	if done, code := p.Done(); done {
		// libpcp's own stderr writes, then what pmprintf gathered
		fmt.Fprint(stderr, p.Report(cmd))
		return code
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	errw := &flushFirst{out: out, w: stderr}
	prog := p.Progname()

	for _, d := range f.derived {
		// derived metrics are not implemented: a missing file fails as in
		// PCP, any other is refused as not yet implemented
		text := pcp.ErrorText(int32(pcp.ErrNYI))
		if _, err := os.Stat(d); err != nil {
			text = "No such file or directory"
		}
		fmt.Fprintf(errw, "%s: derived configuration(s) error: %s\n", prog, text)
	}
	if f.batch < 0 {
		fmt.Fprintf(errw, "%s: namelist malloc: Cannot allocate memory\n", prog)
		return 1
	}
	if p.Context != cli.ContextNone {
		f.needContext = true
	}
	if p.Namespace == nil {
		f.needContext = true
	}
	if f.verify {
		f.desc, f.mid, f.fullMid, f.help, f.oneline = false, false, false, false, false
		f.value, f.force, f.label = false, false, false
	}
	r := &reporter{f: f, out: out, errw: errw, prog: prog, batch: f.batch,
		icacheInDom: pcp.InDomNull, labels: newLabelCache()}
	if p.Namespace != nil {
		r.names = withAnon{treeNames{p.Namespace}}
	}
	if f.needContext {
		var spec string
		switch p.Context {
		case cli.ContextArchive:
			fmt.Fprintf(errw, "%s: Cannot open archive \"%s\": %s\n", prog, p.Archives[0], pcp.ErrorText(int32(pcp.ErrNYI)))
			return 1
		case cli.ContextLocal:
			fmt.Fprintf(errw, "%s: Cannot make standalone connection on localhost: %s\n", prog, pcp.ErrorText(int32(pcp.ErrNYI)))
			return 1
		case cli.ContextHost:
			spec = p.Hosts[0]
			r.host = true
		default:
			spec = "local:"
			r.host = true
		}
		var opts []pmapi.Option
		if p.Namespace != nil {
			opts = append(opts, pmapi.WithNamespace(p.Namespace))
		}
		source := spec
		if p.Container != "" {
			spec = withContainer(spec, p.Container)
		}
		c, err := pmapi.NewHostContext(ctx, spec, opts...)
		if err != nil {
			var hs *pmapi.HostSpecError
			if errors.As(err, &hs) {
				fmt.Fprintf(errw, "pmNewContext: bad host specification\n%s", hs.Report())
			}
			fmt.Fprintf(errw, "%s: Cannot connect to PMCD on host \"%s\": %s\n", prog, source, cli.ErrText(err))
			return 1
		}
		defer c.Close()
		r.c = c
		r.names = withAnon{c}
	}
	return r.main(ctx, p.Args)
}

// flushFirst writes to stderr after flushing what stdout holds, so that the
// two interleave on a terminal as PCP's line-buffered output does.
type flushFirst struct {
	out *bufio.Writer
	w   io.Writer
}

func (f *flushFirst) Write(b []byte) (int, error) {
	f.out.Flush()
	return f.w.Write(b)
}

// withContainer adds --container's attribute to a host specification.
func withContainer(spec, name string) string {
	for i := 0; i < len(spec); i++ {
		if spec[i] == '?' {
			return spec + "&container=" + name
		}
	}
	return spec + "?container=" + name
}
