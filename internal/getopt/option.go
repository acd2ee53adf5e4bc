// Package getopt reads PCP-style command lines without the PMAPI: an
// option table in the order the usage message shows it, GNU getopt's
// scanning (clustered short options, long ones by a unique prefix,
// operands between options) with its messages, libpcp's usage message,
// -D's debug names and libpcp's start-up check of $PCP_DEBUG. It is what
// a daemon such as pmcd, which PCP builds on pmgetopt_r alone, needs;
// internal/cli adds pmGetOptions' standard options (hosts, archives,
// time windows, name spaces) on top of it for the tools.
package getopt

// Option is one entry of an option table, PCP's pmLongOptions: a long
// name, an optional short letter, the name of its argument ("" when it
// takes none) and the help line of the usage message ("" hides it). A
// Header entry starts a section of the usage message instead.
type Option struct {
	Long  string
	Short rune
	Arg   string
	Help  string
	// LongOnly shows Short in the usage message but does not accept it
	// on the command line, for options a tool lists with a letter its
	// getopt string lacks (pmprobe's -d).
	LongOnly bool
	// Kind marks the standard options, handled by the parser (the ones
	// below KindOther) or by the package that defines them; a tool's
	// own options are KindOwn and go to Command.Handle.
	Kind Kind

	header bool
}

// Kind says which standard option an entry is.
type Kind int

// The standard options this package handles; KindOther and above are
// left to Command.Handle like a tool's own (internal/cli numbers
// pmGetOptions' from there).
const (
	KindOwn Kind = iota
	KindDebug
	KindDebugFlag
	KindHelp
	KindVersion
	KindOther
)

// Header starts a section of the usage message, PMAPI_OPTIONS_HEADER.
func Header(title string) Option { return Option{Help: title, header: true} }

// IsHeader reports whether the entry is a section header.
func (o Option) IsHeader() bool { return o.header }

// The standard options every PCP program may take, with PCP's names,
// letters and help lines.
var (
	// OptDebug is -D as pmGetOptions takes it.
	OptDebug = Option{Long: "debug", Short: 'D', Arg: "DBG", Kind: KindDebug}
	// OptDebugFlag is -D as the programs that parse it themselves
	// (pmlogger, dbpmda) take it: the same names, refused in their own
	// words.
	OptDebugFlag = Option{Long: "debug", Short: 'D', Arg: "DBG", Kind: KindDebugFlag}
	OptVersion   = Option{Long: "version", Short: 'V', Help: "display version number and exit", Kind: KindVersion}
	OptHelp      = Option{Long: "help", Short: '?', Help: "show this usage message and exit", Kind: KindHelp}
)

// Version is the PCP version gopcp's programs report for -V.
const Version = "6.0.3"
