package main

import (
	"strings"

	"github.com/gopcp/gopcp/internal/cli"
)

// mode is what pmseries does and prints, worked out from its options as
// PCP's pmseries works out its flags: the reports asked for (-d -i -l -m,
// all four with -a), what they need looked up besides, and the one
// action taken (load, query, values in a window, label values, sources,
// or the reports).
type mode struct {
	load, query, window, values, sources bool
	desc, insts, labels, metrics         bool // the reports
	all                                  bool
	seriesID, fullPMID, fullInDom        bool
	onlyNames                            bool // -n: label names, not values
	needDescs, needInsts                 bool
}

func (m *mode) meta() bool { return m.desc || m.insts || m.labels || m.metrics }

// modeOf works out the mode from the options and arguments, refusing
// what PCP's pmseries refuses (each refusal counted in p, so that the
// usage message follows).
func modeOf(o *options, args []string, p *cli.Parsed) mode {
	m := mode{load: o.load, query: o.query, values: o.values, sources: o.sources, window: o.window != "",
		desc: o.desc, insts: o.instances, labels: o.labels || o.names, metrics: o.metrics,
		all: o.all, seriesID: o.series || o.all, fullPMID: o.fullPMID, fullInDom: o.fullInDom, onlyNames: o.names}
	if m.all {
		m.desc, m.insts, m.labels, m.metrics = true, true, true, true
	}
	switch {
	case m.load && (m.meta() || m.sources || m.values || m.window):
		p.Errorf("error - cannot use load and reporting options together")
	case m.load && m.query:
		p.Errorf("error - cannot use load and querying options together")
	case m.query && (m.meta() || m.sources || m.values):
		p.Errorf("error - cannot use query and metadata options together")
	case m.query && m.window:
		p.Errorf("error - cannot use query and time window options together")
	}
	m.needDescs = m.fullPMID || m.fullInDom || m.seriesID
	m.needInsts = m.labels
	if !m.meta() && !m.load && !m.sources && !m.values && !m.needDescs && !m.needInsts {
		// series identifiers alone are reported in full, anything
		// else is a query
		sids := len(args) > 0
		for _, a := range args {
			sids = sids && isSID(a)
		}
		if sids {
			m.all, m.seriesID = true, true
			m.desc, m.insts, m.labels, m.metrics = true, true, true, true
		} else {
			m.query = true
		}
	}
	if len(args) == 0 && p.Errors == 0 && !p.Exit {
		switch {
		case m.query:
			p.Errorf("error - no query string provided")
		case m.values:
			p.Errorf("error - no label name(s) provided")
		case !(m.meta() || m.sources) || m.all:
			p.Errorf("error - no series string(s) provided")
		}
	}
	return m
}

// isSID is PCP's test of a series identifier: 40 digits and lower-case
// hexadecimal letters.
func isSID(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9') && !('a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// joined is the arguments as PCP's pmseries joins them: with spaces for
// --load and --query given, else with commas (so that several
// identifiers or names make one list).
func joined(o *options, args []string) string {
	if o.load || o.query {
		return strings.Join(args, " ")
	}
	return strings.Join(args, ",")
}

// commaSplit is sdssplitlen's split of a list: every element kept, empty
// ones too; none for an empty list.
func commaSplit(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
