package cli

import (
	"os"
	"strings"
)

// envOption is the standard option a PCP_* environment variable that
// pmGetOptions reads before the command line stands for (name without
// "PCP_"). A switch, not a map the package's initialisation would build.
func envOption(name string) (Option, bool) {
	switch name {
	case "ALIGN_TIME":
		return OptAlign, true
	case "ARCHIVE":
		return OptArchive, true
	case "GUIMODE":
		return OptGuiMode, true
	case "HOST":
		return OptHost, true
	case "SPECLOCAL":
		return OptSpecLocal, true
	case "LOCALMODE", "LOCALPMDA":
		return OptLocalPMDA, true
	case "NAMESPACE":
		return OptNamespace, true
	case "UNIQNAMES":
		return OptUniqNames, true
	case "ORIGIN", "ORIGIN_TIME":
		return OptOrigin, true
	case "GUIPORT":
		return OptGuiPort, true
	case "START_TIME":
		return OptStart, true
	case "SAMPLES":
		return OptSamples, true
	case "FINISH_TIME":
		return OptFinish, true
	case "INTERVAL":
		return OptInterval, true
	case "TIMEZONE":
		return OptTimezone, true
	case "HOSTZONE":
		return OptHostZone, true
	}
	return Option{}, false
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
			if o, ok := envOption(name); ok {
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
