package sample

import (
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// valueReq is what a value function is asked for: one instance of one
// metric, for one client.
type valueReq struct {
	c    pmda.Client
	item uint32
	inst int32
}

// valueFunc makes one value of a metric in *a, cleared beforehand. Errors
// other than pmda.FailRequest's are the metric's.
type valueFunc func(s *agent, r valueReq, a *pcp.Atom) error

// valueFuncs says how each metric's values are made, by item. Metrics
// without an entry (those with no values, or that fail before a value is
// asked for) answer a zero atom. The table is static data: it costs
// nothing at start-up, which every tool linking the agent would pay.
var valueFuncs = [...]valueFunc{
	itemControl:      func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.control) },
	itemDaemonPID:    (*agent).daemonPIDValue,
	itemSeconds:      func(s *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, uint32(s.secondsUp())) },
	itemMilliseconds: (*agent).millisecondsValue,
	itemLoad:         func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 42) },
	itemColour:       (*agent).colourValue,
	itemDrift:        (*agent).driftValue,
	itemStep:         (*agent).stepValue,
	itemStepCounter:  (*agent).stepValue,

	itemLongOne:          func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 1) },
	itemLongTen:          func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 10) },
	itemLongHundred:      func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 100) },
	itemLongMillion:      func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 1000000) },
	itemLongWriteMe:      func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.long) },
	itemUlongOne:         func(_ *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, 1) },
	itemUlongTen:         func(_ *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, 10) },
	itemUlongHundred:     func(_ *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, 100) },
	itemUlongMillion:     func(_ *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, 1000000) },
	itemUlongWriteMe:     func(s *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, s.ulong) },
	itemLonglongOne:      func(_ *agent, _ valueReq, a *pcp.Atom) error { return setLL(a, 1) },
	itemLonglongTen:      func(_ *agent, _ valueReq, a *pcp.Atom) error { return setLL(a, 10) },
	itemLonglongHundred:  func(_ *agent, _ valueReq, a *pcp.Atom) error { return setLL(a, 100) },
	itemLonglongMillion:  func(_ *agent, _ valueReq, a *pcp.Atom) error { return setLL(a, 1000000) },
	itemLonglongWriteMe:  func(s *agent, _ valueReq, a *pcp.Atom) error { return setLL(a, s.longlong) },
	itemUlonglongOne:     func(_ *agent, _ valueReq, a *pcp.Atom) error { return setULL(a, 1) },
	itemUlonglongTen:     func(_ *agent, _ valueReq, a *pcp.Atom) error { return setULL(a, 10) },
	itemUlonglongHundred: func(_ *agent, _ valueReq, a *pcp.Atom) error { return setULL(a, 100) },
	itemUlonglongMillion: func(_ *agent, _ valueReq, a *pcp.Atom) error { return setULL(a, 1000000) },
	itemUlonglongWriteMe: func(s *agent, _ valueReq, a *pcp.Atom) error { return setULL(a, s.ulonglong) },
	itemFloatOne:         func(_ *agent, _ valueReq, a *pcp.Atom) error { return setF(a, 1) },
	itemFloatTen:         func(_ *agent, _ valueReq, a *pcp.Atom) error { return setF(a, 10) },
	itemFloatHundred:     func(_ *agent, _ valueReq, a *pcp.Atom) error { return setF(a, 100) },
	itemFloatMillion:     func(_ *agent, _ valueReq, a *pcp.Atom) error { return setF(a, 1000000) },
	itemFloatWriteMe:     func(s *agent, _ valueReq, a *pcp.Atom) error { return setF(a, s.float) },
	itemDoubleOne:        func(_ *agent, _ valueReq, a *pcp.Atom) error { return setD(a, 1) },
	itemDoubleTen:        func(_ *agent, _ valueReq, a *pcp.Atom) error { return setD(a, 10) },
	itemDoubleHundred:    func(_ *agent, _ valueReq, a *pcp.Atom) error { return setD(a, 100) },
	itemDoubleMillion:    func(_ *agent, _ valueReq, a *pcp.Atom) error { return setD(a, 1000000) },
	itemDoubleWriteMe:    func(s *agent, _ valueReq, a *pcp.Atom) error { return setD(a, s.double) },
	itemStringNull:       func(_ *agent, _ valueReq, a *pcp.Atom) error { return setCP(a, "") },
	itemStringHullo:      func(_ *agent, _ valueReq, a *pcp.Atom) error { return setCP(a, "hullo world!") },
	itemStringWriteMe:    func(s *agent, _ valueReq, a *pcp.Atom) error { return setCP(a, s.str) },
	itemAggregateNull:    func(_ *agent, _ valueReq, a *pcp.Atom) error { return setAggregate(a, []byte{}) },
	itemAggregateHullo:   func(_ *agent, _ valueReq, a *pcp.Atom) error { return setAggregate(a, hullo) },
	itemAggregateWriteMe: func(s *agent, _ valueReq, a *pcp.Atom) error { return setAggregate(a, s.aggr) },
	itemWriteMe:          func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.writeMe) },
	itemSysinfo:          func(_ *agent, _ valueReq, a *pcp.Atom) error { return setAggregate(a, sysinfo()) },

	itemUlongCountBase:  func(_ *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, 42000000) },
	itemUlongCountDeca:  func(_ *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, 4200000) },
	itemUlongCountHecto: func(_ *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, 420000) },
	itemUlongCountKilo:  func(_ *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, 42000) },
	itemUlongCountMega:  func(_ *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, 42) },

	itemBin:             (*agent).binValue,
	itemBucket:          (*agent).binValue,
	itemPartBin:         (*agent).binValue,
	itemBogusBin:        (*agent).bogusBinValue,
	itemLongBin:         (*agent).binValue,
	itemLongBinCtr:      (*agent).binValue,
	itemScrambleBin:     (*agent).binValue,
	itemUlongBin:        (*agent).binU32Value,
	itemUlongBinCtr:     (*agent).binU32Value,
	itemFloatBin:        (*agent).binFloatValue,
	itemFloatBinCtr:     (*agent).binFloatValue,
	itemLonglongBin:     (*agent).bin64Value,
	itemLonglongBinCtr:  (*agent).bin64Value,
	itemUlonglongBin:    (*agent).binU64Value,
	itemUlonglongBinCtr: (*agent).binU64Value,
	itemDoubleBin:       (*agent).binDoubleValue,
	itemDoubleBinCtr:    (*agent).binDoubleValue,
	itemStringBin:       (*agent).binStringValue,

	itemMirage:         (*agent).mirageValue,
	itemMirageLonglong: (*agent).mirage64Value,

	itemPDU:                     (*agent).pduValue,
	itemRecvPDU:                 (*agent).pduValue,
	itemXmitPDU:                 (*agent).pduValue,
	itemPercontextPDU:           (*agent).perContextValue,
	itemPercontextRecvPDU:       (*agent).perContextValue,
	itemPercontextXmitPDU:       (*agent).perContextValue,
	itemPercontextControlCtx:    (*agent).perContextValue,
	itemPercontextControlActive: (*agent).perContextValue,
	itemPercontextControlStart:  (*agent).perContextValue,
	itemPercontextControlEnd:    (*agent).perContextValue,

	itemLights:      (*agent).lightsValue,
	itemMagnitude:   (*agent).magnitudeValue,
	itemNeedProfile: func(_ *agent, r valueReq, a *pcp.Atom) error { return setF(a, familyValues[r.inst]) },
	itemHordesOne:   func(_ *agent, r valueReq, a *pcp.Atom) error { return setL(a, r.inst) },
	itemHordesTwo:   func(_ *agent, r valueReq, a *pcp.Atom) error { return setL(a, 499-r.inst) },
	itemNotReady:    func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.notReady) },

	itemWrapLong:          (*agent).wrapLongValue,
	itemWrapUlong:         (*agent).wrapUlongValue,
	itemWrapLonglong:      (*agent).wrapLonglongValue,
	itemWrapUlonglong:     (*agent).wrapUlonglongValue,
	itemSlowWrapLong:      (*agent).slowWrapLongValue,
	itemSlowWrapUlong:     (*agent).slowWrapUlongValue,
	itemSlowWrapLonglong:  (*agent).slowWrapLonglongValue,
	itemSlowWrapUlonglong: (*agent).slowWrapUlonglongValue,

	itemDodgeyControl: func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.dodgeyCtl) },
	itemDodgeyValue:   func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, int32(s.rnd.next()%101)) },
	itemRapid:         (*agent).rapidValue,

	itemScaleStepBytesUp:        (*agent).scaleStepValue,
	itemScaleStepBytesDown:      (*agent).scaleStepValue,
	itemScaleStepCountUp:        (*agent).scaleStepValue,
	itemScaleStepCountDown:      (*agent).scaleStepValue,
	itemScaleStepTimeUpSecs:     (*agent).scaleStepValue,
	itemScaleStepTimeUpNanosecs: (*agent).scaleStepValue,
	itemScaleStepNoneUp:         (*agent).scaleStepValue,

	itemConstRateValue:    (*agent).constRateValue,
	itemConstRateGradient: func(s *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, s.constGrad) },
	itemErrorCode:         func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.errorCode) },
	itemErrorCheck:        (*agent).errorCheckValue,

	itemDynamicCounter:  (*agent).dynamicValue,
	itemDynamicDiscrete: (*agent).dynamicValue,
	itemDynamicInstant:  (*agent).dynamicValue,
	itemManyCount:       func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.manyCount) },
	itemManyInt:         func(_ *agent, r valueReq, a *pcp.Atom) error { return setL(a, r.inst) },

	itemByteCtr:         (*agent).byteCounterValue,
	itemKbyteCtr:        (*agent).byteCounterValue,
	itemByteRate:        (*agent).randomValue,
	itemKbyteRate:       (*agent).randomValue,
	itemByteRatePerHour: (*agent).randomValue,

	itemDynamicMetaMetric:      (*agent).magicValue,
	itemDynamicMetaPMDescType:  func(s *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, uint32(s.magic.Type)) },
	itemDynamicMetaPMDescInDom: func(s *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, uint32(s.magic.InDom)) },
	itemDynamicMetaPMDescSem:   func(s *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, uint32(s.magic.Sem)) },
	itemDynamicMetaPMDescUnits: func(s *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, s.magicUnits) },
	itemDataSize:               func(s *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, s.dataGrowth()) },

	itemScrambleVersion: func(s *agent, _ valueReq, a *pcp.Atom) error { return setLL(a, s.scrambleV) },

	itemEventReset:          func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.eventFetch%4) },
	itemEventRecords:        (*agent).eventsValue,
	itemEventNoInDomRecords: (*agent).eventsValue,
	itemEventHighResRecords: (*agent).eventsValue,
	itemEventResetHighRes:   func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.hiresFetch%4) },

	itemNegativeCtrM32:          (*agent).negative32Value,
	itemNegativeInstantM32:      (*agent).negative32Value,
	itemNegativeDiscreteM32:     (*agent).negative32Value,
	itemNegativeCtrM64:          (*agent).negative64Value,
	itemNegativeInstantM64:      (*agent).negative64Value,
	itemNegativeDiscreteM64:     (*agent).negative64Value,
	itemNegativeCtrMFloat:       (*agent).negativeFloatValue,
	itemNegativeInstantMFloat:   (*agent).negativeFloatValue,
	itemNegativeDiscreteMFloat:  (*agent).negativeFloatValue,
	itemNegativeCtrMDouble:      (*agent).negativeDoubleValue,
	itemNegativeInstantMDouble:  (*agent).negativeDoubleValue,
	itemNegativeDiscreteMDouble: (*agent).negativeDoubleValue,

	itemControllerMirage: func(s *agent, _ valueReq, a *pcp.Atom) error {
		return setL(a, int32(s.mirageGap/time.Millisecond))
	},
	itemProcOrdinal: func(s *agent, r valueReq, a *pcp.Atom) error { return setUL(a, s.proc.ordinalOf(r.inst)) },
	itemProcExec:    func(s *agent, r valueReq, a *pcp.Atom) error { return setCP(a, s.proc.exec(r.inst)) },
	itemProcTime: func(s *agent, r valueReq, a *pcp.Atom) error {
		return setULL(a, s.proc.msecs(r.inst, time.Now()))
	},
	itemProcReset: func(_ *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, 0) },

	itemUpDownObs:           func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.updown.next()) },
	itemUpDownControlRepeat: func(s *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, s.updown.repeat) },
	itemUpDownControlMin:    func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.updown.min) },
	itemUpDownControlMax:    func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.updown.max) },
	itemUpDownControlStep:   func(s *agent, _ valueReq, a *pcp.Atom) error { return setUL(a, s.updown.step) },

	itemSecretBar:                           func(_ *agent, _ valueReq, a *pcp.Atom) error { return setCP(a, "foo") },
	itemSecretFooOne:                        func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 1) },
	itemSecretFooTwo:                        func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 2) },
	itemSecretFooBarThree:                   func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 3) },
	itemSecretFooBarFour:                    func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 4) },
	itemSecretFooBarGruntFive:               func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 5) },
	itemSecretFooBarGruntSnortSix:           func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 6) },
	itemSecretFooBarGruntSnortHuffPuffSeven: func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 7) },

	itemGhostsVisible: func(s *agent, _ valueReq, a *pcp.Atom) error { return setL(a, s.visible) },
	itemGhostsOrigin:  func(_ *agent, r valueReq, a *pcp.Atom) error { return setCP(a, ghostOrigin[r.inst-1]) },
	itemGhostsKarma: func(s *agent, r valueReq, a *pcp.Atom) error {
		return setUL(a, uint32(len(s.ghosts[r.inst-1].Name)))
	},
	itemGhostsState: func(s *agent, r valueReq, a *pcp.Atom) error {
		return setUL(a, ghostState(r.inst, s.ghostState))
	},

	itemBigID: func(_ *agent, _ valueReq, a *pcp.Atom) error { return setL(a, 4194303) },
}

var (
	hullo        = []byte("hullo world!")
	lightNames   = [...]string{"red", "yellow", "green"}
	ghostOrigin  = [...]string{"Africa", "Nepal", "China", "Indonesia", "Japan", "Thailand", "Roumania", "Jamaica"}
	familyValues = [...]float32{3.05, 12.05, 11.09, 11.09, 5.26}
)

// value makes one value of a metric in *a. Errors other than
// pmda.FailRequest's are the metric's.
//
// The value is made in place, *a cleared first: an atom is 72 bytes, and
// returning one through the table's call, then copying it to where add
// can point at it, cost more than making it.
func (s *agent) value(c pmda.Client, item uint32, inst int32, a *pcp.Atom) error {
	*a = pcp.Atom{}
	if int(item) >= len(valueFuncs) || valueFuncs[item] == nil {
		return nil
	}
	return valueFuncs[item](s, valueReq{c: c, item: item, inst: inst}, a)
}
