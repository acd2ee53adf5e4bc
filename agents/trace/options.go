package trace

import (
	"fmt"
	"log"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/trace"
)

// Options configure the agent. Zero values are pmdatrace's defaults.
type Options struct {
	// Port is announced as trace.control.port; 0 is trace.DefaultPort.
	// Serve listens on the listener it is given.
	Port int
	// Period is the sampling period (-T); 0 is 60 seconds. Rates divide
	// by its whole seconds, as pmdatrace's do.
	Period time.Duration
	// Buckets is the number of intervals in the period (-N); 0 is 5.
	Buckets int
	// ObserveUnits and CounterUnits are the units of trace.observe.value
	// and trace.counter.value (-U and -V); zero is none.
	ObserveUnits, CounterUnits pcp.Units
	// Access holds -A specifications: "allow:HOST[:MAXCONN]" or
	// "disallow:HOST"; none allows every host.
	Access []string
	// MaxClients bounds the programs connected at once; 0 is 512.
	MaxClients int
	// MaxTags bounds the tags of all types kept at once; 0 is 100000.
	MaxTags int
	// MaxBucketEntries bounds the per-interval records of tags over the
	// whole window (a tag seen in every interval has one per bucket);
	// 0 is 1048576, some 100 MB.
	MaxBucketEntries int
	// PDUTimeout bounds the time a PDU, once begun, takes to arrive
	// whole; 0 is 10 seconds.
	PDUTimeout time.Duration
	// ManualTicks leaves the intervals to the caller (Tick), for tests
	// that control the clock.
	ManualTicks bool
	// Log receives the agent's reports; nil discards them.
	Log *log.Logger
	// PID is written into the agent's PDUs; pmdatrace writes its pid.
	PID int32
}

// Defaults of pmdatrace and our bounds.
const (
	DefaultPeriod     = 60 * time.Second
	DefaultBuckets    = 5
	DefaultMaxClients = 512
	DefaultMaxTags    = 100000

	DefaultMaxBucketEntries = 1 << 20
)

func (o *Options) defaults() error {
	if o.Port == 0 {
		o.Port = trace.DefaultPort
	}
	if o.Period == 0 {
		o.Period = DefaultPeriod
	}
	if o.Buckets == 0 {
		o.Buckets = DefaultBuckets
	}
	if o.MaxClients == 0 {
		o.MaxClients = DefaultMaxClients
	}
	if o.PDUTimeout == 0 {
		o.PDUTimeout = 10 * time.Second
	}
	if o.MaxTags == 0 {
		o.MaxTags = DefaultMaxTags
	}
	if o.MaxBucketEntries == 0 {
		o.MaxBucketEntries = DefaultMaxBucketEntries
	}
	switch {
	case o.Port < 0 || o.Port > 65535:
		return fmt.Errorf("bad port %d", o.Port)
	case o.Period < time.Second:
		return fmt.Errorf("period %v is under a second", o.Period)
	case o.Buckets < 1 || o.Buckets > 100000:
		return fmt.Errorf("buckets %d: from 1 to 100000", o.Buckets)
	case o.MaxClients < 1 || o.MaxTags < 1 || o.MaxBucketEntries < 1:
		return fmt.Errorf("bounds must be positive")
	}
	return nil
}

// seconds is the period in whole seconds, what pmdatrace divides by.
func (o *Options) seconds() uint32 { return uint32(o.Period / time.Second) }

// interval is how often a bucket closes: pmdatrace arms its timer with
// period/N seconds and (period%N) "microseconds" times a million, which
// comes to period/N + period%N whole seconds.
func (o *Options) interval() time.Duration {
	s := int(o.seconds())
	return time.Duration(s/o.Buckets+s%o.Buckets) * time.Second
}

// ParseUnits reads pmdatrace's -U and -V argument: six comma-separated
// integers, dimension of space, time and count, then scale of space,
// time and count.
func ParseUnits(s string) (pcp.Units, error) {
	f := strings.Split(s, ",")
	if len(f) != 6 {
		return pcp.Units{}, fmt.Errorf("units %q: want six comma-separated integers", s)
	}
	var n [6]int
	for i, x := range f {
		v, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil || v < -8 || v > 15 {
			return pcp.Units{}, fmt.Errorf("units %q: bad number %q", s, x)
		}
		n[i] = v
	}
	if n[0] > 7 || n[1] > 7 || n[2] > 7 || n[3] < 0 || n[4] < 0 || n[5] > 7 {
		return pcp.Units{}, fmt.Errorf("units %q: out of range", s)
	}
	return pcp.Units{DimSpace: int8(n[0]), DimTime: int8(n[1]), DimCount: int8(n[2]),
		ScaleSpace: uint8(n[3]), ScaleTime: uint8(n[4]), ScaleCount: int8(n[5])}, nil
}

// opSend is pmdatrace's one operation, sending data.
const opSend = 1

// accessRule is one -A specification, parsed.
type accessRule struct {
	host    string
	deny    bool
	maxConn int
}

// parseAccess reads an -A specification as pmdatrace's parseAuth does:
// "disallow:HOST" or "allow:HOST[:MAXCONN]", the keyword in any case,
// leading blanks before the host ignored.
func parseAccess(spec string) (accessRule, error) {
	kw, rest, ok := strings.Cut(spec, ":")
	if !ok {
		return accessRule{}, fmt.Errorf("access spec is invalid (%s)", spec)
	}
	host, num, hasNum := strings.Cut(strings.TrimLeft(rest, " \t\n\v\f\r"), ":")
	switch {
	case strings.EqualFold(kw, "disallow"):
		if host == "" {
			return accessRule{}, fmt.Errorf("invalid disallow (%s)", spec)
		}
		return accessRule{host: host, deny: true}, nil
	case strings.EqualFold(kw, "allow"):
		if host == "" {
			return accessRule{}, fmt.Errorf("invalid allow (%s)", spec)
		}
		r := accessRule{host: host}
		if hasNum && num != "" {
			n, err := strconv.Atoi(num)
			if err != nil || n < 0 {
				return accessRule{}, fmt.Errorf("bogus max connection in '%s'", num)
			}
			r.maxConn = n
		}
		return r, nil
	}
	return accessRule{}, fmt.Errorf("access spec is invalid (%s)", spec)
}

// CheckAccess reports whether an -A specification is well formed.
func CheckAccess(spec string) error {
	_, err := parseAccess(spec)
	return err
}

// newAccess builds the access controls of the specifications.
func newAccess(specs []string) (*access.Control, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	acl := access.New(access.Options{Ops: opSend})
	for _, s := range specs {
		r, err := parseAccess(s)
		if err != nil {
			return nil, err
		}
		deny := 0
		if r.deny {
			deny = opSend
		}
		if err := acl.AddHostLimit(r.host, opSend, deny, r.maxConn); err != nil {
			return nil, fmt.Errorf("failed to add authorisation (%s): %w", r.host, err)
		}
	}
	return acl, nil
}
