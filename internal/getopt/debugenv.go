package getopt

import "strings"

// DebugEnv is what libpcp makes of $PCP_DEBUG (the first PCP_DEBUG= of
// environ) as it starts, before any option is read: the specification
// its flags are set from, or, when pmSetDebug refuses the value, no
// specification and the line libpcp writes straight to stderr. Tools
// that read their options with pmgetopt_r alone (dbpmda) get their
// initial debug flags only this way.
func DebugEnv(environ []string) (spec, warning string) {
	for _, kv := range environ {
		v, ok := strings.CutPrefix(kv, "PCP_DEBUG=")
		if !ok {
			continue
		}
		if !ValidDebug(v) {
			return "", "Error: $PCP_DEBUG=" + v + " is not valid, ignored\n"
		}
		return v, ""
	}
	return "", ""
}
