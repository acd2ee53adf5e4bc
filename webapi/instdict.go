package webapi

// instDict holds an instance domain's instances as libpcp_web's dict of
// them does (an rdict keyed by instance number), so that iterating it
// gives the order pmproxy lists instances in.
type instDict struct {
	d *rdict[int32, *instance]
}

func newInstDict() *instDict { return &instDict{newRDict[int32, *instance](hashInst)} }

// find is dictFetchValue.
func (i *instDict) find(inst int32) *instance {
	if e, ok := i.d.find(inst); ok {
		return e.val
	}
	return nil
}

// add is dictAdd of a new instance.
func (i *instDict) add(in *instance) { i.d.add(in.inst, in) }

// each visits the instances in dictNext's order.
func (i *instDict) each(f func(*instance)) {
	i.d.each(func(e *rentry[int32, *instance]) { f(e.val) })
}
