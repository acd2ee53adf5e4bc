package pmcd

import (
	"sync"

	"github.com/gopcp/gopcp/internal/hostlabels"
)

// pmcd's own state changes, told to every client with its next fetch as
// the agents' are (statechange.go). PCP 6.0.3's pmcd marks them so:
// PMCD_ADD_AGENT each time an agent is started and connected, whatever
// started it (a SIGHUP, a restart); PMCD_DROP_AGENT each time a
// connected agent is cleaned up (found dead by a request or a rescan,
// or stopped because pmcd.conf no longer has it as it was);
// PMCD_RESTART_AGENT when a rescan with pmcd.conf unchanged finds dead
// agents, whether or not they start again; PMCD_LABEL_CHANGE when the
// labels configured for the host ($PCP_SYSCONF_DIR/labels, without the
// host's names) differ from those pmcd last saw, checked at each rescan
// and each client's request for context labels (pmcd starts having seen
// none, so the first check finds a change if any are configured).
const (
	changeAddAgent     uint32 = 1 << 0
	changeRestartAgent uint32 = 1 << 1
	changeDropAgent    uint32 = 1 << 2
	changeLabels       uint32 = 1 << 3
)

// labelWatch is the host's configured context labels as pmcd last saw
// them.
type labelWatch struct {
	mu   sync.Mutex
	json string // "" for none
}

// checkLabels reads the host's configured labels and marks a labels
// change for every client when they differ from those last seen, as
// pmcd's CheckLabelChange does at a rescan.
func (s *Server) checkLabels() {
	s.sawLabels(configuredLabels())
}

// configuredLabels is the JSON of the labels configured in
// $PCP_SYSCONF_DIR/labels, "" for none: PCP's pmcd compares these, not
// the host's names it adds to them.
func configuredLabels() string {
	l := hostlabels.Configured(hostlabels.SysconfDir())
	if len(l) == 0 {
		return ""
	}
	set, err := l.Set()
	if err != nil {
		return ""
	}
	return set.JSON
}

// sawLabels records json, the configured labels as just read, and marks
// a labels change for every client when it is not what was seen last.
// pmcd starts having seen none.
func (s *Server) sawLabels(json string) {
	s.labels.mu.Lock()
	changed := s.labels.json != json
	s.labels.json = json
	if json == "" {
		s.ctl.Labels.Store(nil)
	} else {
		s.ctl.Labels.Store(&json)
	}
	s.labels.mu.Unlock()
	if changed {
		s.markChanges(changeLabels)
	}
}
