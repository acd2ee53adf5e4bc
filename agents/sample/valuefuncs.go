package sample

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// The value functions of valueFuncs that are more than one expression,
// by family. Several move the agent's state on with each value made.

func (s *agent) daemonPIDValue(_ valueReq, a *pcp.Atom) error {
	if s.pid == 0 {
		s.pid = uint32(pmda.HostPID())
	}
	return setUL(a, s.pid)
}

// secondsUp is the whole seconds from the agent's start to this fetch.
func (s *agent) secondsUp() int64 { return s.fetchNow.Unix() - s.begun.Unix() }

func (s *agent) millisecondsValue(_ valueReq, a *pcp.Atom) error {
	// PCP's agent works in microseconds.
	return setD(a, float64(s.fetchNow.Sub(s.begun).Microseconds())/1000)
}

// colourValue and the mirages move on the counter they share.
func (s *agent) colourValue(r valueReq, a *pcp.Atom) error {
	s.x = (s.x + 1) % 100
	return setL(a, s.x+100*(r.inst+1))
}

func (s *agent) mirageValue(r valueReq, a *pcp.Atom) error {
	s.x = (s.x + 1) % 100
	s.mirage.need = true
	return setL(a, (r.inst+1)*100-s.x)
}

func (s *agent) mirage64Value(r valueReq, a *pcp.Atom) error {
	s.x = (s.x + 1) % 100
	s.mirage.need = true
	return setLL(a, int64((r.inst+1)*100-s.x)*1000000)
}

func (s *agent) driftValue(_ valueReq, a *pcp.Atom) error {
	s.drift += s.sign * int32(s.rnd.next()%50)
	if s.drift < 0 {
		s.drift = 0
	}
	a.L = s.drift
	if s.rnd.next()%100 < 20 {
		s.sign = -s.sign
	}
	return nil
}

// stepValue reads the clock itself, not the fetch's reading, as PCP's
// agent does.
func (s *agent) stepValue(_ valueReq, a *pcp.Atom) error {
	return setL(a, int32((1+(time.Now().Unix()-s.begun.Unix())/30)*int64(s.step)))
}

// binOf is the value of the bin numbered inst, 0 for a number that is
// not a bin's.
func (s *agent) binOf(inst int32) int32 {
	if i := inst/100 - 1; i >= 0 && int(i) < len(s.binVal) {
		return s.binVal[i]
	}
	return 0
}

func (s *agent) binValue(r valueReq, a *pcp.Atom) error {
	return setL(a, s.binOf(r.inst))
}

// bogusBinValue answers for the instances FetchSet moved 50 past a
// multiple of 200 the value of the bin they came from, plus 50.
func (s *agent) bogusBinValue(r valueReq, a *pcp.Atom) error {
	if r.inst%200 == 50 {
		return setL(a, s.binOf(r.inst-50)+50)
	}
	return setL(a, s.binOf(r.inst))
}

func (s *agent) binU32Value(r valueReq, a *pcp.Atom) error {
	return setUL(a, uint32(s.binOf(r.inst)))
}

func (s *agent) binFloatValue(r valueReq, a *pcp.Atom) error {
	return setF(a, float32(s.binOf(r.inst)))
}

func (s *agent) bin64Value(r valueReq, a *pcp.Atom) error {
	return setLL(a, int64(s.binOf(r.inst)))
}

// binU64Value is the bin's value plus the seconds the agent has run.
func (s *agent) binU64Value(r valueReq, a *pcp.Atom) error {
	return setULL(a, uint64(int64(s.binOf(r.inst))+s.secondsUp()))
}

func (s *agent) binDoubleValue(r valueReq, a *pcp.Atom) error {
	return setD(a, float64(s.binOf(r.inst)))
}

// binStringValue is the bin's value in three characters, cut if longer.
func (s *agent) binStringValue(r valueReq, a *pcp.Atom) error {
	v := fmt.Sprintf("%3d", s.binOf(r.inst))
	if len(v) > 3 {
		v = v[:3]
	}
	return setCP(a, v)
}

// pduValue is sample.pdu, recv_pdu or xmit_pdu: counts over every client.
func (s *agent) pduValue(r valueReq, a *pcp.Atom) error {
	recv, xmit := s.ctx.totals()
	switch r.item {
	case itemRecvPDU:
		return setUL(a, uint32(recv))
	case itemXmitPDU:
		return setUL(a, uint32(xmit))
	}
	return setULL(a, uint64(int64(recv)+int64(xmit)))
}

// perContextValue is one of sample.percontext.*; a client the agent does
// not know gets the error code as the value.
func (s *agent) perContextValue(r valueReq, a *pcp.Atom) error {
	v, err := s.ctx.value(r.c, r.item)
	if err != nil {
		var pe pcp.Error
		if !errors.As(err, &pe) {
			return err
		}
		v = int32(pe)
	}
	return setL(a, v)
}

// lightsValue and magnitudeValue hold a random value for a random number
// of fetches.
func (s *agent) lightsValue(_ valueReq, a *pcp.Atom) error {
	if s.lightFetches == 0 {
		s.lightColour = s.rnd.next() % 3
		s.lightFetches = 1 + s.rnd.next()%10
	}
	s.lightFetches--
	return setCP(a, lightNames[s.lightColour])
}

func (s *agent) magnitudeValue(_ valueReq, a *pcp.Atom) error {
	if s.magnitudeFetches == 0 {
		s.magnitude = 1 << (1 + s.rnd.next()%6)
		s.magnitudeFetches = 1 + s.rnd.next()%5
	}
	s.magnitudeFetches--
	return setL(a, int32(s.magnitude))
}

// The wrap counters grow by about half their range at each fetch, the
// slow ones by about a tenth (the unsigned ones a twentieth).

func (s *agent) wrapLongValue(_ valueReq, a *pcp.Atom) error {
	s.wrap += math.MaxInt32/2 - 1
	return setL(a, s.wrap)
}

func (s *agent) wrapUlongValue(_ valueReq, a *pcp.Atom) error {
	s.uwrap += math.MaxUint32/2 - 1
	return setUL(a, s.uwrap)
}

func (s *agent) wrapLonglongValue(_ valueReq, a *pcp.Atom) error {
	s.llwrap += math.MaxInt64/2 - 1
	return setLL(a, s.llwrap)
}

func (s *agent) wrapUlonglongValue(_ valueReq, a *pcp.Atom) error {
	s.ullwrap += math.MaxUint64/2 - 1
	return setULL(a, s.ullwrap)
}

func (s *agent) slowWrapLongValue(_ valueReq, a *pcp.Atom) error {
	s.swrap += math.MaxInt32/10 - 1
	return setL(a, s.swrap)
}

func (s *agent) slowWrapUlongValue(_ valueReq, a *pcp.Atom) error {
	s.uswrap += math.MaxInt32/10 - 1
	return setUL(a, s.uswrap)
}

func (s *agent) slowWrapLonglongValue(_ valueReq, a *pcp.Atom) error {
	s.llswrap += math.MaxInt64/10 - 1
	return setLL(a, s.llswrap)
}

func (s *agent) slowWrapUlonglongValue(_ valueReq, a *pcp.Atom) error {
	s.ullswrap += math.MaxInt64/10 - 1
	return setULL(a, s.ullswrap)
}

// rapidValue is a 32-bit counter rising by 80 million a fetch, carried
// into 64 bits when it wraps, and reported ten times over.
func (s *agent) rapidValue(_ valueReq, a *pcp.Atom) error {
	s.rapid += 80000000
	if s.rapid < uint32(s.rapidCtr) {
		s.rapidCtr += 1 << 32
	}
	s.rapidCtr = s.rapidCtr&^0xffffffff | uint64(s.rapid)
	return setUL(a, uint32(s.rapidCtr*10))
}

func (s *agent) scaleStepValue(r valueReq, a *pcp.Atom) error {
	return setD(a, s.scaleStepNext(int(r.item-itemScaleStepBytesUp)))
}

// constRateValue moves sample.const_rate.value on by its gradient for the
// time since it was last fetched.
func (s *agent) constRateValue(_ valueReq, a *pcp.Atom) error {
	now := s.fetchNow
	v := float64(s.constValue) + float64(s.constGrad)*now.Sub(s.constAt).Seconds()
	s.constAt = now
	s.constValue = uint32(int64(v))
	return setUL(a, s.constValue)
}

// errorCheckValue fails the whole request with sample.error_code's code
// while it is negative.
func (s *agent) errorCheckValue(_ valueReq, a *pcp.Atom) error {
	if s.errorCode < 0 {
		return pmda.FailRequest(pcp.Error(s.errorCode))
	}
	return nil
}

func (s *agent) dynamicValue(r valueReq, a *pcp.Atom) error {
	return setL(a, s.dyn.ctr[r.inst])
}

// byteCounterValue is sample.byte_ctr or kbyte_ctr, which share a count.
func (s *agent) byteCounterValue(_ valueReq, a *pcp.Atom) error {
	s.nbyte += int32(s.rnd.next() % 1024)
	return setL(a, s.nbyte)
}

func (s *agent) randomValue(_ valueReq, a *pcp.Atom) error {
	return setL(a, int32(s.rnd.next()%1024))
}

// magicValue is 42 in whatever type sample.dynamic.meta.metric's
// descriptor has been given.
func (s *agent) magicValue(_ valueReq, a *pcp.Atom) error {
	switch s.magic.Type {
	case pcp.Type32:
		a.L = 42
	case pcp.TypeU32:
		a.UL = 42
	case pcp.Type64:
		a.LL = 42
	case pcp.TypeU64:
		a.ULL = 42
	case pcp.TypeFloat:
		a.F = 42
	case pcp.TypeDouble:
		a.D = 42
	case pcp.TypeString:
		a.CP = "42"
	}
	return nil
}

func (s *agent) eventsValue(r valueReq, a *pcp.Atom) error {
	v, err := s.eventValue(r.item, r.inst)
	*a = v
	return err
}

// The sample.negative.* metrics of one type share a counter that every
// fetch of any of them moves on.

func (s *agent) negative32Value(_ valueReq, a *pcp.Atom) error {
	s.negL++
	return setL(a, s.negL)
}

func (s *agent) negative64Value(_ valueReq, a *pcp.Atom) error {
	s.negLL++
	return setLL(a, s.negLL)
}

func (s *agent) negativeFloatValue(_ valueReq, a *pcp.Atom) error {
	s.negF++
	return setF(a, s.negF)
}

func (s *agent) negativeDoubleValue(_ valueReq, a *pcp.Atom) error {
	s.negD++
	return setD(a, s.negD)
}

// The set functions fill one field of a value function's atom, which
// value has cleared, and return nil: a value function's last line.

func setL(a *pcp.Atom, v int32) error    { a.L = v; return nil }
func setUL(a *pcp.Atom, v uint32) error  { a.UL = v; return nil }
func setLL(a *pcp.Atom, v int64) error   { a.LL = v; return nil }
func setULL(a *pcp.Atom, v uint64) error { a.ULL = v; return nil }
func setF(a *pcp.Atom, v float32) error  { a.F = v; return nil }
func setD(a *pcp.Atom, v float64) error  { a.D = v; return nil }
func setCP(a *pcp.Atom, v string) error  { a.CP = v; return nil }

// setAggregate makes a an aggregate value holding data.
func setAggregate(a *pcp.Atom, data []byte) error {
	a.VBP = &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: data}
	return nil
}
