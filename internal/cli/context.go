package cli

import (
	"context"
	"os"

	"github.com/gopcp/gopcp/pmapi"
)

// Kind is the context kind the options chose, as pmapi numbers it; with
// none chosen a tool connects to the local pmcd (PM_CONTEXT_HOST).
func (p *Parsed) Kind() pmapi.Kind {
	switch p.Context {
	case ContextLocal:
		return pmapi.KindLocal
	case ContextArchive:
		return pmapi.KindArchive
	}
	return pmapi.KindHost
}

// Source is the name of the metrics source the options chose, as tools
// pass it to pmNewContext: the host (def when none was named), the
// archive, or "" for a local context.
func (p *Parsed) Source(def string) string {
	switch p.Context {
	case ContextLocal:
		return ""
	case ContextArchive:
		return p.Archives[0]
	}
	return p.Hosts0(def)
}

// NewSource makes the context of the given kind and name with what the
// options say about it: the -n/-N namespace, the -K agent table for local
// contexts and --container for hosts. A local context's warnings go to
// stderr, as PCP's tools print them.
func (p *Parsed) NewSource(ctx context.Context, kind pmapi.Kind, name string, extra ...pmapi.Option) (pmapi.Source, error) {
	var opts []pmapi.Option
	if p.Namespace != nil {
		opts = append(opts, pmapi.WithNamespace(p.Namespace))
	}
	if p.LocalAgents != nil {
		opts = append(opts, pmapi.WithLocalAgents(p.LocalAgents))
	}
	if kind == pmapi.KindLocal {
		opts = append(opts, pmapi.WithWarnings(os.Stderr))
	}
	if kind == pmapi.KindHost && p.Container != "" {
		name = WithContainer(name, p.Container)
	}
	return pmapi.NewContext(ctx, kind, name, append(opts, extra...)...)
}

// WithContainer adds --container's attribute to a host specification.
func WithContainer(spec, name string) string {
	for i := 0; i < len(spec); i++ {
		if spec[i] == '?' {
			return spec + "&container=" + name
		}
	}
	return spec + "?container=" + name
}

// TimezoneNote is what pmGetContextOptions prints on stdout for tools
// that report times (PM_OPTFLAG_STDOUT_TZ) after -z or -Z, "" without
// them; host is the context's host name.
func (p *Parsed) TimezoneNote(host string) string {
	switch {
	case p.HostZone:
		from := ""
		if p.Context == ContextArchive {
			from = " from archive"
		}
		return "Note: timezone set to local timezone of host \"" + host + "\"" + from + "\n\n"
	case p.TimezoneSet:
		return "Note: timezone set to \"TZ=" + p.Timezone + "\"\n\n"
	}
	return ""
}
