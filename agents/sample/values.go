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

// valueFunc makes one value of a metric. Errors other than
// pmda.FailRequest's are the metric's.
type valueFunc func(s *agent, r valueReq) (pcp.Atom, error)

// valueFuncs says how each metric's values are made, by item. Metrics
// without an entry (those with no values, or that fail before a value is
// asked for) answer a zero atom. The table is static data: it costs
// nothing at start-up, which every tool linking the agent would pay.
var valueFuncs = [...]valueFunc{
	itemControl:      func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.control}, nil },
	itemDaemonPID:    (*agent).daemonPIDValue,
	itemSeconds:      func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{UL: uint32(s.secondsUp())}, nil },
	itemMilliseconds: (*agent).millisecondsValue,
	itemLoad:         func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 42}, nil },
	itemColour:       (*agent).colourValue,
	itemDrift:        (*agent).driftValue,
	itemStep:         (*agent).stepValue,
	itemStepCounter:  (*agent).stepValue,

	itemLongOne:          func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 1}, nil },
	itemLongTen:          func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 10}, nil },
	itemLongHundred:      func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 100}, nil },
	itemLongMillion:      func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 1000000}, nil },
	itemLongWriteMe:      func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.long}, nil },
	itemUlongOne:         func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{UL: 1}, nil },
	itemUlongTen:         func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{UL: 10}, nil },
	itemUlongHundred:     func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{UL: 100}, nil },
	itemUlongMillion:     func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{UL: 1000000}, nil },
	itemUlongWriteMe:     func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{UL: s.ulong}, nil },
	itemLonglongOne:      func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{LL: 1}, nil },
	itemLonglongTen:      func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{LL: 10}, nil },
	itemLonglongHundred:  func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{LL: 100}, nil },
	itemLonglongMillion:  func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{LL: 1000000}, nil },
	itemLonglongWriteMe:  func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{LL: s.longlong}, nil },
	itemUlonglongOne:     func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{ULL: 1}, nil },
	itemUlonglongTen:     func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{ULL: 10}, nil },
	itemUlonglongHundred: func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{ULL: 100}, nil },
	itemUlonglongMillion: func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{ULL: 1000000}, nil },
	itemUlonglongWriteMe: func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{ULL: s.ulonglong}, nil },
	itemFloatOne:         func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{F: 1}, nil },
	itemFloatTen:         func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{F: 10}, nil },
	itemFloatHundred:     func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{F: 100}, nil },
	itemFloatMillion:     func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{F: 1000000}, nil },
	itemFloatWriteMe:     func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{F: s.float}, nil },
	itemDoubleOne:        func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{D: 1}, nil },
	itemDoubleTen:        func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{D: 10}, nil },
	itemDoubleHundred:    func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{D: 100}, nil },
	itemDoubleMillion:    func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{D: 1000000}, nil },
	itemDoubleWriteMe:    func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{D: s.double}, nil },
	itemStringNull:       func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{CP: ""}, nil },
	itemStringHullo:      func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{CP: "hullo world!"}, nil },
	itemStringWriteMe:    func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{CP: s.str}, nil },
	itemAggregateNull:    func(*agent, valueReq) (pcp.Atom, error) { return aggregate([]byte{}), nil },
	itemAggregateHullo:   func(*agent, valueReq) (pcp.Atom, error) { return aggregate(hullo), nil },
	itemAggregateWriteMe: func(s *agent, _ valueReq) (pcp.Atom, error) { return aggregate(s.aggr), nil },
	itemWriteMe:          func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.writeMe}, nil },
	itemSysinfo:          func(*agent, valueReq) (pcp.Atom, error) { return aggregate(sysinfo()), nil },

	itemUlongCountBase:  func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{UL: 42000000}, nil },
	itemUlongCountDeca:  func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{UL: 4200000}, nil },
	itemUlongCountHecto: func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{UL: 420000}, nil },
	itemUlongCountKilo:  func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{UL: 42000}, nil },
	itemUlongCountMega:  func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{UL: 42}, nil },

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
	itemNeedProfile: func(_ *agent, r valueReq) (pcp.Atom, error) { return pcp.Atom{F: familyValues[r.inst]}, nil },
	itemHordesOne:   func(_ *agent, r valueReq) (pcp.Atom, error) { return pcp.Atom{L: r.inst}, nil },
	itemHordesTwo:   func(_ *agent, r valueReq) (pcp.Atom, error) { return pcp.Atom{L: 499 - r.inst}, nil },
	itemNotReady:    func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.notReady}, nil },

	itemWrapLong:          (*agent).wrapLongValue,
	itemWrapUlong:         (*agent).wrapUlongValue,
	itemWrapLonglong:      (*agent).wrapLonglongValue,
	itemWrapUlonglong:     (*agent).wrapUlonglongValue,
	itemSlowWrapLong:      (*agent).slowWrapLongValue,
	itemSlowWrapUlong:     (*agent).slowWrapUlongValue,
	itemSlowWrapLonglong:  (*agent).slowWrapLonglongValue,
	itemSlowWrapUlonglong: (*agent).slowWrapUlonglongValue,

	itemDodgeyControl: func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.dodgeyCtl}, nil },
	itemDodgeyValue:   func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: int32(s.rnd.next() % 101)}, nil },
	itemRapid:         (*agent).rapidValue,

	itemScaleStepBytesUp:        (*agent).scaleStepValue,
	itemScaleStepBytesDown:      (*agent).scaleStepValue,
	itemScaleStepCountUp:        (*agent).scaleStepValue,
	itemScaleStepCountDown:      (*agent).scaleStepValue,
	itemScaleStepTimeUpSecs:     (*agent).scaleStepValue,
	itemScaleStepTimeUpNanosecs: (*agent).scaleStepValue,
	itemScaleStepNoneUp:         (*agent).scaleStepValue,

	itemConstRateValue:    (*agent).constRateValue,
	itemConstRateGradient: func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{UL: s.constGrad}, nil },
	itemErrorCode:         func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.errorCode}, nil },
	itemErrorCheck:        (*agent).errorCheckValue,

	itemDynamicCounter:  (*agent).dynamicValue,
	itemDynamicDiscrete: (*agent).dynamicValue,
	itemDynamicInstant:  (*agent).dynamicValue,
	itemManyCount:       func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.manyCount}, nil },
	itemManyInt:         func(_ *agent, r valueReq) (pcp.Atom, error) { return pcp.Atom{L: r.inst}, nil },

	itemByteCtr:         (*agent).byteCounterValue,
	itemKbyteCtr:        (*agent).byteCounterValue,
	itemByteRate:        (*agent).randomValue,
	itemKbyteRate:       (*agent).randomValue,
	itemByteRatePerHour: (*agent).randomValue,

	itemDynamicMetaMetric:      (*agent).magicValue,
	itemDynamicMetaPMDescType:  func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{UL: uint32(s.magic.Type)}, nil },
	itemDynamicMetaPMDescInDom: func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{UL: uint32(s.magic.InDom)}, nil },
	itemDynamicMetaPMDescSem:   func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{UL: uint32(s.magic.Sem)}, nil },
	itemDynamicMetaPMDescUnits: func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{UL: s.magicUnits}, nil },
	itemDataSize:               func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{UL: s.dataGrowth()}, nil },

	itemScrambleVersion: func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{LL: s.scrambleV}, nil },

	itemEventReset:          func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.eventFetch % 4}, nil },
	itemEventRecords:        (*agent).eventsValue,
	itemEventNoInDomRecords: (*agent).eventsValue,
	itemEventHighResRecords: (*agent).eventsValue,
	itemEventResetHighRes:   func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.hiresFetch % 4}, nil },

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

	itemControllerMirage: func(s *agent, _ valueReq) (pcp.Atom, error) {
		return pcp.Atom{L: int32(s.mirageGap / time.Millisecond)}, nil
	},
	itemProcOrdinal: func(s *agent, r valueReq) (pcp.Atom, error) { return pcp.Atom{UL: s.proc.ordinalOf(r.inst)}, nil },
	itemProcExec:    func(s *agent, r valueReq) (pcp.Atom, error) { return pcp.Atom{CP: s.proc.exec(r.inst)}, nil },
	itemProcTime: func(s *agent, r valueReq) (pcp.Atom, error) {
		return pcp.Atom{ULL: s.proc.msecs(r.inst, time.Now())}, nil
	},
	itemProcReset: func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{UL: 0}, nil },

	itemUpDownObs:           func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.updown.next()}, nil },
	itemUpDownControlRepeat: func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{UL: s.updown.repeat}, nil },
	itemUpDownControlMin:    func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.updown.min}, nil },
	itemUpDownControlMax:    func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.updown.max}, nil },
	itemUpDownControlStep:   func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{UL: s.updown.step}, nil },

	itemSecretBar:                           func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{CP: "foo"}, nil },
	itemSecretFooOne:                        func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 1}, nil },
	itemSecretFooTwo:                        func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 2}, nil },
	itemSecretFooBarThree:                   func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 3}, nil },
	itemSecretFooBarFour:                    func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 4}, nil },
	itemSecretFooBarGruntFive:               func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 5}, nil },
	itemSecretFooBarGruntSnortSix:           func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 6}, nil },
	itemSecretFooBarGruntSnortHuffPuffSeven: func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 7}, nil },

	itemGhostsVisible: func(s *agent, _ valueReq) (pcp.Atom, error) { return pcp.Atom{L: s.visible}, nil },
	itemGhostsOrigin:  func(_ *agent, r valueReq) (pcp.Atom, error) { return pcp.Atom{CP: ghostOrigin[r.inst-1]}, nil },
	itemGhostsKarma: func(s *agent, r valueReq) (pcp.Atom, error) {
		return pcp.Atom{UL: uint32(len(s.ghosts[r.inst-1].Name))}, nil
	},
	itemGhostsState: func(s *agent, r valueReq) (pcp.Atom, error) {
		return pcp.Atom{UL: ghostState(r.inst, s.ghostState)}, nil
	},

	itemBigID: func(*agent, valueReq) (pcp.Atom, error) { return pcp.Atom{L: 4194303}, nil },
}

var (
	hullo        = []byte("hullo world!")
	lightNames   = [...]string{"red", "yellow", "green"}
	ghostOrigin  = [...]string{"Africa", "Nepal", "China", "Indonesia", "Japan", "Thailand", "Roumania", "Jamaica"}
	familyValues = [...]float32{3.05, 12.05, 11.09, 11.09, 5.26}
)

// value is one value of a metric. Errors other than pmda.FailRequest's
// are the metric's.
func (s *agent) value(c pmda.Client, item uint32, inst int32) (pcp.Atom, error) {
	if int(item) >= len(valueFuncs) || valueFuncs[item] == nil {
		return pcp.Atom{}, nil
	}
	return valueFuncs[item](s, valueReq{c: c, item: item, inst: inst})
}
