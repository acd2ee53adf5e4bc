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

func (s *agent) daemonPIDValue(valueReq) (pcp.Atom, error) {
	if s.pid == 0 {
		s.pid = uint32(pid())
	}
	return pcp.Atom{UL: s.pid}, nil
}

// secondsUp is the whole seconds from the agent's start to this fetch.
func (s *agent) secondsUp() int64 { return s.fetchNow.Unix() - s.begun.Unix() }

func (s *agent) millisecondsValue(valueReq) (pcp.Atom, error) {
	// PCP's agent works in microseconds.
	return pcp.Atom{D: float64(s.fetchNow.Sub(s.begun).Microseconds()) / 1000}, nil
}

// colourValue and the mirages move on the counter they share.
func (s *agent) colourValue(r valueReq) (pcp.Atom, error) {
	s.x = (s.x + 1) % 100
	return pcp.Atom{L: s.x + 100*(r.inst+1)}, nil
}

func (s *agent) mirageValue(r valueReq) (pcp.Atom, error) {
	s.x = (s.x + 1) % 100
	s.mirage.need = true
	return pcp.Atom{L: (r.inst+1)*100 - s.x}, nil
}

func (s *agent) mirage64Value(r valueReq) (pcp.Atom, error) {
	s.x = (s.x + 1) % 100
	s.mirage.need = true
	return pcp.Atom{LL: int64((r.inst+1)*100-s.x) * 1000000}, nil
}

func (s *agent) driftValue(valueReq) (pcp.Atom, error) {
	s.drift += s.sign * int32(s.rnd.next()%50)
	if s.drift < 0 {
		s.drift = 0
	}
	a := pcp.Atom{L: s.drift}
	if s.rnd.next()%100 < 20 {
		s.sign = -s.sign
	}
	return a, nil
}

// stepValue reads the clock itself, not the fetch's reading, as PCP's
// agent does.
func (s *agent) stepValue(valueReq) (pcp.Atom, error) {
	return pcp.Atom{L: int32((1 + (time.Now().Unix()-s.begun.Unix())/30) * int64(s.step))}, nil
}

// binOf is the value of the bin numbered inst, 0 for a number that is
// not a bin's.
func (s *agent) binOf(inst int32) int32 {
	if i := inst/100 - 1; i >= 0 && int(i) < len(s.binVal) {
		return s.binVal[i]
	}
	return 0
}

func (s *agent) binValue(r valueReq) (pcp.Atom, error) {
	return pcp.Atom{L: s.binOf(r.inst)}, nil
}

// bogusBinValue answers for the instances FetchSet moved 50 past a
// multiple of 200 the value of the bin they came from, plus 50.
func (s *agent) bogusBinValue(r valueReq) (pcp.Atom, error) {
	if r.inst%200 == 50 {
		return pcp.Atom{L: s.binOf(r.inst-50) + 50}, nil
	}
	return pcp.Atom{L: s.binOf(r.inst)}, nil
}

func (s *agent) binU32Value(r valueReq) (pcp.Atom, error) {
	return pcp.Atom{UL: uint32(s.binOf(r.inst))}, nil
}

func (s *agent) binFloatValue(r valueReq) (pcp.Atom, error) {
	return pcp.Atom{F: float32(s.binOf(r.inst))}, nil
}

func (s *agent) bin64Value(r valueReq) (pcp.Atom, error) {
	return pcp.Atom{LL: int64(s.binOf(r.inst))}, nil
}

// binU64Value is the bin's value plus the seconds the agent has run.
func (s *agent) binU64Value(r valueReq) (pcp.Atom, error) {
	return pcp.Atom{ULL: uint64(int64(s.binOf(r.inst)) + s.secondsUp())}, nil
}

func (s *agent) binDoubleValue(r valueReq) (pcp.Atom, error) {
	return pcp.Atom{D: float64(s.binOf(r.inst))}, nil
}

// binStringValue is the bin's value in three characters, cut if longer.
func (s *agent) binStringValue(r valueReq) (pcp.Atom, error) {
	v := fmt.Sprintf("%3d", s.binOf(r.inst))
	if len(v) > 3 {
		v = v[:3]
	}
	return pcp.Atom{CP: v}, nil
}

// pduValue is sample.pdu, recv_pdu or xmit_pdu: counts over every client.
func (s *agent) pduValue(r valueReq) (pcp.Atom, error) {
	recv, xmit := s.ctx.totals()
	switch r.item {
	case itemRecvPDU:
		return pcp.Atom{UL: uint32(recv)}, nil
	case itemXmitPDU:
		return pcp.Atom{UL: uint32(xmit)}, nil
	}
	return pcp.Atom{ULL: uint64(int64(recv) + int64(xmit))}, nil
}

// perContextValue is one of sample.percontext.*; a client the agent does
// not know gets the error code as the value.
func (s *agent) perContextValue(r valueReq) (pcp.Atom, error) {
	v, err := s.ctx.value(r.c, r.item)
	if err != nil {
		var pe pcp.Error
		if !errors.As(err, &pe) {
			return pcp.Atom{}, err
		}
		v = int32(pe)
	}
	return pcp.Atom{L: v}, nil
}

// lightsValue and magnitudeValue hold a random value for a random number
// of fetches.
func (s *agent) lightsValue(valueReq) (pcp.Atom, error) {
	if s.lightFetches == 0 {
		s.lightColour = s.rnd.next() % 3
		s.lightFetches = 1 + s.rnd.next()%10
	}
	s.lightFetches--
	return pcp.Atom{CP: lightNames[s.lightColour]}, nil
}

func (s *agent) magnitudeValue(valueReq) (pcp.Atom, error) {
	if s.magnitudeFetches == 0 {
		s.magnitude = 1 << (1 + s.rnd.next()%6)
		s.magnitudeFetches = 1 + s.rnd.next()%5
	}
	s.magnitudeFetches--
	return pcp.Atom{L: int32(s.magnitude)}, nil
}

// The wrap counters grow by about half their range at each fetch, the
// slow ones by about a tenth (the unsigned ones a twentieth).

func (s *agent) wrapLongValue(valueReq) (pcp.Atom, error) {
	s.wrap += math.MaxInt32/2 - 1
	return pcp.Atom{L: s.wrap}, nil
}

func (s *agent) wrapUlongValue(valueReq) (pcp.Atom, error) {
	s.uwrap += math.MaxUint32/2 - 1
	return pcp.Atom{UL: s.uwrap}, nil
}

func (s *agent) wrapLonglongValue(valueReq) (pcp.Atom, error) {
	s.llwrap += math.MaxInt64/2 - 1
	return pcp.Atom{LL: s.llwrap}, nil
}

func (s *agent) wrapUlonglongValue(valueReq) (pcp.Atom, error) {
	s.ullwrap += math.MaxUint64/2 - 1
	return pcp.Atom{ULL: s.ullwrap}, nil
}

func (s *agent) slowWrapLongValue(valueReq) (pcp.Atom, error) {
	s.swrap += math.MaxInt32/10 - 1
	return pcp.Atom{L: s.swrap}, nil
}

func (s *agent) slowWrapUlongValue(valueReq) (pcp.Atom, error) {
	s.uswrap += math.MaxInt32/10 - 1
	return pcp.Atom{UL: s.uswrap}, nil
}

func (s *agent) slowWrapLonglongValue(valueReq) (pcp.Atom, error) {
	s.llswrap += math.MaxInt64/10 - 1
	return pcp.Atom{LL: s.llswrap}, nil
}

func (s *agent) slowWrapUlonglongValue(valueReq) (pcp.Atom, error) {
	s.ullswrap += math.MaxInt64/10 - 1
	return pcp.Atom{ULL: s.ullswrap}, nil
}

// rapidValue is a 32-bit counter rising by 80 million a fetch, carried
// into 64 bits when it wraps, and reported ten times over.
func (s *agent) rapidValue(valueReq) (pcp.Atom, error) {
	s.rapid += 80000000
	if s.rapid < uint32(s.rapidCtr) {
		s.rapidCtr += 1 << 32
	}
	s.rapidCtr = s.rapidCtr&^0xffffffff | uint64(s.rapid)
	return pcp.Atom{UL: uint32(s.rapidCtr * 10)}, nil
}

func (s *agent) scaleStepValue(r valueReq) (pcp.Atom, error) {
	return pcp.Atom{D: s.scaleStepNext(int(r.item - itemScaleStepBytesUp))}, nil
}

// constRateValue moves sample.const_rate.value on by its gradient for the
// time since it was last fetched.
func (s *agent) constRateValue(valueReq) (pcp.Atom, error) {
	now := s.fetchNow
	v := float64(s.constValue) + float64(s.constGrad)*now.Sub(s.constAt).Seconds()
	s.constAt = now
	s.constValue = uint32(int64(v))
	return pcp.Atom{UL: s.constValue}, nil
}

// errorCheckValue fails the whole request with sample.error_code's code
// while it is negative.
func (s *agent) errorCheckValue(valueReq) (pcp.Atom, error) {
	if s.errorCode < 0 {
		return pcp.Atom{}, pmda.FailRequest(pcp.Error(s.errorCode))
	}
	return pcp.Atom{}, nil
}

func (s *agent) dynamicValue(r valueReq) (pcp.Atom, error) {
	return pcp.Atom{L: s.dyn.ctr[r.inst]}, nil
}

// byteCounterValue is sample.byte_ctr or kbyte_ctr, which share a count.
func (s *agent) byteCounterValue(valueReq) (pcp.Atom, error) {
	s.nbyte += int32(s.rnd.next() % 1024)
	return pcp.Atom{L: s.nbyte}, nil
}

func (s *agent) randomValue(valueReq) (pcp.Atom, error) {
	return pcp.Atom{L: int32(s.rnd.next() % 1024)}, nil
}

// magicValue is 42 in whatever type sample.dynamic.meta.metric's
// descriptor has been given.
func (s *agent) magicValue(valueReq) (pcp.Atom, error) {
	var a pcp.Atom
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
	return a, nil
}

func (s *agent) eventsValue(r valueReq) (pcp.Atom, error) {
	return s.eventValue(r.item, r.inst)
}

// The sample.negative.* metrics of one type share a counter that every
// fetch of any of them moves on.

func (s *agent) negative32Value(valueReq) (pcp.Atom, error) {
	s.negL++
	return pcp.Atom{L: s.negL}, nil
}

func (s *agent) negative64Value(valueReq) (pcp.Atom, error) {
	s.negLL++
	return pcp.Atom{LL: s.negLL}, nil
}

func (s *agent) negativeFloatValue(valueReq) (pcp.Atom, error) {
	s.negF++
	return pcp.Atom{F: s.negF}, nil
}

func (s *agent) negativeDoubleValue(valueReq) (pcp.Atom, error) {
	s.negD++
	return pcp.Atom{D: s.negD}, nil
}

// aggregate is an aggregate value holding data.
func aggregate(data []byte) pcp.Atom {
	return pcp.Atom{VBP: &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: data}}
}
