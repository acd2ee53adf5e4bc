package sample

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// Fetch satisfies pmda.Fetcher; the agent answers through FetchSet.
func (s *agent) Fetch(ctx context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	return pcp.Atom{}, pcp.ErrPMID
}

// Refresh does what happens once per fetch request: the clock is read
// once, sample.mirage and sample.dodgey move on when due, and the domains
// of the metrics asked for (sample.dynamic, sample.ghosts, sample.proc)
// are brought up to date.
func (s *agent) Refresh(ctx context.Context, pmids []pcp.PMID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mirage.need {
		s.redoMirage()
	}
	if s.newDodgey < 0 {
		s.redoDodgey()
	}
	s.fetchNow = s.now()
	s.streams.planned = false
	s.streams.pmids = append(s.streams.pmids[:0], pmids...)
	s.procDone, s.dynDone, s.ghostDone = false, false, false
	return nil
}

// FetchSet answers one metric of a fetch, as pmda.SetFetcher.
func (s *agent) FetchSet(ctx context.Context, c pmda.Client, pmid pcp.PMID, prof pmda.ProfileView, add func(int32, pcp.Type, *pcp.Atom) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.defs[pmid.Item()]
	if d == nil || pmid.Domain() != s.domain || pmid.Cluster() != 0 {
		return pmda.ErrNoValue // PCP's agent answers no values, not an error
	}
	item := pmid.Item()
	s.fetchProf = prof
	// Some domains move on once a fetch, when the first of their
	// metrics is reached (not if the fetch fails before).
	switch {
	case item >= 76 && item <= 78 && !s.dynDone:
		s.dynDone = true
		s.redoDynamic(true)
	case item >= 1009 && item <= 1011 && !s.ghostDone:
		s.ghostDone = true
		s.ghostState = (s.ghostState + 1) % 24
	}
	typ, indom := d.typ, pcp.InDomNull
	if d.indom != noInDom {
		indom = pcp.NewInDom(s.domain, d.indom)
	}
	switch item {
	case 86:
		// PCP's agent makes one value for this metric whatever its
		// descriptor says, more only when the instance domain it was
		// given is one of the agent's.
		typ, indom = s.magic.Type, s.magic.InDom
		if _, err := s.members(indom); err != nil {
			indom = pcp.InDomNull
		}
	case 54:
		return pcp.ErrPMID
	case 92, 138, 9, 127, 128, 129, 130, 131, 132, 133, 134, 135:
		return pmda.ErrNoValue
	case 154:
		return pcp.ErrAgain
	case 1009, 1010, 1011:
		if s.visible < 0 {
			return pcp.ErrPMID
		}
	case 39:
		typ = pcp.TypeAggregateStatic
	}
	if d.typ == pcp.TypeNoSupport {
		return pcp.ErrAppVersion
	}
	if indom == pcp.InDomNull {
		atom, err := s.value(c, item, pcp.InstNull, 0)
		if err != nil {
			return err
		}
		return s.pack(add, pcp.InstNull, typ, &atom)
	}
	if item == 49 && !prof.Explicit(indom) {
		return pcp.ErrProfile
	}
	if item == 121 {
		s.reshuffle()
	}
	if item >= 156 && item <= 158 && !s.procDone {
		// At most once a fetch, when the first of them is reached.
		s.procDone = true
		s.proc.redo(time.Now())
	}
	insts, err := s.members(indom)
	if err != nil {
		return pmda.ErrNoValue
	}
	n := 0
	for _, in := range insts {
		if !prof.Selects(indom, in.ID) {
			continue
		}
		inst := in.ID
		switch {
		case item == 50 && inst%200 == 0:
			continue
		case item == 51 && inst%200 == 0:
			inst += 50 // an instance the domain does not have
		case item == 62:
			if s.dodgeyCtl > 5 && n == 0 {
				s.newDodgey--
			}
			if s.tmpDodgey < 0 {
				return pcp.Error(s.tmpDodgey)
			}
			if s.tmpDodgey == 0 {
				return pmda.ErrNoValue
			}
			if inst > s.tmpDodgey {
				continue
			}
		case item >= 76 && item <= 78 && int(inst) >= len(s.dyn.ctr):
			return nil // values so far, as PCP's agent stops here
		}
		atom, err := s.value(c, item, inst, n)
		if err != nil {
			return err
		}
		if err := s.pack(add, inst, typ, &atom); err != nil {
			return err
		}
		n++
	}
	return nil
}

func (s *agent) pack(add func(int32, pcp.Type, *pcp.Atom) error, inst int32, typ pcp.Type, atom *pcp.Atom) error {
	if err := add(inst, typ, atom); err != nil {
		return pmda.FailRequest(err)
	}
	return nil
}

var (
	hullo       = []byte("hullo world!")
	lightNames  = [...]string{"red", "yellow", "green"}
	ghostOrigin = [...]string{"Africa", "Nepal", "China", "Indonesia", "Japan", "Thailand", "Roumania", "Jamaica"}
)

// value is one value of a metric; n counts the values already made for
// this metric in this fetch. Errors other than pmda.FailRequest's are the
// metric's.
func (s *agent) value(c pmda.Client, item uint32, inst int32, n int) (pcp.Atom, error) {
	var a pcp.Atom
	now := s.fetchNow
	binVal := func() int32 {
		if i := inst/100 - 1; i >= 0 && int(i) < len(s.binVal) {
			return s.binVal[i]
		}
		return 0
	}
	switch item {
	case 0:
		a.L = s.control
	case 1:
		if s.pid == 0 {
			s.pid = uint32(pid())
		}
		a.UL = s.pid
	case 2:
		a.UL = uint32(now.Unix() - s.begun.Unix())
	case 3:
		// PCP's agent works in microseconds.
		a.D = float64(now.Sub(s.begun).Microseconds()) / 1000
	case 4:
		a.L = 42
	case 5:
		s.x = (s.x + 1) % 100
		a.L = s.x + 100*(inst+1)
	case 51:
		if inst%200 == 50 {
			inst -= 50
			a.L = binVal() + 50
		} else {
			a.L = binVal()
		}
	case 6, 48, 50, 103, 104, 121:
		a.L = binVal()
	case 105, 106:
		a.UL = uint32(binVal())
	case 107, 108:
		a.F = float32(binVal())
	case 109, 110:
		a.LL = int64(binVal())
	case 111, 112:
		a.ULL = uint64(int64(binVal()) + now.Unix() - s.begun.Unix())
	case 113, 114:
		a.D = float64(binVal())
	case 7:
		s.drift += s.sign * int32(s.rnd.next()%50)
		if s.drift < 0 {
			s.drift = 0
		}
		a.L = s.drift
		if s.rnd.next()%100 < 20 {
			s.sign = -s.sign
		}
	case 8, 63:
		a.L = int32((1 + (time.Now().Unix()-s.begun.Unix())/30) * int64(s.step))
	case 40:
		r, x := s.ctx.totals()
		a.ULL = uint64(int64(r) + int64(x))
	case 41:
		r, _ := s.ctx.totals()
		a.UL = uint32(r)
	case 42:
		_, x := s.ctx.totals()
		a.UL = uint32(x)
	case 43, 44, 45, 122, 123, 124, 125:
		v, err := s.ctx.value(c, item)
		if err != nil {
			v = int32(err.(pcp.Error))
		}
		a.L = v
	case 37:
		s.x = (s.x + 1) % 100
		a.L = (inst+1)*100 - s.x
		s.mirage.need = true
	case 38:
		s.x = (s.x + 1) % 100
		a.LL = int64((inst+1)*100-s.x) * 1000000
		s.mirage.need = true
	case 36:
		a.L = s.writeMe
	case 39:
		a.VBP = &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: sysinfo()}
	case 46:
		if s.lightFetches == 0 {
			s.lightColour = s.rnd.next() % 3
			s.lightFetches = 1 + s.rnd.next()%10
		}
		s.lightFetches--
		a.CP = lightNames[s.lightColour]
	case 47:
		if s.magnitudeFetches == 0 {
			s.magnitude = 1 << (1 + s.rnd.next()%6)
			s.magnitudeFetches = 1 + s.rnd.next()%5
		}
		s.magnitudeFetches--
		a.L = int32(s.magnitude)
	case 49:
		a.F = [...]float32{3.05, 12.05, 11.09, 11.09, 5.26}[inst]
	case 10:
		a.L = 1
	case 11:
		a.L = 10
	case 12:
		a.L = 100
	case 13:
		a.L = 1000000
	case 14:
		a.L = s.long
	case 20:
		a.LL = 1
	case 21:
		a.LL = 10
	case 22:
		a.LL = 100
	case 23:
		a.LL = 1000000
	case 24:
		a.LL = s.longlong
	case 15:
		a.F = 1
	case 16:
		a.F = 10
	case 17:
		a.F = 100
	case 18:
		a.F = 1000000
	case 19:
		a.F = s.float
	case 25:
		a.D = 1
	case 26:
		a.D = 10
	case 27:
		a.D = 100
	case 28:
		a.D = 1000000
	case 29:
		a.D = s.double
	case 30:
		a.CP = ""
	case 31:
		a.CP = "hullo world!"
	case 32:
		a.CP = s.str
	case 33:
		a.VBP = &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: []byte{}}
	case 34:
		a.VBP = &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: hullo}
	case 35:
		a.VBP = &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: s.aggr}
	case 52:
		a.L = inst
	case 53:
		a.L = 499 - inst
	case 56:
		a.L = s.notReady
	case 57:
		s.wrap += math.MaxInt32/2 - 1
		a.L = s.wrap
	case 58:
		s.uwrap += math.MaxUint32/2 - 1
		a.UL = s.uwrap
	case 59:
		s.llwrap += math.MaxInt64/2 - 1
		a.LL = s.llwrap
	case 60:
		s.ullwrap += math.MaxUint64/2 - 1
		a.ULL = s.ullwrap
	case 160:
		s.swrap += math.MaxInt32/10 - 1
		a.L = s.swrap
	case 161:
		s.uswrap += math.MaxInt32/10 - 1
		a.UL = s.uswrap
	case 162:
		s.llswrap += math.MaxInt64/10 - 1
		a.LL = s.llswrap
	case 163:
		s.ullswrap += math.MaxInt64/10 - 1
		a.ULL = s.ullswrap
	case 61:
		a.L = s.dodgeyCtl
	case 62:
		a.L = int32(s.rnd.next() % 101)
	case 64:
		s.rapid += 80000000
		if s.rapid < uint32(s.rapidCtr) {
			s.rapidCtr += 1 << 32
		}
		s.rapidCtr = s.rapidCtr&^0xffffffff | uint64(s.rapid)
		a.UL = uint32(s.rapidCtr * 10)
	case 65, 66, 67, 68, 69, 70, 71:
		a.D = s.scaleStepNext(int(item - 65))
	case 72:
		v := float64(s.constValue) + float64(s.constGrad)*now.Sub(s.constAt).Seconds()
		a.UL = uint32(int64(v))
		s.constAt = now
		s.constValue = a.UL
	case 73:
		a.UL = s.constGrad
	case 74:
		a.L = s.errorCode
	case 75:
		if s.errorCode < 0 {
			return a, pmda.FailRequest(pcp.Error(s.errorCode))
		}
	case 76, 77, 78:
		a.L = s.dyn.ctr[inst]
	case 79:
		a.L = s.manyCount
	case 80:
		a.L = inst
	case 81, 83:
		s.nbyte += int32(s.rnd.next() % 1024)
		a.L = s.nbyte
	case 82, 84, 85:
		a.L = int32(s.rnd.next() % 1024)
	case 86:
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
	case 87:
		a.UL = uint32(s.magic.Type)
	case 88:
		a.UL = uint32(s.magic.InDom)
	case 89:
		a.UL = uint32(s.magic.Sem)
	case 90:
		a.UL = s.magicUnits
	case 91:
		a.UL = s.dataGrowth()
	case 93:
		a.UL = 1
	case 94:
		a.UL = 10
	case 95:
		a.UL = 100
	case 96:
		a.UL = 1000000
	case 97:
		a.UL = s.ulong
	case 98:
		a.ULL = 1
	case 99:
		a.ULL = 10
	case 100:
		a.ULL = 100
	case 101:
		a.ULL = 1000000
	case 102:
		a.ULL = s.ulonglong
	case 115:
		a.UL = 42000000
	case 116:
		a.UL = 4200000
	case 117:
		a.UL = 420000
	case 118:
		a.UL = 42000
	case 119:
		a.UL = 42
	case 120:
		a.LL = s.scrambleV
	case 126:
		a.L = s.eventFetch % 4
	case 136, 137, 139:
		return s.eventValue(item, inst)
	case 140:
		a.L = s.hiresFetch % 4
	case 141, 145, 149:
		s.negL++
		a.L = s.negL
	case 142, 146, 150:
		s.negLL++
		a.LL = s.negLL
	case 143, 147, 151:
		s.negF++
		a.F = s.negF
	case 144, 148, 152:
		s.negD++
		a.D = s.negD
	case 153:
		a.CP = fmt.Sprintf("%3d", binVal())
		if len(a.CP) > 3 {
			a.CP = a.CP[:3]
		}
	case 155:
		a.L = int32(s.mirageGap / time.Millisecond)
	case 156:
		a.UL = s.proc.ordinalOf(inst)
	case 157:
		a.CP = s.proc.exec(inst)
	case 158:
		a.ULL = s.proc.msecs(inst, time.Now())
	case 159:
		a.UL = 0
	case 164:
		a.L = s.updown.next()
	case 165:
		a.UL = s.updown.repeat
	case 166:
		a.L = s.updown.min
	case 167:
		a.L = s.updown.max
	case 168:
		a.UL = s.updown.step
	case 1000:
		a.CP = "foo"
	case 1001, 1002, 1003, 1004, 1005, 1006, 1007:
		a.L = int32(item - 1000)
	case 1008:
		a.L = s.visible
	case 1009:
		a.CP = ghostOrigin[inst-1]
	case 1010:
		a.UL = uint32(len(s.ghosts[inst-1].Name))
	case 1011:
		a.UL = ghostState(inst, s.ghostState)
	case 1023:
		a.L = 4194303
	}
	return a, nil
}

// ghostState is a ghost's on/off state: ghosts 1 and 2 alternate every
// state, 3 and 4 every two, 5 and 6 every three, 7 every four; 8 is
// always off.
func ghostState(inst, state int32) uint32 {
	if inst < 1 || inst > 7 {
		return 0
	}
	period := (inst + 1) / 2 // half a cycle
	on := state%(2*period) < period
	if inst%2 == 0 {
		on = !on
	}
	if inst == 7 {
		on = state%8 < 4
	}
	if on {
		return 1
	}
	return 0
}

// scaleStepNext is one of sample.scale_step.*'s values: each holds for
// five fetches, then grows (or shrinks) by a step until a limit, where it
// starts over.
func (s *agent) scaleStepNext(i int) float64 {
	v := s.scaleStep[i]
	s.scaleN[i]++
	if s.scaleN[i]%5 != 0 {
		return v
	}
	const tb = 1024.0 * 1024 * 1024 * 1024
	p := &s.scaleStep[i]
	switch i {
	case 0:
		if *p < tb {
			*p *= 2
		} else {
			*p = 1
		}
	case 1:
		if *p > 1 {
			*p /= 2
		} else {
			*p = tb
		}
	case 2:
		if *p < 1e12 {
			*p *= 10
		} else {
			*p = 1
		}
	case 3:
		if *p > 1 {
			*p /= 10
		} else {
			*p = 1e12
		}
	case 4:
		if *p < 60*60*24 {
			*p *= 10
		} else {
			*p = 1
		}
	case 5:
		if *p < 1e9*60*60*24 {
			*p *= 10
		} else {
			*p = 1
		}
	case 6:
		if *p < 10000000 {
			*p *= 10
		} else {
			*p = 1
		}
	}
	return v
}

// next moves sample.updown.obs: every repeat fetches it steps up or down,
// turning round at the limits.
func (u *updown) next() int32 {
	u.click--
	if u.click <= 0 {
		u.click = int32(u.repeat)
		u.obs += u.dir * int32(u.step)
		if u.obs < u.min {
			u.obs = u.min + int32(u.step)
			u.dir = -u.dir
		}
		if u.obs > u.max {
			u.obs = u.max - int32(u.step)
			u.dir = -u.dir
		}
	}
	return u.obs
}
