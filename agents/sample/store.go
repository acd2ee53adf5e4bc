package sample

import (
	"context"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// storeShape says what a store into a metric must look like: one value in
// the result's insitu form (32-bit values), one value in a value block
// (64-bit values, strings, aggregates), any values insitu or in a block,
// exactly one value in any form, or at least one value.
type storeShape int

const (
	notStorable storeShape = iota
	oneInSitu
	oneBlock
	anyInSitu
	anyBlock
	oneAny
	someValues
)

var storeShapes = map[uint32]storeShape{
	itemControl:                oneInSitu,
	itemDrift:                  oneInSitu,
	itemStep:                   oneInSitu,
	itemLongWriteMe:            oneInSitu,
	itemWriteMe:                oneInSitu,
	itemRecvPDU:                oneInSitu,
	itemXmitPDU:                oneInSitu,
	itemNotReady:               oneInSitu,
	itemDodgeyControl:          oneInSitu,
	itemConstRateValue:         oneInSitu,
	itemConstRateGradient:      oneInSitu,
	itemErrorCode:              oneInSitu,
	itemManyCount:              oneInSitu,
	itemDynamicMetaPMDescType:  oneInSitu,
	itemDynamicMetaPMDescInDom: oneInSitu,
	itemDynamicMetaPMDescSem:   oneInSitu,
	itemDynamicMetaPMDescUnits: oneInSitu,
	itemUlongWriteMe:           oneInSitu,
	itemEventReset:             oneInSitu,
	itemEventResetHighRes:      oneInSitu,
	itemNegativeCtrM32:         oneInSitu,
	itemNegativeInstantM32:     oneInSitu,
	itemNegativeDiscreteM32:    oneInSitu,
	itemControllerMirage:       oneInSitu,
	itemProcReset:              oneInSitu,
	itemUpDownControlRepeat:    oneInSitu,
	itemUpDownControlMin:       oneInSitu,
	itemUpDownControlMax:       oneInSitu,
	itemUpDownControlStep:      oneInSitu,
	itemGhostsVisible:          oneInSitu,

	itemLonglongWriteMe:         oneBlock,
	itemDoubleWriteMe:           oneBlock,
	itemStringWriteMe:           oneBlock,
	itemAggregateWriteMe:        oneBlock,
	itemUlonglongWriteMe:        oneBlock,
	itemScrambleVersion:         oneBlock,
	itemNegativeCtrM64:          oneBlock,
	itemNegativeInstantM64:      oneBlock,
	itemNegativeDiscreteM64:     oneBlock,
	itemNegativeCtrMDouble:      oneBlock,
	itemNegativeInstantMDouble:  oneBlock,
	itemNegativeDiscreteMDouble: oneBlock,

	itemColour: anyInSitu,
	itemMirage: anyInSitu,

	itemMirageLonglong: anyBlock,

	itemFloatWriteMe:           oneAny,
	itemNegativeCtrMFloat:      oneAny,
	itemNegativeInstantMFloat:  oneAny,
	itemNegativeDiscreteMFloat: oneAny,
	itemPDU:                    oneAny,

	itemBin: someValues,
}

// Store changes the agent's state, as pmda.Storer. The answers are PCP's
// agent's: PM_ERR_PERMISSION for a metric that cannot be changed,
// PM_ERR_BADSTORE for the wrong number or form of values, PM_ERR_INST for
// a bin that does not exist, PM_ERR_SIGN for a negative count.
func (s *agent) Store(ctx context.Context, c pmda.Client, set *pcp.ValueSet) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.defs[set.PMID.Item()]
	if d == nil || set.PMID.Domain() != s.domain || set.PMID.Cluster() != 0 {
		return pcp.ErrPMID
	}
	insitu := set.ValFmt == pcp.ValInSitu
	ok := true
	switch storeShapes[d.item] {
	case notStorable:
		return pcp.ErrPermission
	case oneInSitu:
		ok = len(set.Values) == 1 && insitu
	case oneBlock:
		ok = len(set.Values) == 1 && !insitu
	case anyInSitu:
		ok = insitu
	case anyBlock:
		ok = !insitu
	case oneAny:
		ok = len(set.Values) == 1
	case someValues:
		ok = len(set.Values) >= 1
	}
	if !ok {
		return pcp.ErrBadStore
	}
	if len(set.Values) == 0 {
		return nil
	}
	av, err := pcp.ExtractValue(set.ValFmt, &set.Values[0], d.typ, d.typ)
	if err != nil {
		return err
	}
	// PCP's agent reads the value through a union, signed or unsigned
	// as suits the variable rather than the metric's type.
	switch d.typ {
	case pcp.Type32:
		av.UL = uint32(av.L)
	case pcp.TypeU32:
		av.L = int32(av.UL)
	case pcp.Type64:
		av.ULL = uint64(av.LL)
	case pcp.TypeU64:
		av.LL = int64(av.ULL)
	}
	switch d.item {
	case itemControl:
		s.control = av.L
		if av.L == -1 && s.exit != nil {
			s.exit()
		}
	case itemColour, itemMirage:
		s.x = av.L
	case itemMirageLonglong:
		s.x = int32(av.LL)
	case itemBin:
		for i := range set.Values {
			inst := set.Values[i].Inst
			if inst < 100 || inst > 900 || inst%100 != 0 {
				return pcp.ErrInst
			}
			v, err := pcp.ExtractValue(set.ValFmt, &set.Values[i], d.typ, d.typ)
			if err != nil {
				return err
			}
			s.binVal[inst/100-1] = v.L
		}
	case itemDrift:
		s.drift = av.L
	case itemStep:
		s.step = av.L
	case itemLongWriteMe:
		s.long = av.L
	case itemLonglongWriteMe:
		s.longlong = av.LL
	case itemFloatWriteMe:
		s.float = av.F
	case itemPDU:
		s.ctx.clear(true, true)
	case itemRecvPDU:
		s.ctx.clear(true, false)
	case itemXmitPDU:
		s.ctx.clear(false, true)
	case itemWriteMe:
		s.writeMe = av.L
	case itemDoubleWriteMe:
		s.double = av.D
	case itemStringWriteMe:
		s.str = av.CP
	case itemAggregateWriteMe:
		if av.VBP != nil {
			s.aggr = append([]byte(nil), av.VBP.Data...)
		}
	case itemNotReady:
		s.notReady = av.L
	case itemDodgeyControl:
		s.dodgeyCtl = av.L
		s.redoDodgey()
	case itemConstRateValue:
		s.constValue = av.UL
	case itemConstRateGradient:
		s.constGrad = av.UL
	case itemErrorCode:
		s.errorCode = av.L
	case itemManyCount:
		s.manyCount = av.L
		s.errorCode = s.redoMany() // PCP's agent keeps the resize's status here
	case itemDynamicMetaPMDescType:
		s.magic.Type = pcp.Type(av.L)
	case itemDynamicMetaPMDescInDom:
		s.magic.InDom = pcp.InDom(av.L)
	case itemDynamicMetaPMDescSem:
		s.magic.Sem = pcp.Sem(av.L)
	case itemDynamicMetaPMDescUnits:
		s.magic.Units = pcp.UnpackUnits(uint32(av.L))
		s.magicUnits = uint32(av.L) // with the padding bits, as stored
	case itemUlongWriteMe:
		s.ulong = av.UL
	case itemUlonglongWriteMe:
		s.ulonglong = av.ULL
	case itemScrambleVersion:
		s.scrambleV = 0
		s.scramble = append(s.scramble[:0], s.bin...)
	case itemEventReset:
		s.eventFetch, s.eventX = av.L, av.L
	case itemEventResetHighRes:
		s.hiresFetch, s.hiresX = av.L, av.L
	case itemNegativeCtrM32, itemNegativeInstantM32, itemNegativeDiscreteM32:
		s.negL = av.L
	case itemNegativeCtrM64, itemNegativeInstantM64, itemNegativeDiscreteM64:
		s.negLL = av.LL
	case itemNegativeCtrMFloat, itemNegativeInstantMFloat, itemNegativeDiscreteMFloat:
		s.negF = av.F
	case itemNegativeCtrMDouble, itemNegativeInstantMDouble, itemNegativeDiscreteMDouble:
		s.negD = av.D
	case itemControllerMirage:
		s.mirageGap = time.Duration(av.UL) * time.Millisecond
		s.mirageCtl = time.Time{}
	case itemProcReset:
		s.proc.reset()
	case itemUpDownControlRepeat:
		if int32(av.UL) < 0 {
			return pcp.ErrSign
		}
		s.updown.repeat = av.UL
	case itemUpDownControlMin:
		s.updown.min = av.L
	case itemUpDownControlMax:
		s.updown.max = av.L
	case itemUpDownControlStep:
		if int32(av.UL) < 0 {
			return pcp.ErrSign
		}
		s.updown.step = av.UL
	case itemGhostsVisible:
		s.visible = min(av.L, int32(len(s.ghosts)))
		s.ghostState = 23
	default:
		return pcp.ErrPermission
	}
	return nil
}
