package main

import "github.com/gopcp/gopcp/internal/cli"

// flags are what pminfo's own options ask for.
type flags struct {
	mid, fullMid, fullIID, desc, label, series  bool
	oneline, help, value, force, verify, events bool
	needContext, needPMID                       bool
	batch                                       int
	derived                                     []string
}

func command(f *flags) *cli.Command {
	return &cli.Command{
		Name:  "pminfo",
		Usage: "[options] [metricname | pmid | indom]...",
		Options: []cli.Option{
			cli.Header("General options"),
			cli.OptArchive, cli.OptDebug, cli.OptHost, cli.OptContainer,
			cli.OptLocalPMDA, cli.OptSpecLocal, cli.OptNamespace,
			cli.OptUniqNames, cli.OptOrigin, cli.OptTimezone,
			cli.OptHostZone, cli.OptVersion, cli.OptHelp,
			cli.Header("Protocol options"),
			{Long: "batch", Short: 'b', Arg: "N", Help: "fetch N metrics at a time for -f and -v [128]"},
			{Long: "desc", Short: 'd', Help: "get and print metric description"},
			{Long: "fetch", Short: 'f', Help: "fetch and print values for all instances"},
			{Long: "fetchall", Short: 'F', Help: "fetch and print values for non-enumerable indoms"},
			{Long: "fullindom", Short: 'I', Help: "print InDom in verbose format"},
			{Long: "labels", Short: 'l', Help: "print InDom, metric and instance labels"},
			{Long: "pmid", Short: 'm', Help: "print PMID"},
			{Long: "fullpmid", Short: 'M', Help: "print PMID in verbose format"},
			{Long: "series", Short: 's', Help: "print source, metric, instance series identifiers"},
			{Long: "oneline", Short: 't', Help: "get and display (terse) oneline text"},
			{Long: "helptext", Short: 'T', Help: "get and display (verbose) help text"},
			cli.Header("Metrics options"),
			{Long: "derived", Short: 'c', Arg: "FILE", Help: "load derived metric definitions from FILE(s)"},
			{Long: "events", Short: 'x', Help: "unpack and report on any fetched event records"},
			{Long: "verify", Short: 'v', Help: "verify mode, be quiet and only report errors"},
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
		return
	case 'c':
		f.derived = append(f.derived, arg)
		return
	case 'm':
		f.mid = true
	case 'M':
		f.mid, f.fullMid = true, true
	case 'd':
		f.desc = true
	case 'I':
		f.fullIID, f.desc = true, true
	case 'f':
		f.value = true
	case 'F':
		f.force, f.value = true, true
	case 'l':
		f.label = true
	case 's':
		f.series = true
	case 't':
		f.oneline = true
	case 'T':
		f.help = true
	case 'v':
		f.verify = true
	case 'x':
		f.events, f.value = true, true
	}
	f.needPMID = true
	if o.Short != 'm' && o.Short != 'M' {
		f.needContext = true
	}
}
