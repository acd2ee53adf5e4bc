// Command pmprobe is PCP's pmprobe(1): for each metric it reports the
// number of values a fetch returns (or the error), and with -v the
// values, with -i/-I the instances, from a pmcd or from in-process agents
// (-L, -K), printing what PCP 6.0.3's pmprobe prints, character for
// character, with its messages and exit codes. -V counts the PDUs
// exchanged with pmcd. From archives (-a) each metric is fetched from the
// window's origin (-S, -O) as PCP's pmprobe does.
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
	cli.Signals()
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// flags are pmprobe's own options.
type flags struct {
	batch                     int
	force, faster, internal   bool
	external, verbose, values bool
	version                   bool
}

func command(f *flags) *cli.Command {
	return &cli.Command{
		Name:  "pmprobe",
		Usage: "[options] [metricname ...]",
		Options: []cli.Option{
			cli.Header("General options"),
			cli.OptArchive, cli.OptDebug, cli.OptHost, cli.OptContainer,
			cli.OptDerived, cli.OptLocalPMDA, cli.OptSpecLocal, cli.OptNamespace,
			cli.OptOrigin, cli.OptTimezone, cli.OptHostZone,
			// pmprobe lists -d for its version but its getopt string
			// lacks the letter, so only --version works
			{Long: "version", Short: 'd', Help: "display version number and exit", LongOnly: true},
			cli.OptHelp,
			cli.Header("Protocol options"),
			{Long: "batch", Short: 'b', Arg: "N", Help: "fetch at most N metrics at a time [128]"},
			cli.Header("Reporting options"),
			{Long: "force", Short: 'f', Help: "report all pmGetIndom or pmGetInDomArchive instances"},
			{Long: "faster", Short: 'F', Help: "assume given metric names are PMNS leaf nodes"},
			{Long: "external", Short: 'I', Help: "list external instance names"},
			{Long: "internal", Short: 'i', Help: "list internal instance numbers"},
			{Long: "verbose", Short: 'V', Help: "report PDU operations (verbose)"},
			{Long: "values", Short: 'v', Help: "list metric values"},
			// in the getopt string but handled by no case: a usage error
			// without a message
			{Short: 'e'},
		},
		Handle: f.handle,
	}
}

func (f *flags) handle(o cli.Option, arg string, p *cli.Parsed) {
	switch o.Short {
	case 'b':
		n, ok := cli.Strtol(arg)
		f.batch = int(int32(n))
		if !ok {
			p.Errorf("-b requires numeric argument")
		}
	case 'f':
		f.force = true
	case 'i':
		if f.values {
			p.Errorf("at most one of -i and -v allowed")
		}
		f.internal = true
	case 'I':
		if f.values {
			p.Errorf("at most one of -I and -v allowed")
		}
		f.external = true
	case 'F':
		f.faster = true
	case 'd':
		p.Messages = append(p.Messages, fmt.Sprintf("%s version %s\n", p.Progname(), cli.Version))
		p.Exit = true
	case 'V':
		f.verbose = true
	case 'v':
		if f.internal || f.external {
			p.Errorf("at most one of -v and (-i or -I) allowed")
		}
		f.values = true
	default:
		p.Errors++
	}
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	f := &flags{batch: 128}
	cmd := command(f)
	p := cli.Parse(cmd, argv)
	if p.Errors > 0 || p.Exit {
		fmt.Fprint(stderr, p.Report(cmd))
		if p.Exit {
			return 0
		}
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	prog := p.Progname()

	kind := p.Kind()
	source := p.Source("local:")
	src, err := p.NewSource(ctx, kind, source)
	if err != nil {
		out.Flush()
		switch kind {
		case pmapi.KindLocal:
			fmt.Fprintf(stderr, "%s: Cannot make standalone connection on localhost: %s\n", prog, pcp.TextOf(err))
		case pmapi.KindArchive:
			fmt.Fprintf(stderr, "%s: Cannot open archive \"%s\": %s\n", prog, source, pcp.TextOf(err))
		default:
			var hs *pmapi.HostSpecError
			if errors.As(err, &hs) {
				fmt.Fprintf(stderr, "pmNewContext: bad host specification\n%s", hs.Report())
			}
			fmt.Fprintf(stderr, "%s: Cannot connect to PMCD on host \"%s\": %s\n", prog, source, pcp.TextOf(err))
		}
		return 1
	}
	defer src.Close()
	pr := &prober{f: f, src: p.WithDerived(src, stderr), out: out, lastInDom: noInDom}
	if ac, ok := src.(*pmapi.ArchiveContext); ok {
		if !pr.archiveOptions(ctx, p, ac, stderr) {
			return 1
		}
	}
	pr.probe(ctx, p.Args)
	if f.verbose {
		var out, in [pmapi.NumPDUTypes]uint64
		if c, ok := src.(interface {
			PDUCounts() (out, in [pmapi.NumPDUTypes]uint64)
		}); ok {
			out, in = c.PDUCounts()
		}
		pr.pduCounts(out, in)
	}
	if pr.stuck != "" {
		out.Flush()
		fmt.Fprintf(stderr, "%s: cannot look up %s: no batch of at most %d names holds it\n", prog, pr.stuck, f.batch)
		return 1
	}
	return 0
}
