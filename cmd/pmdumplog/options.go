package main

import "github.com/gopcp/gopcp/internal/cli"

// flags are what pmdumplog's own options ask for.
type flags struct {
	desc, labelsets, help, diskInDom, inDom bool
	verboseLabel, label, marks, metrics     bool
	reverse, sizes, index                   bool
	raw                                     string
	rawSet                                  bool
	x                                       int
}

func command(f *flags) *cli.Command {
	// PCP's pmdumplog lists -V in its usage but its getopt string lacks
	// the letter: only --version works.
	version := cli.OptVersion
	version.LongOnly = true
	return &cli.Command{
		Name:  "pmdumplog",
		Usage: "[options] [archive [metricname ...]]",
		// The archive operand is the source: the end checks wait for it.
		DeferEnd: true,
		Options: []cli.Option{
			cli.Header("Options"),
			cli.OptDebug,
			{Long: "all", Short: 'a', Help: "dump everything"},
			{Long: "descs", Short: 'd', Help: "dump metric descriptions"},
			{Long: "labelsets", Short: 'e', Help: "dump all metric label metadata"},
			{Long: "helptext", Short: 'h', Help: "dump all metric help text"},
			{Long: "on-disk-insts", Short: 'I', Help: "dump on-disk instance domain descriptions"},
			{Long: "insts", Short: 'i', Help: "dump instance domain descriptions"},
			{Short: 'L', Help: "more verbose form of archive label dump"},
			{Long: "label", Short: 'l', Help: "dump the archive label"},
			{Long: "markrecs", Short: 'M', Help: "report <mark> records"},
			{Long: "metrics", Short: 'm', Help: "dump values of the metrics (default)"},
			cli.OptNamespace,
			{Long: "reverse", Short: 'r', Help: "process archive in reverse chronological order"},
			cli.OptStart,
			{Long: "sizes", Short: 's', Help: "report size of data records in archive"},
			cli.OptFinish,
			{Short: 't', Help: "dump the temporal index"},
			{Short: 'v', Arg: "FILE", Help: "verbose hex dump of a physical file in raw format"},
			{Short: 'x', Help: "include date, usec (-xx) and Epoch (-xxx) in reported timestamps"},
			cli.OptTimezone,
			cli.OptHostZone,
			version,
			cli.OptHelp,
		},
		Handle: f.handle,
	}
}

func (f *flags) handle(o cli.Option, arg string, p *cli.Parsed) {
	switch o.Short {
	case 'a':
		f.desc, f.inDom, f.verboseLabel, f.label, f.metrics, f.sizes, f.index = true, true, true, true, true, true, true
	case 'd':
		f.desc = true
	case 'e':
		f.labelsets = true
	case 'h':
		f.help = true
	case 'I':
		f.diskInDom = true
	case 'i':
		f.inDom = true
	case 'L':
		f.verboseLabel, f.label = true, true
	case 'l':
		f.label = true
	case 'M':
		f.marks = true
	case 'm':
		f.metrics = true
	case 'r':
		f.reverse = true
	case 's':
		f.sizes = true
	case 't':
		f.index = true
	case 'v':
		f.raw, f.rawSet = arg, true
	case 'x':
		f.x++
	}
}
