package cli

import (
	"slices"
	"strings"
	"testing"
)

// fuzzCommand is a tool with every standard option (those of pmval,
// pmdumplog, pmstat and the GUI tools together) and two of its own.
func fuzzCommand() *Command {
	return &Command{
		Name: "pmfuzz",
		Options: []Option{
			OptAlign, OptArchive, OptDebug, OptHost, OptContainer, OptLocalPMDA, OptSpecLocal,
			OptNamespace, OptUniqNames, OptOrigin, OptStart, OptSamples, OptFinish, OptInterval,
			OptTimezone, OptHostZone, OptGuiMode, OptGuiPort, OptDerived, OptVersion, OptHelp,
			{Long: "width", Short: 'w', Arg: "N", Help: "a tool's own option with an argument"},
			{Long: "raw", Short: 'r', Help: "a tool's own flag"},
		},
		Handle: func(o Option, arg string, p *Parsed) {
			if o.Short == 'w' {
				if _, ok := Strtol(arg); !ok {
					p.Errorf("-w requires a number")
				}
			}
		},
	}
}

// FuzzParse reads arbitrary command lines and PCP_* environments with
// the standard options (pmGetOptions): hosts, archives, -K agent
// specifications, namespaces, time window arguments, -t intervals, -s
// samples, time zones, -D debug flags, the GUI options and --derived.
// It must never panic; what it accepts must hold together (a
// non-negative interval and sample count, not both -z and -Z, operands
// from the command line), and a refusal must be reported in words.
// Arguments naming files are kept to names without a slash (so only
// this package's directory is read), since -n, -N, -a and --derived
// read what they name.
func FuzzParse(f *testing.F) {
	for _, s := range []struct{ argv, env string }{
		{"-t\x002.5\x00-s\x0010\x00-h\x00localhost\x00kernel.all.load", ""},
		{"-a\x00testdata\x00-S\x00@10:00\x00-T\x00+1h\x00-O\x00-30m\x00-A\x001min\x00-z", ""},
		{"-Lkpmcd\x00-K\x00clear\x00-K\x00add,29,sample,sample_init\x00-Z\x00EST-10", ""},
		{"--interval=1e3msec\x00--samples=-1\x00-D\x00pdu,appl0\x00--container=c1\x00-hlocal:", ""},
		{"-g\x00-p\x004444\x00-w\x00x\x00-r\x00--\x00-x", "PCP_HOST=somehost\x00PCP_TIMEZONE=UTC"},
		{"-V\x00-?", "PCP_ARCHIVE=nowhere\x00PCP_ORIGIN_TIME=@12:00"},
		{"--derived=none\x00-n\x00none\x00-N\x00none", "PCP_DEBUG=1"},
		{"-S\x00yesterday 1pm\x00-T\x00next monday\x00-a\x00a,b\x00-a\x00c", "PCP_SAMPLES=3\x00PCP_INTERVAL=bad"},
	} {
		f.Add(s.argv, s.env)
	}
	f.Fuzz(func(t *testing.T, args, env string) {
		argv := append([]string{"pmfuzz"}, strings.Split(args, "\x00")...)
		for i, a := range argv {
			if strings.Contains(a, "/") {
				argv[i] = strings.ReplaceAll(a, "/", "_")
			}
		}
		var environ []string
		if env != "" {
			for _, e := range strings.Split(env, "\x00") {
				if strings.HasPrefix(e, "PCP_") && !strings.Contains(e, "/") {
					environ = append(environ, e)
				}
			}
		}
		cmd := fuzzCommand()
		p := ParseEnv(cmd, argv, environ)
		if p.Errors > 0 {
			if report := p.Report(cmd); report == "" {
				t.Fatalf("%q: %d errors reported as nothing", argv, p.Errors)
			}
			return
		}
		if p.IntervalDur < 0 || (p.SamplesSet && p.Samples < 0) {
			t.Fatalf("%q: interval %v, samples %d accepted", argv, p.IntervalDur, p.Samples)
		}
		if p.HostZone && p.TimezoneSet {
			t.Fatalf("%q: both -z and -Z accepted", argv)
		}
		for _, a := range p.Args {
			if !slices.Contains(argv[1:], a) {
				t.Fatalf("%q: operand %q is not an argument", argv, a)
			}
		}
	})
}
