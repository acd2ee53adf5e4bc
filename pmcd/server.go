package pmcd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"sync"
	"sync/atomic"
	"time"

	pmcdagent "github.com/gopcp/gopcp/agents/pmcd"
	"github.com/gopcp/gopcp/internal/lograte"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// Server serves PCP clients. Its fields are set before Serve and not
// changed afterwards; one Server may serve several listeners at once.
type Server struct {
	// PMNS is the namespace the server answers from.
	PMNS *pmns.Tree
	// MaxPDU caps the length of a PDU a client may send (pmcd's -L);
	// zero means PCP's 64 KiB.
	MaxPDU int
	// Timeout bounds reading one client PDU once it has begun, and
	// sending one; zero means pdu.DefaultTimeout.
	Timeout time.Duration
	// Log receives one line per client or agent problem; nil discards
	// them.
	Log *log.Logger
	// Conf names the agents to start (pmcd's -c); nil means none.
	Conf *Conf
	// AgentTimeout bounds each request to an agent (pmcd's -t); zero
	// means PCP's 5 seconds. An agent that does not answer in time is
	// marked dead.
	AgentTimeout time.Duration
	// AgentStderr receives daemon agents' standard error; nil discards
	// it.
	AgentStderr io.Writer
	// Stderr receives the lines PCP's pmcd writes to its standard error
	// (its log) without a date and program prefix, such as the second
	// line of an agent's cleanup; nil means AgentStderr.
	Stderr io.Writer
	// AgentDir is the working directory of the agents pmcd starts
	// (PCP's pmcd runs them in $PCP_LOG_DIR/pmcd); empty means pmcd's.
	AgentDir string
	// RequireCreds refuses clients without credentials, as pmcd -S does
	// (only Unix-socket clients have them).
	RequireCreds bool
	// Hostname is the name pmcd.hostname reports (pmcd -H); empty means
	// the host's name.
	Hostname string
	// TZ is $TZ as pmcd's caller read it, for pmcd.zoneinfo; empty means
	// the zone /etc/localtime names.
	TZ string
	// StartTimeout bounds an agent's start and first handshake (pmcd -q
	// sets the handshake part); zero means 10 seconds or the agent
	// timeout if longer.
	StartTimeout time.Duration
	// AutoRestart restarts dead agents, as PCP's pmcd does unless
	// PMCD_RESTART_AGENTS=0: once a request has found an agent dead,
	// the agent is started again, at once unless it was restarted under
	// a minute ago, and the requests after it wait for the restart.
	AutoRestart bool
	// FreeIdleMemory hands the memory clients left back to the system
	// when the last one goes, at most once a second (idlememory.go): a
	// forced collection, worth it to a daemon that idles between bursts
	// of clients, not to every program that embeds a Server.
	FreeIdleMemory bool
	// MaxProcs, when above 1, has pmcd raise runtime.GOMAXPROCS while
	// many clients keep it busy (a P for each four), up to MaxProcs,
	// and give the Ps back after (procs.go). GOMAXPROCS is the process's: every
	// Server with MaxProcs set shares one scaler, which adds to what it
	// finds and stops if anything else changes it. cmd/pmcd sets it (the
	// CPUs, from one P); a program that embeds a Server leaves it zero
	// unless it wants the same.
	MaxProcs int
	// ProcsLimit, when set, is the most Ps the process should use now
	// (CPULimit: the CPUs a container may be resized to), read at most
	// once a window while the clients want more than one; MaxProcs
	// still bounds it.
	ProcsLimit func() int
	// ProcsSched, when set, is the time the process's threads have run
	// and waited for a CPU (ThreadsSched), read once a window while
	// the clients want more than one P: MaxProcs is then taken only
	// while the threads on one P wait for a CPU as long as they run or
	// run nearly all the time (procs.go).
	ProcsSched func() (run, wait time.Duration, ok bool)
	// ProcsIdle, when set, is the time the machine's CPUs have been idle
	// (MachineIdle), read with ProcsSched: a window in which less than
	// half a CPU was idle keeps pmcd on one P whatever its threads'
	// counts say (procs.go).
	ProcsIdle func() (idle time.Duration, ok bool)

	wg     sync.WaitGroup
	bg     sync.WaitGroup // agents being closed
	once   sync.Once
	agents map[uint32]*agent // read-only once started

	// restartCtx starts agents again after a death (AutoRestart);
	// restartsDue counts restarts under way or about to be, which
	// requests wait for; closing and stopRestarts end them.
	restartCtx   context.Context
	restartsDue  inFlight
	closing      atomic.Bool
	stopOnce     sync.Once
	stopRestarts chan struct{}

	numMu sync.Mutex
	nums  map[int32]bool // client numbers in use

	cur      atomic.Pointer[state] // nil until the first Serve
	reloadMu sync.Mutex            // one Reload or RestartDead at a time

	clientsMu sync.Mutex
	clients   map[*client]struct{}
	// idleFree hands memory back once the clients have gone.
	idleFree idleFree
	// scaler, when set, replaces the process's procScaler (MaxProcs),
	// for tests.
	scaler *procScaler
	// polls is the set of clients whose readiness one goroutine
	// watches (clientpoll_linux.go).
	polls clientPolls

	// clientLog bounds the lines clients' mistakes write to the log.
	clientLog lograte.Limiter
	// logClock, when set, is the clock of the accept log's limit, for
	// tests.
	logClock func() time.Time
	// onInProc, when set, sees each in-process agent made (pmcd's own
	// apart) before its first call, for tests to give it their clock.
	onInProc func(*inProc)

	// ctl are the counters and settings pmcd's own agent shares: PDUs
	// counted by type, Rescan calls, the sequence number, the
	// pmcd.control settings.
	ctl pmcdagent.Controls
	// Files, when set, is what a store into pmcd.control.sighup has
	// Rescan read again.
	Files *Files
	// Trace is pmcd -T's mask; pmcd's agent reports and changes it.
	Trace int32
	// Local says the listeners take this host's clients only
	// (PMCD_LOCAL), for pmcd.feature.local.
	Local bool

	// labels is the host's context labels last seen, for
	// PMCD_LABEL_CHANGE (notices.go).
	labels labelWatch

	rescanMu    sync.Mutex
	clientSeq   atomic.Int32 // numbers clients in order of arrival
	unixServing atomic.Bool  // a Unix socket is being served
}

// defaultAgentTimeout is pmcd's default -t.
const defaultAgentTimeout = 5 * time.Second

// startTimeout is the least time an agent has to start and greet.
const startTimeout = 10 * time.Second

func (s *Server) agentTimeout() time.Duration {
	if s.ctl.TimeoutSet.Load() {
		if d := time.Duration(s.ctl.Timeout.Load()); d > 0 {
			return d
		}
		return 24 * 365 * time.Hour // 0: wait for ever, as PCP's pmcd
	}
	if s.AgentTimeout > 0 {
		return s.AgentTimeout
	}
	return defaultAgentTimeout
}

// clientNum gives a new client the smallest number not in use, as PCP's
// pmcd numbers clients by their slot; agents see it as the "from" of the
// client's requests.
func (s *Server) clientNum() int32 {
	s.numMu.Lock()
	defer s.numMu.Unlock()
	if s.nums == nil {
		s.nums = make(map[int32]bool)
	}
	n := int32(0)
	for s.nums[n] {
		n++
	}
	s.nums[n] = true
	return n
}

func (s *Server) freeClientNum(n int32) {
	s.numMu.Lock()
	defer s.numMu.Unlock()
	delete(s.nums, n)
}

// Serve accepts clients on l until ctx is done or l fails, serving each on
// its own goroutine, and waits for them to finish before returning. It
// closes l. The first Serve starts the agents of Conf, under ctx; Close
// stops them.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	if s.PMNS == nil && s.cur.Load() == nil {
		return errNoNamespace
	}
	s.once.Do(func() { s.startAgents(ctx) })
	if s.MaxProcs > 1 {
		s.procs().join(s)
	}
	// By the address, not the type: a listener may wrap a Unix one
	// (ownfile.Socket).
	if l.Addr().Network() == "unix" {
		s.unixServing.Store(true)
		defer s.unixServing.Store(false)
	}
	stop := context.AfterFunc(ctx, func() {
		l.Close()
		// A client's goroutine in an in-process agent's fetch is not
		// waited for: the goroutines are, below.
		for _, a := range s.st().order {
			if p := a.direct.Load(); p != nil {
				p.abandon(ctx.Err())
			}
		}
	})
	defer stop()
	defer s.wg.Wait()
	var wait time.Duration // since accepts began failing
	logged := false        // a failure since the last accept was logged
	acceptLog := lograte.Limiter{Period: time.Minute, Burst: 1, Now: s.logClock}
	for {
		conn, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, net.ErrClosed) {
				return fmt.Errorf("pmcd: cannot accept: %w", err)
			}
			// Anything else, chiefly running out of descriptors
			// (EMFILE, ENFILE), passes: wait and try again, as
			// net/http does, rather than keep the port with nobody
			// answering. Failures are logged at most once a minute,
			// and the recovery after a logged one.
			if ok, n := acceptLog.Allow(); ok {
				if n > 0 {
					s.logf("Error: cannot accept clients: %v; retrying (%d more failures since the last line)", err, n)
				} else {
					s.logf("Error: cannot accept clients: %v; retrying", err)
				}
				logged = true
			}
			wait = acceptBackoff(wait)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(wait):
			}
			continue
		}
		if logged {
			s.logf("Info: accepting clients again")
		}
		wait, logged = 0, false
		s.wg.Add(1)
		// serveClient marks s.wg done, from whichever goroutine ends
		// up serving the client.
		go s.serveClient(ctx, conn)
	}
}

// acceptBackoff is the wait after a failed accept, given the last one:
// from 5 ms, doubling to at most a second.
func acceptBackoff(last time.Duration) time.Duration {
	if last == 0 {
		return 5 * time.Millisecond
	}
	return min(2*last, time.Second)
}

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log.Printf(format, args...)
	}
}

// clientLogf logs a problem of one client's making, within clientLog's
// limit: clients are many and anyone may be one.
func (s *Server) clientLogf(format string, args ...any) {
	if s.Log == nil {
		return
	}
	ok, suppressed := s.clientLog.Allow()
	if !ok {
		return
	}
	if suppressed > 0 {
		format += " (%d similar lines suppressed)"
		args = append(args, suppressed)
	}
	s.Log.Printf(format, args...)
}

func (s *Server) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return pdu.DefaultTimeout
}

func (s *Server) maxPDU() int {
	if s.MaxPDU > 0 {
		return s.MaxPDU
	}
	return pdu.ClientMaxLen
}

// restartInterval is the least time between automatic restarts of one
// agent.
const restartInterval = time.Minute
