// Command dbpmda is PCP's dbpmda(1), the interactive debugger for agents:
// it starts an agent (open pipe), or connects to one waiting on a socket,
// or runs a Go agent from the registry in-process (open dso, naming the
// entry point a pmcd.conf dso line would), and sends it the requests pmcd
// would, one command at a time, printing the answers as PCP 6.0.3's dbpmda
// prints them: desc, fetch, instance, text, name, pmid, children,
// traverse, store, profile, label, attr, getdesc, getiname, timer, status,
// help, wait, namespace, close and quit.
//
//	dbpmda [-efi] [-n pmnsfile] [-q timeout] [-U user]
//
// Commands come from standard input; -e echoes them, -i prompts. Debug
// flags (-D, debug) are accepted and shown by status; watch opens an xterm
// following a log file, as PCP's does.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/identity"
	"github.com/gopcp/gopcp/internal/sigfrom"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"

	_ "github.com/gopcp/gopcp/agents/all" // agents for "open dso"
)

func main() {
	// As PCP's dbpmda, which sets no handler: SIGUSR1, SIGALRM, SIGXFSZ
	// and the rest end it by their default action (sigfrom.Ending).
	pipeOnAgent.Store(sigfrom.AsC() == nil)
	readTakenFDs()
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// pipeOnAgent is whether SIGPIPE is ignored once an agent is connected:
// libpcp ignores it when it first sends a PDU, so a dbpmda that talks to
// a daemon agent goes on (the write fails) where a broken pipe before
// that ends it. Set by main only, never for tests run in process.
var pipeOnAgent atomic.Bool

// agentConnected is the note that a daemon agent is about to be sent
// its first PDU.
func agentConnected() {
	if pipeOnAgent.Load() && !signal.Ignored(syscall.SIGPIPE) {
		signal.Ignore(syscall.SIGPIPE)
	}
}

type flags struct {
	echo, norc, interactive bool
	pmns                    string
	credsTimeout            int
	users                   []userSwitch
}

// userSwitch is one -U: PCP's dbpmda switches to the user as it meets
// the option and exits on failure, so the switch remembers how much of
// the parse's complaints came before it.
type userSwitch struct {
	name             string
	direct, messages int
}

func command(f *flags) *cli.Command {
	return &cli.Command{
		Name:  "dbpmda",
		Usage: "[options]",
		// dbpmda reads its options with pmgetopt_r and refuses -D with
		// fprintf, ahead of getopt's own complaints
		DebugDirect: true,
		Options: []cli.Option{
			cli.Header("General options"),
			cli.OptDebugFlag,
			{Long: "namespace", Short: 'n', Arg: "FILE", Help: "use an alternative PMNS"},
			{Long: "norc", Short: 'f', Help: "skip .dbpmdarc processing"},
			{Long: "creds-timeout", Short: 'q', Arg: "N", Help: "initial negoptionsotiation timeout (seconds)"},
			{Long: "username", Short: 'U', Arg: "USER", Help: "run under named user account"},
			{Long: "valgrind", Short: 'v', Help: "running under valgrind, don't dlclose() dso PMDAs"},
			cli.OptHelp,
			cli.Header("Input options"),
			{Long: "echo-input", Short: 'e', Help: "echo input"},
			{Long: "interactive", Short: 'i', Help: "be interactive and prompt"},
		},
		Handle: func(o cli.Option, arg string, p *cli.Parsed) {
			switch o.Short {
			case 'e':
				f.echo = true
			case 'f':
				f.norc = true
			case 'i':
				f.interactive = true
			case 'n':
				f.pmns = arg
			case 'U':
				f.users = append(f.users, userSwitch{arg, len(p.Direct), len(p.Messages)})
			case 'q':
				n, ok := cli.Strtol(arg)
				if !ok || n <= 0 {
					p.Errorf("-q requires a positive numeric argument")
					return
				}
				f.credsTimeout = int(n)
			}
		},
	}
}

// session is dbpmda's state: the namespace, the open agent, the profile
// and the switches.
type session struct {
	stdout, stderr io.Writer
	prog           string
	tree           *pmns.Tree
	nsName         string // as status shows it
	loaded         string // the namespace given at the start, reloaded after a failed change
	conn           *conn
	credsTimeout   time.Duration
	profile        profile
	profileChanged bool
	timer          bool
	getDesc        bool
	getIname       bool
	debug          []string
	echo, prompt   bool
	dead           bool // the last answer was the agent going away
	// op is the agent callback the last request reaches, as PCP's
	// dbpmda names it when a DSO agent refuses one ("desc", "fetch").
	op string
}

func (s *session) printf(format string, args ...any) { fmt.Fprintf(s.stdout, format, args...) }
func (s *session) errorf(format string, args ...any) { fmt.Fprintf(s.stderr, format, args...) }

func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := &flags{credsTimeout: 3}
	cmd := command(f)
	// pmgetopt_r reads no PCP_* variables as options; libpcp itself
	// takes its first debug flags from $PCP_DEBUG
	envDebug, warning := cli.DebugEnv(os.Environ())
	fmt.Fprint(stderr, warning)
	p := cli.ParseEnv(cmd, argv, nil)
	if len(p.Args) > 0 {
		p.Errors++
	}
	for _, u := range f.users {
		var crit strings.Builder
		if !identity.Set(u.name, &crit, p.Progname()) {
			fmt.Fprint(stderr, p.Direct[:u.direct]+strings.Join(p.Messages[:u.messages], "")+crit.String())
			return 1
		}
	}
	if done, _ := p.Done(); done || p.Errors > 0 {
		fmt.Fprint(stderr, p.Report(cmd))
		return 1
	}
	s := &session{stdout: stdout, stderr: stderr, prog: p.Progname(),
		credsTimeout: time.Duration(f.credsTimeout) * time.Second, echo: f.echo}
	for _, spec := range append([]string{envDebug}, p.Debug...) {
		s.setDebug(debugSpec(spec))
	}
	if file, ok := stdin.(*os.File); ok && cli.IsTerminal(file) {
		s.prompt = true
	}
	if f.interactive {
		s.prompt = true
	}
	var err error
	if f.pmns == "" {
		s.nsName = "(default)"
		if s.tree, err = pmns.LoadDefault(os.Getenv("PMNS_DEFAULT")); err != nil {
			var pe *pmns.ParseError
			if errors.As(err, &pe) {
				s.errorf("%s", pe.Report())
			}
			s.errorf("%s: Cannot load default namespace: %s\n", s.prog, pcp.TextOf(err))
			return 1
		}
	} else {
		s.nsName = f.pmns
		if s.tree, err = pmns.Load(f.pmns); err != nil {
			var pe *pmns.ParseError
			if errors.As(err, &pe) {
				s.errorf("%s", pe.Report())
			}
			s.errorf("%s: Cannot load namespace from \"%s\": %s\n", s.prog, f.pmns, pcp.TextOf(err))
			return 1
		}
	}
	s.loaded = s.nsName
	s.resetProfile()
	defer s.close()
	if !f.norc {
		if rc, err := os.Open(".dbpmdarc"); err == nil {
			echo, prompt := s.echo, s.prompt
			s.echo, s.prompt = true, false
			quit := s.loop(bufio.NewReader(rc), ".dbpmdarc")
			rc.Close()
			s.echo, s.prompt = echo, prompt
			if quit {
				return 0
			}
		}
	}
	s.loop(bufio.NewReader(stdin), "")
	return 0
}

// loop reads and runs commands until the input ends or quit; it reports
// whether quit ended it.
func (s *session) loop(in *bufio.Reader, config string) bool {
	for {
		if s.prompt {
			s.printf("dbpmda> ")
		}
		line, err := in.ReadString('\n')
		if line == "" && err != nil {
			if s.prompt {
				s.printf("\n")
			}
			return false
		}
		line = strings.ReplaceAll(line, "\r", "")
		more := func() (string, bool) {
			if s.prompt {
				s.printf("dbpmda> ")
			}
			l, err := in.ReadString('\n')
			if l == "" && err != nil {
				return "", false
			}
			return strings.ReplaceAll(l, "\r", ""), true
		}
		if s.runLine(line, config, more) {
			return true
		}
	}
}

// runLine parses and runs one line, echoing it as PCP's scanner does: as
// far as it has read at each warning or error, and the rest at the end.
// more, when not nil, gives the lines a statement left open by a scanner
// error reads on into.
func (s *session) runLine(line, config string, more func() (string, bool)) (quit bool) {
	lx := &lexer{line: line}
	ps := &parser{lx: lx, s: s, more: more, done: func(l string, probs []problem) { s.report(l, config, probs) }}
	st, ok := ps.parse()
	s.report(lx.line, config, ps.problems)
	if !ok {
		return false
	}
	return s.exec(st)
}

// report echoes a line as far as the scanner had read at each problem,
// then prints the problem, and echoes the rest of the line at the end.
func (s *session) report(line, config string, problems []problem) {
	echoed := 0
	echoTo := func(at int) {
		if s.echo && at > echoed {
			s.printf("%s", line[echoed:at])
			echoed = at
		}
	}
	for _, pr := range problems {
		echoTo(pr.at)
		if !pr.fatal {
			if config != "" {
				s.errorf("Warning [%s, line 1]\n%s\n", config, pr.msg)
			} else {
				s.errorf("Warning: %s\n", pr.msg)
			}
			continue
		}
		echoTo(len(line))
		s.mark(line, pr.at)
		if config != "" {
			s.errorf("Error [%s, line 1]: %s\nType 'help' for a list of commands.\n", config, pr.msg)
		} else {
			s.errorf("Error: %s\nType 'help' for a list of commands.\n", pr.msg)
		}
	}
	echoTo(len(line))
}

// mark points at where the scanner was when it found an error.
func (s *session) mark(line string, at int) {
	var b strings.Builder
	b.WriteString("       ") // the prompt's width and a space
	for i := 0; i < at-1 && i < len(line); i++ {
		switch line[i] {
		case '\t':
			b.WriteByte('\t')
		case '\n':
			i = len(line)
			continue
		default:
			b.WriteByte(' ')
		}
	}
	b.WriteString("^ at or near here\n")
	s.printf("%s", b.String())
}

// lookupName resolves a metric name in the namespace.
func (s *session) lookupName(name string) (pcp.PMID, error) {
	return s.tree.Lookup(name)
}

// hasPMID reports whether the namespace names pmid.
func (s *session) hasPMID(id pcp.PMID) bool {
	_, err := s.tree.NameID(id)
	return err == nil
}
