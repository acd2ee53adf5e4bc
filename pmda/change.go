package pmda

// Change is a change of an agent's metadata that pmcd passes on to its
// clients, PMDA_EXT_LABEL_CHANGE and PMDA_EXT_NAMES_CHANGE in libpcp_pmda.
// The values are the PMCD_* state-change bits a client sees (pmapi's
// StateChange), which is how they travel from agent to pmcd.
type Change uint8

const (
	// LabelsChanged says labels were added, removed or changed
	// (PMCD_LABEL_CHANGE).
	LabelsChanged Change = 1 << 3
	// NamesChanged says metric names appeared or went
	// (PMCD_NAMES_CHANGE): clients caching the namespace look again.
	NamesChanged Change = 1 << 4
)

// NoteChange records ch for the next fetch's answer, as libpcp_pmda's
// pmdaExtSetFlags: the next successful Fetch puts the changes noted so
// far into its result's timestamp (the seconds hold them, the
// nanoseconds are zero), where pmcd looks for them in every agent's
// answer, in-process or daemon, and then forgets them. pmcd tells every
// connected client with its next fetch. It takes no lock, so it may be
// called from any callback, a Refresher or RequestHook included, and
// from other goroutines.
func (a *Agent) NoteChange(ch Change) {
	a.changes.Or(uint32(ch & (LabelsChanged | NamesChanged)))
}

// takeChanges is the changes noted since the last fetch answered, which
// it clears.
func (a *Agent) takeChanges() int64 {
	if a.changes.Load() == 0 {
		return 0
	}
	return int64(a.changes.Swap(0))
}
