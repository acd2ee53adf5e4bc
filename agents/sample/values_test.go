package sample

import (
	"slices"
	"testing"
)

// TestValueFuncs checks the value table against the metric table: every
// metric has a way to make its values except those FetchSet answers
// before asking (no values, or an error), and the table names no item
// the agent does not have.
func TestValueFuncs(t *testing.T) {
	noValue := []uint32{
		itemNoInst, itemBadUnknown, itemBadNoSupport, itemDarkness,
		itemEventType, itemEventParam32, itemEventParamU32, itemEventParam64,
		itemEventParamU64, itemEventParamFloat, itemEventParamDouble,
		itemEventParamString, itemEventParamAggregate, itemBadNoValues,
		itemBadFetchAgain,
	}
	known := map[uint32]bool{}
	for _, d := range defs {
		known[d.item] = true
		has := int(d.item) < len(valueFuncs) && valueFuncs[d.item] != nil
		if want := !slices.Contains(noValue, d.item); has != want {
			t.Errorf("%s (item %d): value function %v, want %v", d.names[0], d.item, has, want)
		}
	}
	for item, f := range valueFuncs {
		if f != nil && !known[uint32(item)] {
			t.Errorf("value function for item %d, which has no metric", item)
		}
	}
}
