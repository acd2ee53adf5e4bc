package cli

import (
	"os"
	"strings"
)

// envOptions maps the PCP_* environment variables pmGetOptions reads
// before the command line to the standard options they stand for.
var envOptions = map[string]Option{
	"ALIGN_TIME":  OptAlign,
	"ARCHIVE":     OptArchive,
	"GUIMODE":     OptGuiMode,
	"HOST":        OptHost,
	"SPECLOCAL":   OptSpecLocal,
	"LOCALMODE":   OptLocalPMDA,
	"LOCALPMDA":   OptLocalPMDA,
	"NAMESPACE":   OptNamespace,
	"UNIQNAMES":   OptUniqNames,
	"ORIGIN":      OptOrigin,
	"ORIGIN_TIME": OptOrigin,
	"GUIPORT":     OptGuiPort,
	"START_TIME":  OptStart,
	"SAMPLES":     OptSamples,
	"FINISH_TIME": OptFinish,
	"INTERVAL":    OptInterval,
	"TIMEZONE":    OptTimezone,
	"HOSTZONE":    OptHostZone,
}

// fromEnv applies the PCP_* settings of environ, PCP_DEBUG first and the
// rest in the order they appear, as pmGetOptions does before reading argv.
func (p *Parsed) fromEnv(environ []string) {
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PCP_DEBUG="); ok {
			p.standard(OptDebug, v)
			break
		}
	}
	for _, kv := range environ {
		rest, ok := strings.CutPrefix(kv, "PCP_")
		if !ok {
			continue
		}
		name, value, hasValue := strings.Cut(rest, "=")
		switch name {
		case "ARCHIVE_LIST":
			p.addArchiveList(value)
		case "HOST_LIST":
			p.addHostList(value)
		case "FOLIO":
			p.addArchiveFolio(value, hasValue)
		default:
			if o, ok := envOptions[name]; ok {
				p.standard(o, value)
			}
		}
	}
}

// ParseEnv is Parse with the environment given rather than the process's.
func ParseEnv(cmd *Command, argv, environ []string) *Parsed {
	return parse(cmd, argv, environ)
}

func environ() []string { return os.Environ() }
