package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/gopcp/gopcp/derive"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/derived"
)

// DerivedRegistry is the tool run's table of global derived metrics,
// libpcp's for one process: made when first needed with the anonymous
// event metrics and the definitions PCP_DERIVED_CONFIG names (or PCP's
// defaults when it is unset), then --derived's (and pminfo -c's) files.
// Each Parse has its own, so that runs in one process stay apart.
// Messages about bad definitions read before a context exists wait in
// Direct until the tool prints them (Report, or WithDerived).
func (p *Parsed) DerivedRegistry() *derive.Registry {
	if p.derived == nil {
		p.derived = derive.NewRegistry()
		p.derived.Warn = func(msg string) {
			p.Direct += msg
			p.derivedPending += msg
		}
		p.derived.LoadDefaults(os.LookupEnv("PCP_DERIVED_CONFIG"))
	}
	return p.derived
}

// LoadDerived loads derived metric definitions from the files and
// directories of path, pmLoadDerivedConfig, into DerivedRegistry.
func (p *Parsed) LoadDerived(path string) error {
	_, err := p.DerivedRegistry().LoadConfig(path)
	return err
}

// WithDerived lays the run's derived metrics over src, as libpcp gives
// them to every context: messages about definitions already read go to
// stderr now, and later ones (a definition that does not fit the
// context's metrics) as they arise.
func (p *Parsed) WithDerived(src pmapi.Source, stderr io.Writer) pmapi.Source {
	reg := p.DerivedRegistry()
	fmt.Fprint(stderr, p.derivedPending)
	p.derivedPending = ""
	reg.Warn = func(msg string) { fmt.Fprint(stderr, msg) }
	return derived.Wrap(src, reg)
}

// DerivedMessages returns, once, the messages about derived metric
// definitions read so far, for tools that load definitions themselves
// (pminfo -c) and print them as libpcp does, straight away.
func (p *Parsed) DerivedMessages() string {
	s := p.derivedPending
	p.derivedPending = ""
	return s
}
