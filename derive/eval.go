package derive

import (
	"context"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// instances is what evaluation needs to map instance names and
// identifiers, for [instance] and matchinst().
type instances interface {
	LookupInDom(ctx context.Context, indom pcp.InDom, name string) (int32, error)
	NameInDom(ctx context.Context, indom pcp.InDom, inst int32) (string, error)
}

// evaluator carries one fetch's inputs through an expression.
type evaluator struct {
	ctx   context.Context
	stamp pcp.Timestamp
	sets  map[pcp.PMID]*pcp.ValueSet
	inst  instances
}

const matchCompact = 100 // fetches between prunings of matchinst's verdicts

// rotate starts a node's new sample, keeping the old one as history
// when the node feeds delta() or rate().
func (b *bound) rotate() {
	if b.saveLast {
		b.last, b.vals = b.vals, b.last[:0]
		b.lastN = b.numval
		b.numval = 0
		return
	}
	b.vals = b.vals[:0]
	b.numval = 0
}

func (b *bound) setN(n int32) int32 {
	b.numval = n
	return n
}

// eval computes b's values and returns how many there are, or a PCP
// error code.
func (e *evaluator) eval(b *bound) int32 {
	if b.op == OpDefined {
		// decided when the metric was bound; the operand is not fetched
		v := uint64(0)
		if b.left.pmid != pcp.PMIDNull {
			v = 1
		}
		b.vals = append(b.vals[:0], ival{inst: -1, bits: v})
		return b.setN(1)
	}
	if b.left != nil {
		if n := e.eval(b.left); n < 0 {
			if b.op == OpCount {
				b.vals = append(b.vals[:0], ival{inst: -1})
				return b.setN(1)
			}
			return n
		}
	}
	if b.right != nil && b.op != OpRescale {
		if n := e.eval(b.right); n < 0 {
			return n
		}
	}
	switch b.op {
	case OpInteger, OpDouble:
		if b.numval == 0 {
			b.vals = append(b.vals[:0], ival{inst: -1, bits: constBits(b.n.Value, b.desc.Type)})
			b.numval = 1
		}
		return 1
	case OpName:
		return e.evalName(b)
	case OpAnon, OpColon:
		return b.setN(0)
	case OpDelta, OpRate:
		return e.evalDelta(b)
	case OpNot, OpNeg:
		b.rotate()
		if b.left.numval <= 0 {
			return b.setN(b.left.numval)
		}
		for _, v := range b.left.vals[:b.left.numval] {
			out := ival{inst: v.inst}
			lt := b.left.desc.Type
			if b.op == OpNot {
				out.bits = ofBool(isZero(v.bits, lt), b.desc.Type)
			} else {
				out.bits = negate(v.bits, lt)
			}
			b.vals = append(b.vals, out)
		}
		return b.setN(b.left.numval)
	case OpQuest:
		return e.evalQuest(b)
	case OpRescale:
		b.rotate()
		if b.left.numval <= 0 {
			return b.setN(b.left.numval)
		}
		for _, v := range b.left.vals[:b.left.numval] {
			in := atomOf(v.bits, b.desc.Type)
			out, err := pcp.ConvScale(b.desc.Type, in, b.left.desc.Units, b.right.desc.Units)
			if err == nil {
				b.vals = append(b.vals, ival{inst: v.inst, bits: bitsOf(out, b.desc.Type)})
			}
		}
		return b.setN(int32(len(b.vals)))
	case OpInstant:
		b.rotate()
		if b.left.numval > 0 {
			b.vals = append(b.vals, b.left.vals[:b.left.numval]...)
		}
		return b.setN(b.left.numval)
	case OpAvg, OpCount, OpSum, OpMax, OpMin, OpScalar:
		return e.evalAggregate(b)
	case OpInst, OpMatch:
		return e.evalFilter(b)
	}
	return e.evalBinary(b)
}

func constBits(text string, t pcp.Type) uint64 {
	switch t {
	case pcp.Type32, pcp.TypeU32:
		v, _ := strconv.ParseInt(text, 10, 64)
		return ofI32(int32(v))
	case pcp.Type64:
		v, _ := strconv.ParseInt(text, 10, 64)
		return uint64(v)
	case pcp.TypeU64:
		v, _ := strconv.ParseUint(text, 10, 64)
		return v
	case pcp.TypeFloat:
		return ofF32(float32(parseDouble(text)))
	}
	return ofF64(parseDouble(text))
}

// parseDouble is atof for the scanner's numbers, which may be "." or end
// in a '.'.
func parseDouble(text string) float64 {
	if text == "." {
		return 0
	}
	v, _ := strconv.ParseFloat(strings.TrimSuffix(text, "."), 64)
	if strings.HasPrefix(text, ".") && text != "." {
		v, _ = strconv.ParseFloat("0"+text, 64)
	}
	return v
}

func negate(b uint64, t pcp.Type) uint64 {
	switch t {
	case pcp.Type32, pcp.TypeU32:
		return ofI32(-i32(b))
	case pcp.Type64, pcp.TypeU64:
		return uint64(-int64(b))
	case pcp.TypeFloat:
		return ofF32(-f32(b))
	}
	return ofF64(-f64(b))
}

func atomOf(b uint64, t pcp.Type) pcp.Atom {
	switch t {
	case pcp.Type32:
		return pcp.Atom{L: i32(b)}
	case pcp.TypeU32:
		return pcp.Atom{UL: u32(b)}
	case pcp.Type64:
		return pcp.Atom{LL: int64(b)}
	case pcp.TypeU64:
		return pcp.Atom{ULL: b}
	case pcp.TypeFloat:
		return pcp.Atom{F: f32(b)}
	}
	return pcp.Atom{D: f64(b)}
}

func bitsOf(a pcp.Atom, t pcp.Type) uint64 {
	switch t {
	case pcp.Type32:
		return ofI32(a.L)
	case pcp.TypeU32:
		return uint64(a.UL)
	case pcp.Type64:
		return uint64(a.LL)
	case pcp.TypeU64:
		return a.ULL
	case pcp.TypeFloat:
		return ofF32(a.F)
	}
	return ofF64(a.D)
}

// evalName copies an operand's values out of the fetched result.
func (e *evaluator) evalName(b *bound) int32 {
	vs, ok := e.sets[b.pmid]
	if !ok {
		return pcp.ErrPMID.Code()
	}
	b.rotate()
	if vs.NumVal <= 0 {
		return b.setN(vs.NumVal)
	}
	// Sized once: grown value by value, a metric of many instances left
	// as much again behind it in outgrown arrays.
	b.vals = slices.Grow(b.vals, int(vs.NumVal))
	for i := range vs.Values[:vs.NumVal] {
		v := &vs.Values[i]
		out := ival{inst: v.Inst}
		switch t := b.desc.Type; t {
		case pcp.Type32, pcp.TypeU32:
			out.bits = ofI32(v.LVal)
		case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
			if vs.ValFmt == pcp.ValInSitu || len(v.Block.Data) < 8 {
				return b.setN(pcp.ErrLogRec.Code())
			}
			out.bits = binary.NativeEndian.Uint64(v.Block.Data)
		case pcp.TypeFloat:
			if vs.ValFmt == pcp.ValInSitu {
				out.bits = ofI32(v.LVal)
			} else if len(v.Block.Data) >= 4 {
				out.bits = uint64(binary.NativeEndian.Uint32(v.Block.Data))
			} else {
				return b.setN(pcp.ErrLogRec.Code())
			}
		case pcp.TypeString, pcp.TypeAggregate, pcp.TypeAggregateStatic, pcp.TypeEvent, pcp.TypeHighResEvent:
			if vs.ValFmt == pcp.ValInSitu {
				return b.setN(pcp.ErrLogRec.Code())
			}
			blk := append([]byte(nil), v.Block.Data...)
			out.blk = &blk
		default:
			return b.setN(pcp.ErrType.Code())
		}
		b.vals = append(b.vals, out)
	}
	return b.setN(vs.NumVal)
}

// evalDelta is delta() and rate(): one value for each instance present
// in both this sample and the last.
func (e *evaluator) evalDelta(b *bound) int32 {
	b.lastStamp, b.stamp = b.stamp, e.stamp
	b.rotate()
	l := b.left
	n := min(l.numval, l.lastN)
	if n <= 0 {
		return b.setN(n)
	}
	lt := l.desc.Type
	for i := range l.vals[:l.numval] {
		j := i
		if j >= int(l.lastN) {
			j = 0
		}
		if l.vals[i].inst != l.last[j].inst {
			j = -1
			for k := range l.last[:l.lastN] {
				if l.last[k].inst == l.vals[i].inst {
					j = k
					break
				}
			}
			if j < 0 {
				continue
			}
		}
		cur, old := l.vals[i].bits, l.last[j].bits
		var out uint64
		if b.op == OpDelta {
			switch lt {
			case pcp.Type32:
				out = ofI32(i32(cur) - i32(old))
			case pcp.TypeU32:
				out = uint64(int64(u32(cur)) - int64(u32(old)))
			case pcp.Type64:
				out = uint64(int64(cur) - int64(old))
			case pcp.TypeU64:
				out = ofF64(float64(cur) - float64(old))
			case pcp.TypeFloat:
				out = ofF32(f32(cur) - f32(old))
			default:
				out = ofF64(f64(cur) - f64(old))
			}
		} else {
			var d float64
			switch lt {
			case pcp.Type32:
				d = float64(i32(cur) - i32(old))
			case pcp.TypeU32:
				d = float64(u32(cur) - u32(old))
			case pcp.Type64:
				d = float64(int64(cur) - int64(old))
			case pcp.TypeU64:
				d = float64(cur - old)
			case pcp.TypeFloat:
				d = float64(f32(cur) - f32(old))
			default:
				d = f64(cur) - f64(old)
			}
			d /= b.stamp.Sub(b.lastStamp)
			if l.desc.Units.DimTime == 1 {
				d *= b.utilisationScale()
			}
			out = ofF64(d)
		}
		b.vals = append(b.vals, ival{inst: l.vals[i].inst, bits: out})
	}
	return b.setN(int32(len(b.vals)))
}

// utilisationScale converts a rate of a time counter into seconds per
// second.
func (b *bound) utilisationScale() float64 {
	if b.timeScale < 0 {
		b.timeScale = 1
		st := b.left.desc.Units.ScaleTime
		if st > pcp.TimeSec {
			for n := pcp.TimeSec; n < st; n++ {
				b.timeScale *= 60
			}
		} else {
			for n := st; n < pcp.TimeSec; n++ {
				b.timeScale /= 1000
			}
		}
	}
	return b.timeScale
}

func (e *evaluator) evalQuest(b *bound) int32 {
	b.rotate()
	guard, yes, no := b.left, b.right.left, b.right.right
	switch {
	case guard.numval <= 0:
		return b.setN(guard.numval)
	case yes.numval <= 0:
		return b.setN(yes.numval)
	case no.numval <= 0:
		return b.setN(no.numval)
	}
	n := max(yes.numval, no.numval)
	pickInst := yes
	if yes.desc.InDom == pcp.InDomNull && no.desc.InDom != pcp.InDomNull {
		pickInst = no
	}
	// libpcp reads instances past the end of the chosen operand's values
	// when it has fewer than the other; take them from the one that has
	// them all
	if pickInst.numval < n && no.desc.InDom != pcp.InDomNull && no.numval == n {
		pickInst = no
	}
	var pick *bound
	for i := range int(n) {
		if i < int(guard.numval) {
			if !numeric(guard.desc.Type) {
				return b.setN(pcp.ErrType.Code())
			}
			if !isZero(guard.vals[i].bits, guard.desc.Type) {
				pick = yes
			} else {
				pick = no
			}
		}
		src := pick.vals[0]
		if i < int(pick.numval) {
			src = pick.vals[i]
		}
		inst := int32(-1)
		if i < int(pickInst.numval) {
			inst = pickInst.vals[i].inst
		}
		b.vals = append(b.vals, ival{inst: inst, bits: src.bits, blk: src.blk})
	}
	return b.setN(n)
}

func (e *evaluator) evalAggregate(b *bound) int32 {
	b.vals = b.vals[:0]
	l := b.left
	switch b.op {
	case OpCount:
		b.vals = append(b.vals, ival{inst: -1, bits: ofI32(l.numval)})
		return b.setN(1)
	case OpScalar:
		if l.numval <= 0 {
			b.vals = append(b.vals, ival{inst: -1})
			return b.setN(l.numval)
		}
		b.vals = append(b.vals, ival{inst: -1, bits: l.vals[0].bits, blk: l.vals[0].blk})
		return b.setN(1)
	}
	t, lt := b.desc.Type, l.desc.Type
	acc := uint64(0)
	if b.op == OpMax || b.op == OpMin {
		// of no values, libpcp answers whatever its value holds: the last
		// answer, or zero when there was none (fresh memory; libpcp's can
		// hold anything)
		acc = b.lastAggr
	}
	if b.op == OpSum {
		acc = ofBool(false, t)
	}
	if b.op == OpAvg {
		acc = ofF32(0)
	}
	for i := range max(l.numval, 0) {
		v := l.vals[i].bits
		switch b.op {
		case OpAvg:
			acc = ofF32(f32(acc) + toF32(v, lt)/float32(l.numval))
		case OpSum:
			acc = binOp(t, OpPlus, acc, t, 1, 1, v, t, 1, 1)
		case OpMax, OpMin:
			if i == 0 {
				acc = v
				continue
			}
			c := 0
			switch t {
			case pcp.Type32:
				c = cmpInt(int64(i32(acc)), int64(i32(v)))
			case pcp.TypeU32:
				c = cmpUint(uint64(u32(acc)), uint64(u32(v)))
			case pcp.Type64:
				c = cmpInt(int64(acc), int64(v))
			case pcp.TypeU64:
				c = cmpUint(acc, v)
			case pcp.TypeFloat:
				c = cmpFloat(float64(f32(acc)), float64(f32(v)))
			default:
				c = cmpFloat(f64(acc), f64(v))
			}
			if b.op == OpMax && c == -1 || b.op == OpMin && c == 1 {
				acc = v
			}
		}
	}
	b.lastAggr = acc
	b.vals = append(b.vals, ival{inst: -1, bits: acc})
	return b.setN(1)
}

// evalFilter is [instance] and matchinst(): the operand's values for the
// selected instances.
func (e *evaluator) evalFilter(b *bound) int32 {
	b.vals = b.vals[:0]
	l := b.left
	indom := l.desc.InDom
	if b.op == OpInst {
		b.numval = 0
		if l.numval <= 0 {
			return 0
		}
		if !b.instKnown {
			id, err := e.inst.LookupInDom(e.ctx, indom, b.n.Value)
			if err != nil {
				return 0
			}
			b.inst, b.instKnown = id, true
		}
		for _, v := range l.vals[:l.numval] {
			if v.inst == b.inst {
				b.vals = append(b.vals, v)
				return b.setN(1)
			}
		}
		return 0
	}
	if b.matches == nil {
		b.matches = map[int32]bool{}
	}
	for i := range max(l.numval, 0) {
		v := l.vals[i]
		m, ok := b.matches[v.inst]
		if !ok {
			name, err := e.inst.NameInDom(e.ctx, indom, v.inst)
			if err == nil {
				// external names match up to their first space
				name, _, _ = strings.Cut(name, " ")
				m = b.n.Match.Re.MatchString(name) != b.n.Match.Invert
			}
			b.matches[v.inst] = m
		}
		if m {
			b.vals = append(b.vals, v)
		}
	}
	if b.matchUses++; b.matchUses >= matchCompact {
		clear(b.matches)
		b.matchUses = 0
	}
	return b.setN(int32(len(b.vals)))
}

// evalBinary combines two operands instance by instance.
func (e *evaluator) evalBinary(b *bound) int32 {
	b.rotate()
	l, r := b.left, b.right
	if l.numval <= 0 || r.numval <= 0 {
		return b.setN(0)
	}
	lset, rset := l.desc.InDom != pcp.InDomNull, r.desc.InDom != pcp.InDomNull
	var n int32
	switch {
	case !lset:
		n = r.numval
	case !rset:
		n = l.numval
	default:
		n = min(l.numval, r.numval)
	}
	rel := b.op.relational() || b.op.boolean()
	b.vals = slices.Grow(b.vals, int(n))
	i, j := 0, 0
	for int32(len(b.vals)) < n {
		if i >= int(l.numval) || j >= int(r.numval) {
			break
		}
		if lset && rset && l.vals[i].inst != r.vals[j].inst {
			j = -1
			for k := range r.vals[:r.numval] {
				if r.vals[k].inst == l.vals[i].inst {
					j = k
					break
				}
			}
			if j < 0 {
				i++
				j = 0
				continue
			}
		}
		var out uint64
		lv, rv := l.vals[i].bits, r.vals[j].bits
		if rel {
			t := promote(l.desc.Type, r.desc.Type)
			out = truncU32(binOp(t, b.op, lv, l.desc.Type, l.mul, l.div, rv, r.desc.Type, r.mul, r.div), t)
		} else {
			out = binOp(b.desc.Type, b.op, lv, l.desc.Type, l.mul, l.div, rv, r.desc.Type, r.mul, r.div)
		}
		inst := r.vals[j].inst
		if lset {
			inst = l.vals[i].inst
		}
		b.vals = append(b.vals, ival{inst: inst, bits: out})
		if lset {
			i++
			if rset {
				if j++; j >= int(r.numval) {
					j = 0
				}
			}
		} else if rset {
			j++
		}
	}
	return b.setN(int32(len(b.vals)))
}
