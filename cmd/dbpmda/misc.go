package main

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// attrNames are PCP's names of the client attributes, by key.
var attrNames = []string{1: "protocol", "secure", "compress", "userauth", "username",
	"authname", "password", "method", "realm", "unixsock", "userid", "groupid",
	"local", "processid", "container", "exclusive"}

func attrName(key int32) string {
	if key > 0 && int(key) < len(attrNames) {
		return attrNames[key]
	}
	return ""
}

func attrKey(name string) int32 {
	for i, n := range attrNames {
		if n != "" && n == name {
			return int32(i)
		}
	}
	return 0
}

// debugFlags are the names pmdbg -l lists, in its order.
var debugFlags = strings.Fields(`pdu fetch profile value context indom pdubuf
	log logmeta optfetch af appl0 appl1 appl2 pmns libpmda timecontrol pmc
	derive lock interp config pmapi fault auth discovery attr http desperate
	deprecated exec labels series libweb alloc services appl3 appl4 appl5
	access qa search query compress dev0 dev1 dev2 pmlc appl6 appl7 appl8
	appl9 tls`)

func knownDebugFlag(name string) bool {
	name = strings.TrimPrefix(name, "-")
	for _, f := range debugFlags {
		if strings.EqualFold(f, name) {
			return true
		}
	}
	return false
}

// debugSpec is a -D or $PCP_DEBUG specification as setDebug's flags: its
// comma-separated names, "all" in any case.
func debugSpec(spec string) []string {
	var flags []string
	for _, f := range strings.Split(spec, ",") {
		switch {
		case f == "":
		case strings.EqualFold(f, "all"):
			flags = append(flags, "all")
		default:
			flags = append(flags, strings.TrimSpace(f))
		}
	}
	return flags
}

// setDebug applies a debug command's flags; they change nothing but what
// status shows.
func (s *session) setDebug(flags []string) {
	set := map[string]bool{}
	for _, f := range s.debug {
		set[f] = true
	}
	for _, f := range flags {
		switch {
		case f == "all":
			for _, n := range debugFlags {
				set[n] = true
			}
		case f == "none":
			set = map[string]bool{}
		case strings.HasPrefix(f, "-"):
			delete(set, strings.ToLower(f[1:]))
		default:
			if n, err := strconv.Atoi(f); err == nil {
				// an old bit mask: bit i is the i'th flag
				for i := 0; i < 31 && i < len(debugFlags); i++ {
					if n&(1<<i) != 0 {
						set[debugFlags[i]] = true
					}
				}
				continue
			}
			set[strings.ToLower(f)] = true
		}
	}
	s.debug = s.debug[:0]
	for _, n := range debugFlags {
		if set[n] {
			s.debug = append(s.debug, n)
		}
	}
}

func (s *session) debugText() string {
	switch len(s.debug) {
	case 0:
		return "(none)"
	case len(debugFlags):
		return "(all)"
	}
	return strings.Join(s.debug, " ")
}

// namespace replaces the namespace, falling back to the old one.
func (s *session) namespace(path string) {
	tree, err := pmns.Load(path)
	if err != nil {
		var pe *pmns.ParseError
		if errors.As(err, &pe) {
			s.errorf("%s", pe.Report())
		}
		s.errorf("%s: Cannot load namespace from \"%s\": %s\n", s.prog, path, pcp.TextOf(err))
		if s.nsName == "(default)" {
			s.errorf("%s: Reload default namespace\n", s.prog)
		} else {
			s.errorf("%s: Reload namespace from \"%s\"\n", s.prog, s.loaded)
		}
		// status names the file asked for, whatever was loaded
		s.nsName = path
		return
	}
	s.tree = tree
	s.nsName = path
}
