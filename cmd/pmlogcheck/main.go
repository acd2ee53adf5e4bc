// Command pmlogcheck is PCP's pmlogcheck(1): it reports damage in a PCP
// archive in pmlogcheck's words (package pmlogger/logcheck does the
// checking); -v says what it checks, -m skips the data volumes, -l prints
// the label.
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pmlogger/logcheck"
)

func main() {
	os.Exit(run(os.Args, os.Stderr))
}

func run(argv []string, stderr io.Writer) int {
	opt := logcheck.Options{}
	cmd := &cli.Command{
		Name:  "pmlogcheck",
		Usage: "[options] archive",
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
			}
		},
	}
	p := cli.Parse(cmd, argv)
	if p.Errors == 0 && !p.Exit && len(p.Args) < 1 {
		p.Errorf("Error: no archive specified\n\n")
	}
	if p.Errors > 0 || p.Exit {
		fmt.Fprint(stderr, p.Report(cmd))
		if p.Exit {
			return 0
		}
		return 1
	}
	opt.Prog = p.Progname()
	if p.Timezone != "" {
		if loc, err := time.LoadLocation(p.Timezone); err == nil {
			opt.Loc = loc
		}
	}
	return logcheck.Check(p.Args[0], stderr, opt)
}
