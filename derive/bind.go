package derive

import (
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// bound is a parsed expression tied to one context: operand PMIDs and
// descriptors resolved, each node's descriptor computed, and room for the
// values of the current and previous fetch.
type bound struct {
	n           *Node
	op          Op
	desc        pcp.Desc
	left, right *bound

	pmid     pcp.PMID // OpName: the operand; PMIDNull when defined() found none
	mul, div float64  // scale factors applied in DOUBLE arithmetic

	// evaluation state
	numval    int32 // number of values, or a PCP error code
	vals      []ival
	last      []ival
	lastN     int32
	stamp     pcp.Timestamp
	lastStamp pcp.Timestamp
	hasLast   bool // vals hold one sample already (delta and rate operands)
	saveLast  bool
	timeScale float64

	lastAggr uint64 // max() and min(): the last answer

	inst      int32 // OpInst: the selected instance, once looked up
	instKnown bool
	matches   map[int32]bool // OpMatch: verdicts by instance
	matchUses int
}

// ival is one instance's value inside an expression. The rare block
// value is behind a pointer: a slice in place made every value of every
// node 40 bytes instead of 24, and a metric of many instances keeps one
// array of them per node of its expression.
type ival struct {
	inst int32
	bits uint64  // the value, as C's pmAtomValue union holds it
	blk  *[]byte // strings, aggregates and events, as fetched
}

// block is v's block value, nil for a number.
func (v *ival) block() []byte {
	if v.blk == nil {
		return nil
	}
	return *v.blk
}

// SemanticError is a definition that does not make sense for the metrics
// of a context: operands of the wrong type, semantics, units or instance
// domain. Its text is libpcp's.
type SemanticError struct {
	Name   string // the derived metric
	Detail string // the offending node, as libpcp prints it
	Msg    string
}

func (e *SemanticError) Error() string {
	return fmt.Sprintf("Semantic error: derived metric %s: %s: %s", e.Name, e.Detail, e.Msg)
}

// Unwrap makes every semantic error a pcp.ErrBadDerive.
func (e *SemanticError) Unwrap() error { return pcp.ErrBadDerive }

// resolver gives binding what it needs of a context: names to PMIDs (real
// metrics first, then derived ones, as pmLookupName does) and descriptors.
type resolver interface {
	lookup(name string) (pcp.PMID, error)
	desc(pmid pcp.PMID) (pcp.Desc, error)
}

// bind ties n to a context. A missing operand makes the derived metric
// invalid (err is not a SemanticError); a misuse of operands is reported
// as a SemanticError.
func bind(name string, n *Node, r resolver) (*bound, error) {
	b, err := bindNode(n, r, false)
	if err != nil {
		return nil, err
	}
	if err := check(name, b); err != nil {
		return nil, err
	}
	return b, nil
}

func bindNode(n *Node, r resolver, lookupErrOK bool) (*bound, error) {
	b := &bound{n: n, op: n.Op, pmid: pcp.PMIDNull, mul: 1, div: 1, timeScale: -1, desc: n.Desc}
	var err error
	if n.Left != nil {
		if b.left, err = bindNode(n.Left, r, n.Op == OpDefined); err != nil {
			return nil, err
		}
		if n.Op == OpDelta || n.Op == OpRate {
			b.left.saveLast = true
		}
	}
	if n.Right != nil {
		if b.right, err = bindNode(n.Right, r, false); err != nil {
			return nil, err
		}
	}
	switch n.Op {
	case OpName:
		pmid, err := r.lookup(n.Value)
		if err != nil {
			if lookupErrOK {
				return b, nil
			}
			return nil, fmt.Errorf("operand %s: %w", n.Value, err)
		}
		b.pmid = pmid
		if b.desc, err = r.desc(pmid); err != nil {
			return nil, fmt.Errorf("operand %s (%s): %w", n.Value, pmid, err)
		}
	case OpRescale:
		b.right = &bound{op: -1, desc: pcp.Desc{Units: n.Units}, mul: 1, div: 1}
	}
	return b, nil
}

func numeric(t pcp.Type) bool { return t >= pcp.Type32 && t <= pcp.TypeDouble }

// promote is the result type of arithmetic on two numeric types.
func promote(a, b pcp.Type) pcp.Type { return max(a, b) }

func (b *bound) isConst() bool { return b.op == OpInteger || b.op == OpDouble }

// detail renders a node for a semantic error as libpcp does.
func (b *bound) detail() string {
	operand := func(x *bound) string {
		if x.op == OpInteger || x.op == OpDouble || x.op == OpName {
			return x.n.Value
		}
		return "<expr>"
	}
	switch {
	case b.op.binary():
		return operand(b.left) + " " + entry(opText[:], int(b.op)) + " " + operand(b.right)
	case b.op == OpNot || b.op == OpNeg:
		return entry(opText[:], int(b.op)) + " " + operand(b.left)
	case b.op == OpQuest:
		return operand(b.left) + " ? " + b.right.detail()
	case b.op == OpColon:
		return operand(b.left) + " : " + operand(b.right)
	case b.op == OpRescale:
		u := b.right.desc.Units.String()
		if u == "" {
			u = "none"
		}
		return operand(b.left) + " RESCALE " + u
	case b.op == OpInst || b.op == OpMatch:
		return "FILTERINST "
	}
	return entry(opName[:], int(b.op)) + "(" + b.left.n.Value + ")"
}

func semErr(name string, b *bound, msg string) error {
	return &SemanticError{Name: name, Detail: b.detail(), Msg: msg}
}

// check computes the descriptor of every node, bottom up, with libpcp's
// rules, and rejects what libpcp rejects.
func check(name string, b *bound) error {
	switch b.op {
	case OpInteger, OpDouble, OpName, -1:
		return nil
	case OpDefined:
		b.desc = pcp.Desc{PMID: pcp.PMIDNull, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemDiscrete}
		return nil
	case OpAnon:
		b.desc = b.left.desc
		return nil
	}
	if err := check(name, b.left); err != nil {
		return err
	}
	if b.right != nil {
		if err := check(name, b.right); err != nil {
			return err
		}
		switch b.op {
		case OpColon:
			return checkColon(name, b)
		case OpQuest:
			if !numeric(b.left.desc.Type) {
				return semErr(name, b, "Non-arithmetic operand for ternary guard")
			}
			if b.right.left.desc.InDom == pcp.InDomNull && b.right.right.desc.InDom == pcp.InDomNull &&
				b.left.desc.InDom != pcp.InDomNull {
				return semErr(name, b, "Non-scalar ternary guard with scalar expressions")
			}
			b.desc = b.right.desc
			return nil
		case OpRescale:
			return checkRescale(name, b)
		}
		return mapDesc(name, b)
	}
	if b.op == OpInst || b.op == OpMatch {
		b.desc = b.left.desc
		return nil
	}
	b.desc = b.left.desc
	switch b.op {
	case OpCount:
		b.desc.Type = pcp.TypeU32
		b.desc.Units = pcp.Units{DimCount: 1}
		b.desc.Sem = pcp.SemInstant
		b.desc.InDom = pcp.InDomNull
	case OpInstant:
		if b.left.desc.Sem == pcp.SemCounter {
			b.desc.Sem = pcp.SemInstant
		}
	case OpScalar:
		b.desc.InDom = pcp.InDomNull
	case OpAvg, OpSum, OpMax, OpMin, OpDelta, OpRate, OpNeg:
		if !numeric(b.left.desc.Type) {
			if b.op == OpNeg {
				return semErr(name, b, "Non-arithmetic operand for unary negation")
			}
			return semErr(name, b, "Non-arithmetic operand for function")
		}
		if b.op != OpSum {
			b.desc.Sem = pcp.SemInstant
		}
		switch b.op {
		case OpRate:
			if t := b.left.desc.Units.DimTime; t != 0 && t != 1 {
				return semErr(name, b, "Incorrect time dimension for operand")
			}
		case OpDelta, OpNeg:
		default:
			b.desc.InDom = pcp.InDomNull
		}
		switch b.op {
		case OpAvg:
			b.desc.Type = pcp.TypeFloat
		case OpRate:
			b.desc.Type = pcp.TypeDouble
			b.desc.Units.DimTime--
			if b.desc.Units.DimTime == 0 {
				b.desc.Units.ScaleTime = 0
			} else {
				b.desc.Units.ScaleTime = pcp.TimeSec
			}
		case OpNeg:
			switch b.left.desc.Type {
			case pcp.TypeU32:
				b.desc.Type = pcp.Type32
			case pcp.TypeU64:
				b.desc.Type = pcp.Type64
			}
		case OpDelta:
			switch b.left.desc.Type {
			case pcp.TypeU32:
				b.desc.Type = pcp.Type64
			case pcp.TypeU64:
				b.desc.Type = pcp.TypeDouble
			}
		}
	}
	// OpNot keeps its operand's descriptor, as libpcp does
	return nil
}

func checkColon(name string, b *bound) error {
	l, r := b.left.desc, b.right.desc
	b.desc = l
	switch {
	case l.Type != r.Type:
		return semErr(name, b, "Different types for ternary operands")
	case l.InDom != r.InDom && l.InDom != pcp.InDomNull && r.InDom != pcp.InDomNull:
		return semErr(name, b, "Different instance domains for ternary operands")
	}
	if l.InDom == pcp.InDomNull {
		b.desc.InDom = r.InDom
	}
	switch {
	case l.Sem != r.Sem:
		return semErr(name, b, "Different semantics for ternary operands")
	case l.Units.DimSpace != r.Units.DimSpace || l.Units.ScaleSpace != r.Units.ScaleSpace:
		return semErr(name, b, "Different units or scale (space) for ternary operands")
	case l.Units.DimTime != r.Units.DimTime || l.Units.ScaleTime != r.Units.ScaleTime:
		return semErr(name, b, "Different units or scale (time) for ternary operands")
	case l.Units.DimCount != r.Units.DimCount || l.Units.ScaleCount != r.Units.ScaleCount:
		return semErr(name, b, "Different units or scale (count) for ternary operands")
	}
	return nil
}

func checkRescale(name string, b *bound) error {
	b.desc = b.left.desc
	if !numeric(b.desc.Type) {
		return semErr(name, b, "Non-arithmetic operand for function")
	}
	one := pcp.Atom{L: 1, UL: 1, LL: 1, ULL: 1, F: 1, D: 1}
	if _, err := pcp.ConvScale(b.desc.Type, one, b.left.desc.Units, b.right.desc.Units); err != nil {
		return semErr(name, b, "Incompatible dimensions")
	}
	b.desc.Units = b.right.desc.Units
	return nil
}

func sameDims(a, b pcp.Units) bool {
	return a.DimCount == b.DimCount && a.DimTime == b.DimTime && a.DimSpace == b.DimSpace
}

// countOrNone is pmConvScale's special case that libpcp allows in
// comparisons: one side dimensionless, the other a count.
func countOrNone(a, b pcp.Units) bool {
	return a.DimTime == 0 && b.DimTime == 0 && a.DimSpace == 0 && b.DimSpace == 0 &&
		(a.DimCount == 0 && b.DimCount == 1 || a.DimCount == 1 && b.DimCount == 0)
}

func dimensionless(u pcp.Units) bool { return u.DimCount == 0 && u.DimTime == 0 && u.DimSpace == 0 }

// mapDesc gives a binary operator's descriptor from its operands'.
func mapDesc(name string, b *bound) error {
	l, r := &b.left.desc, &b.right.desc
	op := b.op
	if !op.relational() && !op.boolean() {
		switch {
		case l.Sem == pcp.SemCounter && r.Sem == pcp.SemCounter:
			if op != OpPlus && op != OpMinus {
				return semErr(name, b, "Illegal operator for counters")
			}
		case l.Sem == pcp.SemCounter:
			if op != OpStar && op != OpSlash {
				return semErr(name, b, "Illegal operator for counter and non-counter")
			}
		case r.Sem == pcp.SemCounter:
			if op != OpStar {
				return semErr(name, b, "Illegal operator for non-counter and counter")
			}
		}
	}
	// prefer a metric's or expression's descriptor to a constant's
	if !b.left.isConst() {
		b.desc = *l
	} else {
		b.desc = *r
	}
	if l.Sem != pcp.SemCounter && r.Sem != pcp.SemCounter {
		if l.Sem == pcp.SemDiscrete && r.Sem == pcp.SemDiscrete {
			b.desc.Sem = pcp.SemDiscrete
		} else {
			b.desc.Sem = pcp.SemInstant
		}
	}
	if !numeric(l.Type) {
		return semErr(name, b, "Non-arithmetic type for left operand")
	}
	if !numeric(r.Type) {
		return semErr(name, b, "Non-arithmetic type for right operand")
	}
	switch {
	case op == OpSlash:
		b.desc.Type = pcp.TypeDouble
	case op.relational() || op.boolean():
		b.desc.Type = pcp.TypeU32
	default:
		b.desc.Type = promote(l.Type, r.Type)
	}
	if (op == OpPlus || op == OpMinus) && !sameDims(l.Units, r.Units) && !countOrNone(l.Units, r.Units) {
		return semErr(name, b, "Dimensions are not the same")
	}
	// libpcp compares the operands' data types with its node kinds for
	// integer and double constants here, so a U32 operand (whose type
	// number equals that of an integer node) skips the check
	if op.relational() && l.Type != pcp.TypeU32 && r.Type != pcp.TypeU32 &&
		!sameDims(l.Units, r.Units) && !countOrNone(l.Units, r.Units) {
		return semErr(name, b, "Dimensions are not the same")
	}
	if op.boolean() && (!dimensionless(l.Units) || !dimensionless(r.Units)) {
		return semErr(name, b, "Dimensions are not the same")
	}
	if op == OpStar || op == OpSlash || op.relational() {
		if l.Sem == pcp.SemCounter && r.Sem != pcp.SemCounter && !dimensionless(r.Units) {
			return semErr(name, b, "Non-counter and not dimensionless for right operand")
		}
		if l.Sem != pcp.SemCounter && r.Sem == pcp.SemCounter && !dimensionless(l.Units) {
			return semErr(name, b, "Non-counter and not dimensionless for left operand")
		}
	}
	if op == OpPlus || op == OpMinus || op == OpStar || op == OpSlash {
		mapUnits(b)
	} else {
		b.desc.Units = pcp.Units{}
	}
	switch {
	case l.InDom != pcp.InDomNull && r.InDom != pcp.InDomNull && l.InDom != r.InDom:
		return semErr(name, b, "Operands should have the same instance domain")
	case l.InDom != pcp.InDomNull && r.InDom == pcp.InDomNull:
		b.desc.InDom = l.InDom
	case r.InDom != pcp.InDomNull && l.InDom == pcp.InDomNull:
		b.desc.InDom = r.InDom
	}
	return nil
}

var timeFactor = [...]float64{1000, 1000, 1000, 60, 60}

// mapUnits gives an arithmetic result its units, converting the operand
// with the smaller scale to the larger (which makes the result DOUBLE).
// libpcp's choice of which operand's dimension decides between
// multiplying and dividing is kept, including where it looks at the
// right operand for the left's factor.
func mapUnits(b *bound) {
	l, r := b.left.desc.Units, b.right.desc.Units
	u := &b.desc.Units
	scale := func(x *bound, numerator bool, f float64) {
		if numerator {
			x.div *= f
		} else {
			x.mul *= f
		}
	}
	if l.DimCount != 0 && r.DimCount != 0 {
		if d := int(l.ScaleCount) - int(r.ScaleCount); d > 0 {
			for range d {
				scale(b.right, r.DimCount > 0, 10)
			}
			b.desc.Type = pcp.TypeDouble
		} else if d < 0 {
			u.ScaleCount = r.ScaleCount
			for range -d {
				scale(b.left, l.DimCount > 0, 10)
			}
			b.desc.Type = pcp.TypeDouble
		}
	}
	if l.DimTime != 0 && r.DimTime != 0 {
		if l.ScaleTime > r.ScaleTime {
			for i := r.ScaleTime; i < l.ScaleTime && int(i) < len(timeFactor); i++ {
				scale(b.right, r.DimTime > 0, timeFactor[i])
			}
			b.desc.Type = pcp.TypeDouble
		} else if l.ScaleTime < r.ScaleTime {
			u.ScaleTime = r.ScaleTime
			for i := l.ScaleTime; i < r.ScaleTime && int(i) < len(timeFactor); i++ {
				scale(b.left, r.DimTime > 0, timeFactor[i])
			}
			b.desc.Type = pcp.TypeDouble
		}
	}
	if l.DimSpace != 0 && r.DimSpace != 0 {
		if d := int(l.ScaleSpace) - int(r.ScaleSpace); d > 0 {
			for range d {
				scale(b.right, r.DimSpace > 0, 1024)
			}
			b.desc.Type = pcp.TypeDouble
		} else if d < 0 {
			u.ScaleSpace = r.ScaleSpace
			for range -d {
				scale(b.left, r.DimSpace > 0, 1024)
			}
			b.desc.Type = pcp.TypeDouble
		}
	}
	switch b.op {
	case OpStar:
		u.DimCount, u.DimTime, u.DimSpace = l.DimCount+r.DimCount, l.DimTime+r.DimTime, l.DimSpace+r.DimSpace
	case OpSlash:
		u.DimCount, u.DimTime, u.DimSpace = l.DimCount-r.DimCount, l.DimTime-r.DimTime, l.DimSpace-r.DimSpace
	}
	if u.DimCount != 0 && l.DimCount == 0 {
		u.ScaleCount = r.ScaleCount
	}
	if u.DimTime != 0 && l.DimTime == 0 {
		u.ScaleTime = r.ScaleTime
	}
	if u.DimSpace != 0 && l.DimSpace == 0 {
		u.ScaleSpace = r.ScaleSpace
	}
	if u.DimCount == 0 {
		u.ScaleCount = 0
	}
	if u.DimTime == 0 {
		u.ScaleTime = 0
	}
	if u.DimSpace == 0 {
		u.ScaleSpace = 0
	}
}
