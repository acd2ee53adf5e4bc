// Command newhelp is PCP's newhelp(1): it builds the help text database an
// agent serves its help from (NAME.dir and NAME.pag, read by
// libpcp_pmda's pmdaOpenHelp and by package pmda's OpenHelp) out of help
// text source, byte for byte as PCP 6.0.3's newhelp does, with its
// messages and exit status (0, 1 after warnings, 2 after errors).
//
//	newhelp [-V] [-n pmnsfile] [-o outputname] [file ...]
//
// Metric names in the source are resolved in the namespace given by -n,
// else the default one. The parsing and file format live in package pmda
// (ParseHelp, WriteHelpDB).
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/pmns"
)

func main() {
	// as PCP's, which installs no handlers: SIGUSR1, SIGPIPE and the
	// rest end it
	cli.Signals()
	os.Exit(run(os.Args, os.Stdin, os.Stderr))
}

type flags struct {
	pmns    string
	output  string
	named   bool // -o was given, perhaps as "" (then the files are ".dir" and ".pag")
	verbose bool
}

func command(f *flags) *cli.Command {
	return &cli.Command{
		Name:  "newhelp",
		Usage: "[options] [file ...]",
		Options: []cli.Option{
			cli.Header("General options"),
			cli.OptDebug,
			{Long: "namespace", Short: 'n', Arg: "FILE", Help: "use an alternative PMNS"},
			cli.OptHelp,
			cli.Header("Output options"),
			{Long: "output", Short: 'o', Arg: "FILE", Help: "base name for output files"},
			{Long: "verbose", Short: 'V', Help: "verbose/diagnostic output"},
			{Long: "version", Short: 'v', Arg: "N", Help: "deprecated (only version 2 format supported)"},
		},
		Handle: func(o cli.Option, arg string, p *cli.Parsed) {
			switch o.Short {
			case 'n':
				f.pmns = arg
			case 'o':
				f.output, f.named = arg, true
			case 'V':
				f.verbose = true
			case 'v':
				n, ok := cli.Strtol(arg)
				if !ok {
					p.Errorf("-v requires numeric argument")
				}
				if n != 2 {
					p.Errorf("deprecated option - only version 2 is supported")
				}
			}
		},
	}
}

func run(argv []string, stdin io.Reader, stderr io.Writer) int {
	f := &flags{}
	cmd := command(f)
	p := cli.Parse(cmd, argv)
	if done, _ := p.Done(); done || p.Errors > 0 {
		fmt.Fprint(stderr, p.Report(cmd))
		return 2 // newhelp exits 2 after a usage message, -? included
	}
	prog := p.Progname()
	var tree *pmns.Tree
	var err error
	if f.pmns != "" {
		tree, err = pmns.Load(f.pmns)
	} else {
		tree, err = pmns.LoadDefault(os.Getenv("PMNS_DEFAULT"))
	}
	if err != nil {
		// libpcp says why on its own before newhelp's message.
		var pe *pmns.ParseError
		if errors.As(err, &pe) {
			fmt.Fprint(stderr, pe.Report())
		}
		name := f.pmns
		if name == "" {
			name = "(null)"
		}
		fmt.Fprintf(stderr, "%s: pmLoadASCIINameSpace(%s, 1): %s\n", prog, name, pcp.TextOf(err))
		return 2
	}
	lookup := func(name string) (pcp.PMID, error) {
		id, err := tree.Lookup(name)
		if err != nil {
			var e pcp.Error
			if errors.As(err, &e) {
				return pcp.PMIDNull, e
			}
			return pcp.PMIDNull, pcp.ErrName
		}
		return id, nil
	}

	files := p.Args
	if len(files) == 0 {
		if !f.named {
			fmt.Fprintf(stderr, "%s: need either a -o option or a filename argument to name the output file\n", prog)
			return 2
		}
		files = []string{""}
	}
	if !f.named {
		f.output = files[0]
	}
	status := 0
	parser := pmda.NewHelpParser(pmda.HelpOptions{
		Lookup: lookup, Limits: true,
		Notify: func(e *pmda.HelpEntry, he *pmda.HelpError) {
			status = max(status, report(stderr, prog, e, he, f.verbose))
		},
	})
	for _, name := range files {
		var src []byte
		var err error
		if name == "" {
			src, err = io.ReadAll(stdin)
		} else {
			src, err = os.ReadFile(name)
			if errors.Is(err, syscall.EISDIR) {
				// newhelp opens a directory without complaint and reads
				// it as an empty file.
				src, err = nil, nil
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s\n", name, pcp.TextOf(err))
			return 2
		}
		label := name
		if label == "" {
			label = "<stdin>"
		}
		parser.Parse(bytes.NewReader(src), label)
	}
	var pag, dir bytes.Buffer
	if err := pmda.WriteHelpDB(&pag, &dir, parser.Entries()); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 2
	}
	for _, out := range []struct {
		ext string
		b   []byte
	}{{".pag", pag.Bytes()}, {".dir", dir.Bytes()}} {
		if err := os.WriteFile(f.output+out.ext, out.b, 0o644); err != nil {
			fmt.Fprintf(stderr, "%s: fopen(\"%s\", ...) failed: %s\n", prog, f.output+out.ext, pcp.TextOf(err))
			return 2
		}
	}
	return status
}

// report prints an entry (with -V) or a problem as newhelp words it and
// returns the exit status it calls for. Warnings about empty texts and
// entries are newhelp's verbose chatter, shown only with -V.
func report(w io.Writer, prog string, e *pmda.HelpEntry, he *pmda.HelpError, verbose bool) int {
	if e != nil {
		if verbose && e.OneLine != "" && e.Text != "" {
			fmt.Fprintln(w, e.Name)
		}
		return 0
	}
	status := 1
	if he.Fatal {
		status = 2
	}
	quiet := strings.HasSuffix(he.Msg, "null oneline") ||
		strings.HasSuffix(he.Msg, "null help") || he.Msg == "null entry?"
	if quiet && !verbose {
		if he.Msg == "null entry?" {
			return 1 // a warning whether said or not
		}
		return 0
	}
	fmt.Fprintf(w, "%s: %s", prog, he.Error())
	if !strings.HasSuffix(he.Msg, "\n") {
		fmt.Fprintln(w)
	}
	return status
}
