package sample

import (
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// storeReq is a store of one metric: av its first value, read as the
// metric's type typ, and set the whole request, for sample.bin's several.
type storeReq struct {
	av  pcp.Atom
	set *pcp.ValueSet
	typ pcp.Type
}

// storeFunc applies a store whose shape Store has checked.
type storeFunc func(s *agent, r storeReq) error

// storeFuncs says what a store does to each metric that takes one, by
// item; a metric without an entry answers PM_ERR_PERMISSION. Like
// valueFuncs it is static data.
var storeFuncs = [...]storeFunc{
	itemControl:        (*agent).storeControl,
	itemColour:         func(s *agent, r storeReq) error { s.x = r.av.L; return nil },
	itemMirage:         func(s *agent, r storeReq) error { s.x = r.av.L; return nil },
	itemMirageLonglong: func(s *agent, r storeReq) error { s.x = int32(r.av.LL); return nil },
	itemBin:            (*agent).storeBins,
	itemDrift:          func(s *agent, r storeReq) error { s.drift = r.av.L; return nil },
	itemStep:           func(s *agent, r storeReq) error { s.step = r.av.L; return nil },

	itemLongWriteMe:      func(s *agent, r storeReq) error { s.long = r.av.L; return nil },
	itemUlongWriteMe:     func(s *agent, r storeReq) error { s.ulong = r.av.UL; return nil },
	itemLonglongWriteMe:  func(s *agent, r storeReq) error { s.longlong = r.av.LL; return nil },
	itemUlonglongWriteMe: func(s *agent, r storeReq) error { s.ulonglong = r.av.ULL; return nil },
	itemFloatWriteMe:     func(s *agent, r storeReq) error { s.float = r.av.F; return nil },
	itemDoubleWriteMe:    func(s *agent, r storeReq) error { s.double = r.av.D; return nil },
	itemStringWriteMe:    func(s *agent, r storeReq) error { s.str = r.av.CP; return nil },
	itemAggregateWriteMe: (*agent).storeAggregate,
	itemWriteMe:          func(s *agent, r storeReq) error { s.writeMe = r.av.L; return nil },

	itemPDU:     func(s *agent, _ storeReq) error { s.ctx.clear(true, true); return nil },
	itemRecvPDU: func(s *agent, _ storeReq) error { s.ctx.clear(true, false); return nil },
	itemXmitPDU: func(s *agent, _ storeReq) error { s.ctx.clear(false, true); return nil },

	itemNotReady:          func(s *agent, r storeReq) error { s.notReady = r.av.L; return nil },
	itemDodgeyControl:     func(s *agent, r storeReq) error { s.dodgeyCtl = r.av.L; s.redoDodgey(); return nil },
	itemConstRateValue:    func(s *agent, r storeReq) error { s.constValue = r.av.UL; return nil },
	itemConstRateGradient: func(s *agent, r storeReq) error { s.constGrad = r.av.UL; return nil },
	itemErrorCode:         func(s *agent, r storeReq) error { s.errorCode = r.av.L; return nil },
	// PCP's agent keeps the resize's status in sample.error_code.
	itemManyCount: func(s *agent, r storeReq) error { s.manyCount = r.av.L; s.errorCode = s.redoMany(); return nil },

	itemDynamicMetaPMDescType:  func(s *agent, r storeReq) error { s.magic.Type = pcp.Type(r.av.L); return nil },
	itemDynamicMetaPMDescInDom: func(s *agent, r storeReq) error { s.magic.InDom = pcp.InDom(r.av.L); return nil },
	itemDynamicMetaPMDescSem:   func(s *agent, r storeReq) error { s.magic.Sem = pcp.Sem(r.av.L); return nil },
	itemDynamicMetaPMDescUnits: (*agent).storeMagicUnits,

	itemScrambleVersion:   (*agent).storeScrambleVersion,
	itemEventReset:        func(s *agent, r storeReq) error { s.eventFetch, s.eventX = r.av.L, r.av.L; return nil },
	itemEventResetHighRes: func(s *agent, r storeReq) error { s.hiresFetch, s.hiresX = r.av.L, r.av.L; return nil },

	itemNegativeCtrM32:          func(s *agent, r storeReq) error { s.negL = r.av.L; return nil },
	itemNegativeInstantM32:      func(s *agent, r storeReq) error { s.negL = r.av.L; return nil },
	itemNegativeDiscreteM32:     func(s *agent, r storeReq) error { s.negL = r.av.L; return nil },
	itemNegativeCtrM64:          func(s *agent, r storeReq) error { s.negLL = r.av.LL; return nil },
	itemNegativeInstantM64:      func(s *agent, r storeReq) error { s.negLL = r.av.LL; return nil },
	itemNegativeDiscreteM64:     func(s *agent, r storeReq) error { s.negLL = r.av.LL; return nil },
	itemNegativeCtrMFloat:       func(s *agent, r storeReq) error { s.negF = r.av.F; return nil },
	itemNegativeInstantMFloat:   func(s *agent, r storeReq) error { s.negF = r.av.F; return nil },
	itemNegativeDiscreteMFloat:  func(s *agent, r storeReq) error { s.negF = r.av.F; return nil },
	itemNegativeCtrMDouble:      func(s *agent, r storeReq) error { s.negD = r.av.D; return nil },
	itemNegativeInstantMDouble:  func(s *agent, r storeReq) error { s.negD = r.av.D; return nil },
	itemNegativeDiscreteMDouble: func(s *agent, r storeReq) error { s.negD = r.av.D; return nil },

	itemControllerMirage: (*agent).storeMirageGap,
	itemProcReset:        func(s *agent, _ storeReq) error { s.proc.reset(); return nil },

	itemUpDownControlRepeat: (*agent).storeUpDownRepeat,
	itemUpDownControlMin:    func(s *agent, r storeReq) error { s.updown.min = r.av.L; return nil },
	itemUpDownControlMax:    func(s *agent, r storeReq) error { s.updown.max = r.av.L; return nil },
	itemUpDownControlStep:   (*agent).storeUpDownStep,

	itemGhostsVisible: (*agent).storeGhostsVisible,
}

// storeControl sets sample.control; -1 asks a daemon agent to exit, once
// the store is answered.
func (s *agent) storeControl(r storeReq) error {
	s.control = r.av.L
	if r.av.L == -1 && s.exit != nil {
		s.exit()
	}
	return nil
}

// storeBins sets one or more bins, each named by its instance.
func (s *agent) storeBins(r storeReq) error {
	for i := range r.set.Values {
		inst := r.set.Values[i].Inst
		if inst < 100 || inst > 900 || inst%100 != 0 {
			return pcp.ErrInst
		}
		v, err := pcp.ExtractValue(r.set.ValFmt, &r.set.Values[i], r.typ, r.typ)
		if err != nil {
			return err
		}
		s.binVal[inst/100-1] = v.L
	}
	return nil
}

func (s *agent) storeAggregate(r storeReq) error {
	if r.av.VBP != nil {
		s.aggr = append([]byte(nil), r.av.VBP.Data...)
	}
	return nil
}

// storeMagicUnits keeps the units word as stored, padding bits included,
// to give it back as it was.
func (s *agent) storeMagicUnits(r storeReq) error {
	s.magic.Units = pcp.UnpackUnits(uint32(r.av.L))
	s.magicUnits = uint32(r.av.L)
	return nil
}

// storeScrambleVersion, whatever the value, restarts the scrambling from
// the bins' order.
func (s *agent) storeScrambleVersion(storeReq) error {
	s.scrambleV = 0
	s.scramble = append(s.scramble[:0], s.bin...)
	return nil
}

// storeMirageGap changes the interval between mirage changes and applies
// it at once.
func (s *agent) storeMirageGap(r storeReq) error {
	s.mirageGap = time.Duration(r.av.UL) * time.Millisecond
	s.mirageCtl = time.Time{}
	return nil
}

func (s *agent) storeUpDownRepeat(r storeReq) error {
	if int32(r.av.UL) < 0 {
		return pcp.ErrSign
	}
	s.updown.repeat = r.av.UL
	return nil
}

func (s *agent) storeUpDownStep(r storeReq) error {
	if int32(r.av.UL) < 0 {
		return pcp.ErrSign
	}
	s.updown.step = r.av.UL
	return nil
}

// storeGhostsVisible brings that many ghosts (at most all) into the
// namespace, their state starting over.
func (s *agent) storeGhostsVisible(r storeReq) error {
	s.visible = min(r.av.L, int32(len(s.ghosts)))
	s.ghostState = 23
	return nil
}
