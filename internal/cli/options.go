// Package cli is the command line shared by gopcp's tools: PCP's standard
// pmGetOptions option set (hosts, archives, namespaces, time window,
// timezones, debugging, version and help), reporting errors and printing
// usage exactly as libpcp 6.0.3 does, so that scripts reading a tool's
// stderr see the same text. The scanning, the usage message and -D, -V
// and -? are internal/getopt's, which daemons use alone.
//
// A tool lists its options in the order its usage message shows them,
// mixing the standard ones (OptHost, OptArchive, ...) with its own, and
// handles its own in a callback; the standard ones are handled here.
package cli

import "github.com/gopcp/gopcp/internal/getopt"

// Option is one entry of a tool's option table (getopt.Option).
type Option = getopt.Option

type stdKind = getopt.Kind

// The standard options handled here, numbered after getopt's.
const (
	stdAlign stdKind = getopt.KindOther + iota
	stdArchive
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
	stdGuiMode
	stdGuiPort
	stdDerived
)

// Header starts a section of the usage message, PMAPI_OPTIONS_HEADER.
func Header(title string) Option { return getopt.Header(title) }

// The standard options, with PCP's names, letters and help lines.
var (
	OptAlign   = Option{Long: "align", Short: 'A', Arg: "TIME", Help: "align sample times on natural boundaries", Kind: stdAlign}
	OptArchive = Option{Long: "archive", Short: 'a', Arg: "FILE", Help: "metrics source is a PCP log archive", Kind: stdArchive}
	// OptDebug, OptDebugFlag, OptVersion and OptHelp are getopt's, written
	// out again: a copy of another package's variable would be made by
	// this package's initialisation in every program (TestSameAsGetopt).
	OptDebug = Option{Long: "debug", Short: 'D', Arg: "DBG", Kind: getopt.KindDebug}
	// OptDebugFlag is -D as the tools that parse it themselves (pmlogger,
	// dbpmda) take it: the same names, refused in their own words.
	OptDebugFlag = Option{Long: "debug", Short: 'D', Arg: "DBG", Kind: getopt.KindDebugFlag}
	OptHost      = Option{Long: "host", Short: 'h', Arg: "HOST", Help: "metrics source is PMCD on host", Kind: stdHost}
	OptContainer = Option{Long: "container", Arg: "NAME", Help: "specify an individual container to be queried", Kind: stdContainer}
	OptLocalPMDA = Option{Long: "local-PMDA", Short: 'L', Help: "metrics source is local connection to a PMDA", Kind: stdLocalPMDA}
	OptSpecLocal = Option{Long: "spec-local", Short: 'K', Arg: "SPEC", Help: "optional additional PMDA spec for local connection", Kind: stdSpecLocal}
	OptNamespace = Option{Long: "namespace", Short: 'n', Arg: "FILE", Help: "use an alternative PMNS", Kind: stdNamespace}
	OptUniqNames = Option{Long: "uniqnames", Short: 'N', Arg: "FILE", Help: "like -n but only one name allowed for each PMID", Kind: stdUniqNames}
	OptOrigin    = Option{Long: "origin", Short: 'O', Arg: "TIME", Help: "initial sample time within the time window", Kind: stdOrigin}
	OptStart     = Option{Long: "start", Short: 'S', Arg: "TIME", Help: "start of the time window", Kind: stdStart}
	OptSamples   = Option{Long: "samples", Short: 's', Arg: "N", Help: "terminate after this many samples", Kind: stdSamples}
	OptFinish    = Option{Long: "finish", Short: 'T', Arg: "TIME", Help: "end of the time window", Kind: stdFinish}
	OptInterval  = Option{Long: "interval", Short: 't', Arg: "DELTA", Help: "sampling interval", Kind: stdInterval}
	OptTimezone  = Option{Long: "timezone", Short: 'Z', Arg: "TZ", Help: "set reporting timezone", Kind: stdTimezone}
	OptHostZone  = Option{Long: "hostzone", Short: 'z', Help: "set reporting timezone to local time of metrics source", Kind: stdHostZone}
	OptVersion   = Option{Long: "version", Short: 'V', Help: "display version number and exit", Kind: getopt.KindVersion}
	OptHelp      = Option{Long: "help", Short: '?', Help: "show this usage message and exit", Kind: getopt.KindHelp}
	OptGuiMode   = Option{Long: "guimode", Short: 'g', Help: "start in GUI mode with new time control", Kind: stdGuiMode}
	OptGuiPort   = Option{Long: "guiport", Short: 'p', Arg: "N", Help: "port for connection to existing time control", Kind: stdGuiPort}
	OptDerived   = Option{Long: "derived", Arg: "FILE", Help: "load derived metric definitions from FILE(s)", Kind: stdDerived}
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
const Version = getopt.Version
