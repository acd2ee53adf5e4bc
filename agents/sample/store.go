package sample

import (
	"context"

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

// storeShapeOf is the shape of a store into item (notStorable for the
// metrics that cannot be changed): a switch rather than a map literal,
// which package initialisation would build in every tool that links the
// agent for local contexts.
func storeShapeOf(item uint32) storeShape {
	switch item {
	case itemControl,
		itemDrift,
		itemStep,
		itemLongWriteMe,
		itemWriteMe,
		itemRecvPDU,
		itemXmitPDU,
		itemNotReady,
		itemDodgeyControl,
		itemConstRateValue,
		itemConstRateGradient,
		itemErrorCode,
		itemManyCount,
		itemDynamicMetaPMDescType,
		itemDynamicMetaPMDescInDom,
		itemDynamicMetaPMDescSem,
		itemDynamicMetaPMDescUnits,
		itemUlongWriteMe,
		itemEventReset,
		itemEventResetHighRes,
		itemNegativeCtrM32,
		itemNegativeInstantM32,
		itemNegativeDiscreteM32,
		itemControllerMirage,
		itemProcReset,
		itemUpDownControlRepeat,
		itemUpDownControlMin,
		itemUpDownControlMax,
		itemUpDownControlStep,
		itemGhostsVisible:
		return oneInSitu
	case itemLonglongWriteMe,
		itemDoubleWriteMe,
		itemStringWriteMe,
		itemAggregateWriteMe,
		itemUlonglongWriteMe,
		itemScrambleVersion,
		itemNegativeCtrM64,
		itemNegativeInstantM64,
		itemNegativeDiscreteM64,
		itemNegativeCtrMDouble,
		itemNegativeInstantMDouble,
		itemNegativeDiscreteMDouble:
		return oneBlock
	case itemColour,
		itemMirage:
		return anyInSitu
	case itemMirageLonglong:
		return anyBlock
	case itemFloatWriteMe,
		itemNegativeCtrMFloat,
		itemNegativeInstantMFloat,
		itemNegativeDiscreteMFloat,
		itemPDU:
		return oneAny
	case itemBin:
		return someValues
	}
	return notStorable
}

// Store changes the agent's state, as pmda.Storer. The answers are PCP's
// agent's: PM_ERR_PERMISSION for a metric that cannot be changed,
// PM_ERR_BADSTORE for the wrong number or form of values, PM_ERR_INST for
// a bin that does not exist, PM_ERR_SIGN for a negative count.
func (s *agent) Store(ctx context.Context, c pmda.Client, set *pcp.ValueSet) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.def(set.PMID.Item())
	if d == nil || set.PMID.Domain() != s.domain || set.PMID.Cluster() != 0 {
		return pcp.ErrPMID
	}
	insitu := set.ValFmt == pcp.ValInSitu
	ok := true
	switch storeShapeOf(d.item) {
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
	if int(d.item) >= len(storeFuncs) || storeFuncs[d.item] == nil {
		return pcp.ErrPermission
	}
	return storeFuncs[d.item](s, storeReq{av: av, set: set, typ: d.typ})
}
