package pmcd

import "context"

// Start starts every agent of the configuration, once, before the first
// client: an agent that cannot be started is logged once, with its line
// and the reason, and its domain answers PM_ERR_NOAGENT, while the others
// serve, as with PCP's pmcd. Serve starts them too if Start was not
// called; later calls do nothing (RestartDead starts dead agents again).
// It returns how many agents answer.
func (s *Server) Start(ctx context.Context) int {
	s.once.Do(func() { s.startAgents(ctx) })
	live := 0
	for _, a := range s.st().order {
		if a.alive() {
			live++
		}
	}
	return live
}
