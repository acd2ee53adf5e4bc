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
	0: oneInSitu, 7: oneInSitu, 8: oneInSitu, 14: oneInSitu, 36: oneInSitu,
	41: oneInSitu, 42: oneInSitu, 56: oneInSitu, 61: oneInSitu, 72: oneInSitu,
	73: oneInSitu, 74: oneInSitu, 79: oneInSitu, 87: oneInSitu, 88: oneInSitu,
	89: oneInSitu, 90: oneInSitu, 97: oneInSitu, 126: oneInSitu, 140: oneInSitu,
	141: oneInSitu, 145: oneInSitu, 149: oneInSitu, 155: oneInSitu, 159: oneInSitu,
	165: oneInSitu, 166: oneInSitu, 167: oneInSitu, 168: oneInSitu, 1008: oneInSitu,

	24: oneBlock, 29: oneBlock, 32: oneBlock, 35: oneBlock, 102: oneBlock,
	120: oneBlock, 142: oneBlock, 146: oneBlock, 150: oneBlock, 144: oneBlock,
	148: oneBlock, 152: oneBlock,

	5: anyInSitu, 37: anyInSitu,
	38: anyBlock,
	19: oneAny, 143: oneAny, 147: oneAny, 151: oneAny, 40: oneAny,
	6: someValues,
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
	case 0:
		s.control = av.L
		if av.L == -1 && s.exit != nil {
			s.exit()
		}
	case 5, 37:
		s.x = av.L
	case 38:
		s.x = int32(av.LL)
	case 6:
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
	case 7:
		s.drift = av.L
	case 8:
		s.step = av.L
	case 14:
		s.long = av.L
	case 24:
		s.longlong = av.LL
	case 19:
		s.float = av.F
	case 40:
		s.ctx.clear(true, true)
	case 41:
		s.ctx.clear(true, false)
	case 42:
		s.ctx.clear(false, true)
	case 36:
		s.writeMe = av.L
	case 29:
		s.double = av.D
	case 32:
		s.str = av.CP
	case 35:
		if av.VBP != nil {
			s.aggr = append([]byte(nil), av.VBP.Data...)
		}
	case 56:
		s.notReady = av.L
	case 61:
		s.dodgeyCtl = av.L
		s.redoDodgey()
	case 72:
		s.constValue = av.UL
	case 73:
		s.constGrad = av.UL
	case 74:
		s.errorCode = av.L
	case 79:
		s.manyCount = av.L
		s.errorCode = s.redoMany() // PCP's agent keeps the resize's status here
	case 87:
		s.magic.Type = pcp.Type(av.L)
	case 88:
		s.magic.InDom = pcp.InDom(av.L)
	case 89:
		s.magic.Sem = pcp.Sem(av.L)
	case 90:
		s.magic.Units = pcp.UnpackUnits(uint32(av.L))
		s.magicUnits = uint32(av.L) // with the padding bits, as stored
	case 97:
		s.ulong = av.UL
	case 102:
		s.ulonglong = av.ULL
	case 120:
		s.scrambleV = 0
		s.scramble = append(s.scramble[:0], s.bin...)
	case 126:
		s.eventFetch, s.eventX = av.L, av.L
	case 140:
		s.hiresFetch, s.hiresX = av.L, av.L
	case 141, 145, 149:
		s.negL = av.L
	case 142, 146, 150:
		s.negLL = av.LL
	case 143, 147, 151:
		s.negF = av.F
	case 144, 148, 152:
		s.negD = av.D
	case 155:
		s.mirageGap = time.Duration(av.UL) * time.Millisecond
		s.mirageCtl = time.Time{}
	case 159:
		s.proc.reset()
	case 165:
		if int32(av.UL) < 0 {
			return pcp.ErrSign
		}
		s.updown.repeat = av.UL
	case 166:
		s.updown.min = av.L
	case 167:
		s.updown.max = av.L
	case 168:
		if int32(av.UL) < 0 {
			return pcp.ErrSign
		}
		s.updown.step = av.UL
	case 1008:
		s.visible = min(av.L, int32(len(s.ghosts)))
		s.ghostState = 23
	default:
		return pcp.ErrPermission
	}
	return nil
}
