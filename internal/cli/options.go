// Package cli is the command line shared by gopcp's tools: PCP's standard
// pmGetOptions option set (hosts, archives, namespaces, time window,
// timezones, debugging, version and help), parsed with pflag but reporting
// errors and printing usage exactly as libpcp 6.0.3 does, so that scripts
// reading a tool's stderr see the same text.
//
// A tool lists its options in the order its usage message shows them,
// mixing the standard ones (OptHost, OptArchive, ...) with its own, and
// handles its own in a callback; the standard ones are handled here.
package cli

// Option is one entry of a tool's option table, PCP's pmLongOptions: a long
// name, an optional short letter, the name of its argument ("" when it takes
// none) and the help line of the usage message ("" hides it). A Header entry
// starts a section of the usage message instead.
type Option struct {
	Long  string
	Short rune
	Arg   string
	Help  string
	// LongOnly shows Short in the usage message but does not accept it
	// on the command line, for options a tool lists with a letter its
	// getopt string lacks (pmprobe's -d).
	LongOnly bool

	header bool
	std    stdKind
}

type stdKind int

const (
	stdNone stdKind = iota
	stdAlign
	stdArchive
	stdDebug
	stdHost
	stdContainer
	stdLocalPMDA
	stdSpecLocal
	stdNamespace
	stdUniqNames
	stdOrigin
	stdStart
	stdSamples
	stdFinish
	stdInterval
	stdTimezone
	stdHostZone
	stdVersion
	stdHelp
	stdGuiMode
	stdGuiPort
	stdDerived
	stdDebugFlag
)

// Header starts a section of the usage message, PMAPI_OPTIONS_HEADER.
func Header(title string) Option { return Option{Help: title, header: true} }

// IsHeader reports whether the entry is a section header.
func (o Option) IsHeader() bool { return o.header }

// The standard options, with PCP's names, letters and help lines.
var (
	OptAlign   = Option{"align", 'A', "TIME", "align sample times on natural boundaries", false, false, stdAlign}
	OptArchive = Option{"archive", 'a', "FILE", "metrics source is a PCP log archive", false, false, stdArchive}
	OptDebug   = Option{"debug", 'D', "DBG", "", false, false, stdDebug}
	// OptDebugFlag is -D as the tools that parse it themselves (pmlogger,
	// dbpmda) take it: the same names, refused in their own words.
	OptDebugFlag = Option{"debug", 'D', "DBG", "", false, false, stdDebugFlag}
	OptHost      = Option{"host", 'h', "HOST", "metrics source is PMCD on host", false, false, stdHost}
	OptContainer = Option{"container", 0, "NAME", "specify an individual container to be queried", false, false, stdContainer}
	OptLocalPMDA = Option{"local-PMDA", 'L', "", "metrics source is local connection to a PMDA", false, false, stdLocalPMDA}
	OptSpecLocal = Option{"spec-local", 'K', "SPEC", "optional additional PMDA spec for local connection", false, false, stdSpecLocal}
	OptNamespace = Option{"namespace", 'n', "FILE", "use an alternative PMNS", false, false, stdNamespace}
	OptUniqNames = Option{"uniqnames", 'N', "FILE", "like -n but only one name allowed for each PMID", false, false, stdUniqNames}
	OptOrigin    = Option{"origin", 'O', "TIME", "initial sample time within the time window", false, false, stdOrigin}
	OptStart     = Option{"start", 'S', "TIME", "start of the time window", false, false, stdStart}
	OptSamples   = Option{"samples", 's', "N", "terminate after this many samples", false, false, stdSamples}
	OptFinish    = Option{"finish", 'T', "TIME", "end of the time window", false, false, stdFinish}
	OptInterval  = Option{"interval", 't', "DELTA", "sampling interval", false, false, stdInterval}
	OptTimezone  = Option{"timezone", 'Z', "TZ", "set reporting timezone", false, false, stdTimezone}
	OptHostZone  = Option{"hostzone", 'z', "", "set reporting timezone to local time of metrics source", false, false, stdHostZone}
	OptVersion   = Option{"version", 'V', "", "display version number and exit", false, false, stdVersion}
	OptHelp      = Option{"help", '?', "", "show this usage message and exit", false, false, stdHelp}
	OptGuiMode   = Option{"guimode", 'g', "", "start in GUI mode with new time control", false, false, stdGuiMode}
	OptGuiPort   = Option{"guiport", 'p', "N", "port for connection to existing time control", false, false, stdGuiPort}
	OptDerived   = Option{"derived", 0, "FILE", "load derived metric definitions from FILE(s)", false, false, stdDerived}
)

// GeneralOptions is PMAPI_GENERAL_OPTIONS: the usual header and standard
// options of a tool that reports over time.
func GeneralOptions() []Option {
	return []Option{Header("General options"), OptAlign, OptArchive, OptDebug,
		OptGuiMode, OptHost, OptNamespace, OptOrigin, OptGuiPort, OptStart,
		OptSamples, OptFinish, OptInterval, OptTimezone, OptHostZone,
		OptVersion, OptHelp}
}

// Version is the PCP version gopcp's tools report for -V.
const Version = "6.0.3"
