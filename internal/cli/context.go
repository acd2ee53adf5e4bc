package cli

import (
	"context"
	"os"
	"sync"

	"github.com/gopcp/gopcp/internal/startpages"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/local"
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

// releaseBeforeOpen and releaseAfterOpen give the binary's start-up pages
// back around the first archive a process opens (NewSource).
var releaseBeforeOpen, releaseAfterOpen sync.Once

// NewSource makes the context of the given kind and name with what the
// options say about it: the -n/-N namespace, the -K agent table for local
// contexts (package pmapi/local) and --container for hosts. A local
// context's warnings go to stderr, as PCP's tools print them.
func (p *Parsed) NewSource(ctx context.Context, kind pmapi.Kind, name string) (pmapi.Source, error) {
	if kind == pmapi.KindLocal {
		opts := []local.Option{local.WithWarnings(os.Stderr), local.WithTZ(os.Getenv("TZ")), local.WithPMNSDefault(os.Getenv("PMNS_DEFAULT")),
			local.WithCompanion(findCompanion)}
		if p.Namespace != nil {
			opts = append(opts, local.WithNamespace(p.Namespace))
		}
		if p.LocalAgents != nil {
			opts = append(opts, local.WithTable(p.LocalAgents))
		}
		return local.NewContext(ctx, opts...)
	}
	var opts []pmapi.Option
	long := false // an archive worth startpages.Release
	if p.Namespace != nil {
		opts = append(opts, pmapi.WithNamespace(p.Namespace))
	}
	if kind == pmapi.KindHost {
		opts = append(opts, HostEnv()...)
		if pipeOnHost.Load() {
			opts = append(opts, pmapi.WithFirstSend(ignorePipe))
		}
		if p.Container != "" {
			name = WithContainer(name, p.Container)
		}
	}
	if kind == pmapi.KindArchive {
		opts = append(opts, archiveEnv(p.Stderr)...)
		// A long replay runs long after start, and opening its archive
		// can take megabytes of heap: the binary's pages that only
		// start touched are given back before that, those only opening
		// touched after it (a failure costs only the pages); once each
		// in a process, however many archives a tool opens.
		long = LongReplay(name)
		if long {
			releaseBeforeOpen.Do(func() { _, _ = startpages.Release() })
		}
	}
	src, err := pmapi.NewContext(ctx, kind, name, opts...)
	if kind == pmapi.KindHost {
		// libpcp warns of the timeouts as it connects: before the
		// tool reports how the connection went
		warnTimeouts(p.Stderr, os.LookupEnv, err)
	}
	if err == nil && long {
		releaseAfterOpen.Do(func() { _, _ = startpages.Release() })
	}
	return src, err
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
