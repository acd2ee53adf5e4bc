package getopt

import "strings"

// debugNames are the names pmSetDebug knows, as pmdbg -l lists them (an
// array literal: static data, where strings.Fields would run at start-up).
var debugNames = [...]string{
	"pdu", "fetch", "profile", "value", "context", "indom", "pdubuf", "log",
	"logmeta", "optfetch", "af", "appl0", "appl1", "appl2", "pmns", "libpmda",
	"timecontrol", "pmc", "derive", "lock", "interp", "config", "pmapi",
	"fault", "auth", "discovery", "attr", "http", "desperate", "deprecated",
	"exec", "labels", "series", "libweb", "alloc", "services", "appl3",
	"appl4", "appl5", "access", "qa", "search", "query", "compress", "dev0",
	"dev1", "dev2", "pmlc", "appl6", "appl7", "appl8", "appl9", "tls",
}

// ValidDebug reports whether pmSetDebug accepts a -D specification: a
// comma-separated list of option names (any case), "all", or numbers (old
// bit masks).
func ValidDebug(spec string) bool {
	for p := spec; p != ""; {
		if n := leadingNumber(p); n > 0 {
			switch {
			case n == len(p):
				return true
			case p[n] == ',':
				p = p[n+1:]
				continue
			}
			return false
		}
		tok, rest, _ := strings.Cut(p, ",")
		if !strings.EqualFold(tok, "all") && !knownDebug(tok) {
			return false
		}
		p = rest
	}
	return true
}

// leadingNumber is how many bytes strtol(p, &end, 10) uses.
func leadingNumber(p string) int {
	i := 0
	for i < len(p) && strings.IndexByte(" \t\n\v\f\r", p[i]) >= 0 {
		i++
	}
	if i < len(p) && (p[i] == '+' || p[i] == '-') {
		i++
	}
	j := i
	for j < len(p) && p[j] >= '0' && p[j] <= '9' {
		j++
	}
	if j == i {
		return 0
	}
	return j
}

func knownDebug(name string) bool {
	for _, n := range debugNames {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// DebugNames are the -D names, in pmdbg -l's order.
func DebugNames() []string { return append([]string(nil), debugNames[:]...) }
