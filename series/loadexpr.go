package series

import (
	"errors"
	"strings"
)

// ErrNoContext is a load expression naming no archive (or host) to load:
// libpcp_web's "found no context to load".
var ErrNoContext = errors.New("found no context to load")

// ErrHostLoad is a load expression naming a host: PCP 6.0.3 loads
// archives only (a host context is -ENOTSUP in load.c).
var ErrHostLoad = errors.New("cannot load from a host: only archives are loaded")

// LoadSource reads the archive path of a load expression as pmseries
// --load and pmproxy's /series/load take it ({source.path:"..."}), by
// libpcp_web's rules (load.c's load_prepare_source): the expression is
// parsed with the query grammar (its syntax errors are PCP's); every
// name, and every quoted value, whose last part (after a context.,
// source., c. or s. prefix, or another kind's) is path, archive or
// directory makes the source an archive (host, hostname or hostspec a
// host); the value of an == or : filter on a context name is the source.
// The last of each wins, as in PCP. metrics are the values of == and :
// filters on metric names (metric.name, m.name): the metrics loaded
// (LoadOptions.Include).
func LoadSource(expr string) (path string, metrics []string, err error) {
	p, err := ParseExpr(expr)
	if err != nil {
		return "", nil, err
	}
	var kind, source string
	note := func(name string) {
		switch loadNameKind(name) {
		case "path", "archive", "directory":
			kind = "archive"
		case "host", "hostname", "hostspec":
			kind = "host"
		}
	}
	var walk func(f *FilterExpr)
	walk = func(f *FilterExpr) {
		if f == nil {
			return
		}
		if f.Op == "&&" || f.Op == "||" {
			walk(f.Left)
			walk(f.Right)
			return
		}
		note(f.Leaf.Name)
		if f.Leaf.Quoted {
			note(f.Leaf.Value)
			if f.Op == "==" || f.Op == "~~" {
				switch {
				case isContextName(f.Leaf.Name):
					source = f.Leaf.Value
				case isMetricName(f.Leaf.Name):
					metrics = append(metrics, f.Leaf.Value)
				}
			}
		}
	}
	for _, v := range vectors(p.Root) {
		if v.Name != "" {
			note(v.Name)
		}
		walk(v.Filter)
	}
	switch kind {
	case "":
		return "", nil, ErrNoContext
	case "host":
		return "", nil, ErrHostLoad
	}
	return source, metrics, nil
}

// loadNameKind is a name with libpcp_web's kind prefix taken off
// (instance., context., metric., label. and their short forms).
func loadNameKind(name string) string {
	for _, pre := range []string{"instance.", "inst.", "i.", "context.", "source.", "c.", "s.", "metric.", "m.", "label.", "l."} {
		if rest, ok := strings.CutPrefix(name, pre); ok && rest != "" {
			return rest
		}
	}
	return name
}

// isMetricName is a name libpcp_web takes for a metric's (its kind
// prefixes tried in its order).
func isMetricName(name string) bool {
	if isContextName(name) {
		return false
	}
	for _, pre := range []string{"instance.", "inst.", "i."} {
		if strings.HasPrefix(name, pre) && len(name) > len(pre) {
			return false
		}
	}
	for _, pre := range []string{"metric.", "m."} {
		if strings.HasPrefix(name, pre) && len(name) > len(pre) {
			return true
		}
	}
	return false
}

func isContextName(name string) bool {
	for _, pre := range []string{"instance.", "inst.", "i."} {
		if strings.HasPrefix(name, pre) && len(name) > len(pre) {
			return false
		}
	}
	for _, pre := range []string{"context.", "source.", "c.", "s."} {
		if strings.HasPrefix(name, pre) && len(name) > len(pre) {
			return true
		}
	}
	return false
}
