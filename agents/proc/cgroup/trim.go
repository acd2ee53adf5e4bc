package cgroup

import "github.com/gopcp/gopcp/pmda"

// keepFactor bounds each instance domain's cache: at most keepFactor
// times Options.MaxCgroups entries, active or not, before the inactive
// ones are forgotten.
const keepFactor = 4

// add makes name active in the cache of serial with its record, and
// remembers the name for trim.
func (s *Source) add(serial uint32, name string, priv any) {
	if _, err := s.caches[serial].Add(name, priv); err != nil {
		return
	}
	m := s.seen[serial]
	if m == nil {
		m = map[string]struct{}{}
		s.seen[serial] = m
	}
	m[name] = struct{}{}
}

// trim keeps the caches bounded where cgroups come and go: pmdaproc keeps
// every cgroup it has seen, so that one coming back has its old number;
// here that holds until a domain has more than keepFactor*MaxCgroups
// entries, when those not active now are forgotten. Numbers are never
// given again (new ones are one past the highest), so a cgroup forgotten
// and coming back gets a new number.
func (s *Source) trim() {
	limit := keepFactor * s.max
	for serial, c := range s.caches {
		if len(s.seen[serial]) <= limit {
			continue
		}
		for name := range s.seen[serial] {
			_, state, _, err := c.LookupName(name)
			if err != nil || state != pmda.CacheActive {
				c.Cull(name)
				delete(s.seen[serial], name)
			}
		}
		c.Reorg()
	}
}
