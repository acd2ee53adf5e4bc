// Command pmlogcheck is PCP's pmlogcheck(1): it reports damage in a PCP
// archive in pmlogcheck's words (package pmlogger/logcheck does the
// checking); -v says what it checks, -m skips the data volumes, -l prints
// the label, -S/-T (and -O/-A) bound the records pass 3 reads, -z/-Z
// choose the zone of the times.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/pcptz"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmlogger/logcheck"
	"github.com/gopcp/gopcp/pmns"
)

func main() {
	cli.Signals()
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

func command(opt *logcheck.Options) *cli.Command {
	return &cli.Command{
		Name:  "pmlogcheck",
		Usage: "[options] archive",
		// PM_OPTFLAG_DONE: the archive operand is the source, so the
		// checks of -z and the time window wait for it
		DeferEnd: true,
		Options: []cli.Option{
			cli.Header("Options"),
			cli.OptDebug,
			{Long: "label", Short: 'l', Help: "print the archive label"},
			{Long: "metadataonly", Short: 'm', Help: "skip checking log data volumes"},
			cli.OptNamespace,
			cli.OptStart,
			cli.OptFinish,
			{Long: "verbose", Short: 'v', Help: "verbose output"},
			{Long: "nowrap", Short: 'w', Help: "suppress counter wrap warnings"},
			cli.OptTimezone,
			cli.OptHostZone,
			cli.OptHelp,
		},
		Handle: func(o cli.Option, arg string, p *cli.Parsed) {
			switch o.Short {
			case 'l':
				opt.Label = true
			case 'm':
				opt.MetadataOnly = true
			case 'v':
				opt.Verbose++
			case 'w':
				opt.NoWrap = true
			}
		},
	}
}

func run(argv []string, stdout, stderr io.Writer) int {
	opt := logcheck.Options{}
	cmd := command(&opt)
	p := cli.Parse(cmd, argv)
	if p.Errors == 0 && !p.Exit && len(p.Args) < 1 {
		// pmlogcheck's own message, without the program's name
		p.Messages = append(p.Messages, "Error: no archive specified\n\n")
		p.Errors++
	}
	if p.Errors > 0 || p.Exit {
		fmt.Fprint(stderr, p.Report(cmd))
		if p.Exit {
			return 0
		}
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	// only the first operand is checked, as in PCP 6.0.3
	p.AddArchive(p.Args[0])
	p.End()
	opt.Prog = p.Progname()
	opt.DebugRecords, opt.DebugCounters = debugFlags(append([]string{os.Getenv("PCP_DEBUG")}, p.Debug...))
	if p.Namespace != nil {
		opt.Names = treeNames{p.Namespace}
	}
	opt.Loc = pcptz.Local(os.LookupEnv("TZ"))
	opt.Context = func(a *archive.Archive) (logcheck.Window, bool) {
		return contextOptions(p, a, out, stderr)
	}
	return logcheck.Check(p.Args[0], stderr, opt)
}

// treeNames names metrics from the name space -n loaded.
type treeNames struct{ t *pmns.Tree }

func (n treeNames) Names(pmid pcp.PMID) ([]string, error) { return n.t.NameAll(pmid) }

// debugFlags finds pmlogcheck's own debug flags, appl0 and appl2, in
// -D specifications (names separated by commas).
func debugFlags(specs []string) (appl0, appl2 bool) {
	for _, spec := range specs {
		for _, name := range strings.Split(spec, ",") {
			switch name {
			case "appl0":
				appl0 = true
			case "appl2":
				appl2 = true
			}
		}
	}
	return appl0, appl2
}
