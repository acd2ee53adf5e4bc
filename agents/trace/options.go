package trace

import (
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/internal/getopt"
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

// ParseUnits reads pmdatrace's -U and -V argument as PCP's agent does:
// the first six comma-separated fields (empty ones skipped, any after
// the sixth ignored), each a whole C strtol in base 10, are the
// dimensions of space, time and count, then the scales of space, time
// and count; the errors are PCP's words. Like PCP's, no range is checked: each number, cut to a C
// int, keeps the low four bits a descriptor's field holds (signed for
// the dimensions and the count scale).
func ParseUnits(s string) (pcp.Units, error) {
	s, _, _ = strings.Cut(s, "\x00") // a C string ends at its first NUL
	var n [6]int32
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' })
	// field by field, as PCP's: a bad number ahead of a missing field
	// is the error said
	for i := range n {
		if i >= len(fields) {
			return pcp.Units{}, fmt.Errorf("token parse error in string \"%s\"", s)
		}
		x := fields[i]
		v, end, _ := getopt.CStrtol(x, 10)
		if end != len(x) {
			return pcp.Units{}, fmt.Errorf("integer parse error for substring \"%s\"", x)
		}
		n[i] = int32(v)
	}
	signed := func(v int32) int8 { return int8(v << 28 >> 28) }
	return pcp.Units{DimSpace: signed(n[0]), DimTime: signed(n[1]), DimCount: signed(n[2]),
		ScaleSpace: uint8(n[3] & 15), ScaleTime: uint8(n[4] & 15), ScaleCount: signed(n[5])}, nil
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
// "disallow:HOST" or "allow:HOST[:MAXCONN]", the keyword in any ASCII
// case (C's strncasecmp), blanks before the host skipped, the host up
// to the next colon, anything after a disallowed host ignored. The
// connection limit is a whole C strtol in base 10 (leading blanks and a
// sign taken, empty is 0) cut to a C int, refused when that is negative.
// An allowed host without a colon after it is completed first by
// AccessFollowing, as PCP's agent reads it.
func parseAccess(spec string) (accessRule, error) {
	spec, _, _ = strings.Cut(spec, "\x00") // a C string ends at its first NUL
	var rest string
	var deny bool
	switch {
	case hasPrefixASCIIFold(spec, "disallow:"):
		rest, deny = spec[len("disallow:"):], true
	case hasPrefixASCIIFold(spec, "allow:"):
		rest = spec[len("allow:"):]
	default:
		return accessRule{}, fmt.Errorf("access spec is invalid (%s)", spec)
	}
	host, num, _ := strings.Cut(strings.TrimLeft(rest, " \t\n\v\f\r"), ":")
	switch {
	case host == "" && deny:
		return accessRule{}, fmt.Errorf("invalid disallow (%s)", spec)
	case host == "":
		return accessRule{}, fmt.Errorf("invalid allow (%s)", spec)
	case deny:
		return accessRule{host: host, deny: true}, nil
	}
	n, end, _ := getopt.CStrtol(num, 10)
	if end != len(num) || int32(n) < 0 {
		return accessRule{}, fmt.Errorf("bogus max connection in '%s'", num)
	}
	return accessRule{host: host, maxConn: int(int32(n))}, nil
}

// hasPrefixASCIIFold is C's strncasecmp(s, prefix, len(prefix)) == 0 in
// the C locale: only ASCII letters match across case.
func hasPrefixASCIIFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		a, b := s[i], prefix[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// AccessFollowing is an -A specification as PCP's pmdatrace reads it
// when next is the string that follows it in the process's memory (the
// next argument; after the last one, the first environment string; with
// no environment, the program's path): an allowed host with no colon
// after it has its connection limit read from there, past the end of
// the argument, so "allow:HOST" followed by "7" allows 7 connections
// and followed by "-l" is a bogus limit. Any other specification is
// returned as it is.
func AccessFollowing(spec, next string) string {
	spec, _, _ = strings.Cut(spec, "\x00") // a C string ends at its first NUL
	if !hasPrefixASCIIFold(spec, "allow:") {
		return spec
	}
	host := strings.TrimLeft(spec[len("allow:"):], " \t\n\v\f\r")
	if host == "" || strings.Contains(host, ":") {
		return spec
	}
	next, _, _ = strings.Cut(next, "\x00")
	return spec + ":" + next
}

// CheckAccess reports whether an -A specification is well formed.
func CheckAccess(spec string) error {
	_, err := parseAccess(spec)
	return err
}

// newAccess builds the access controls of the specifications. As in
// PCP's pmdatrace, a host that cannot be added (a name that does not
// resolve) is reported to lg and left out; only a malformed
// specification stops the agent.
func newAccess(specs []string, lg *log.Logger) (*access.Control, error) {
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
		err = acl.AddHostLimit(r.host, opSend, deny, r.maxConn)
		for _, n := range acl.Notes() {
			lg.Printf("Error: %s", n)
		}
		if err != nil {
			lg.Printf("Error: failed to add authorisation (%s)", r.host)
		}
	}
	return acl, nil
}
