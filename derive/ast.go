package derive

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// Op is the kind of an expression node.
type Op int

// The node kinds. Names follow the functions and operators of the
// language; OpInst is "[instance]" selection and OpMatch is matchinst().
const (
	OpInteger Op = iota
	OpDouble
	OpName
	OpPlus
	OpMinus
	OpStar
	OpSlash
	OpLT
	OpLEQ
	OpEQ
	OpGEQ
	OpGT
	OpNEQ
	OpAnd
	OpOr
	OpNot
	OpNeg
	OpQuest // Left is the guard, Right an OpColon
	OpColon // Left the true operand, Right the false one
	OpAvg
	OpCount
	OpDefined
	OpDelta
	OpInstant
	OpMax
	OpMin
	OpRate
	OpSum
	OpAnon
	OpRescale // Left rescaled to Units
	OpScalar
	OpInst  // Left's value for the instance named Value
	OpMatch // Left's values for the instances matching Pattern
)

// Node is one node of a parsed expression. Parsed trees are never
// modified, so one tree serves every context that binds it.
type Node struct {
	Op          Op
	Left, Right *Node

	// Value is the metric name (OpName and the functions' operand),
	// the constant's text, or the instance name of OpInst.
	Value string
	// Desc is a constant's type, semantics and units (from mkconst), or
	// anon()'s type.
	Desc pcp.Desc
	// Units is rescale()'s target.
	Units pcp.Units
	// Paren records an instance selection written on a parenthesised
	// expression, which libpcp checks differently from name[inst].
	Paren bool
	// Match is matchinst()'s filter. It is apart, and Units and Paren
	// sit in Desc's padding, so that a node is 80 bytes, not 104: PCP's
	// default derived metrics, parsed by every tool at its start, are
	// 646 nodes.
	Match *Match
}

// Match is matchinst()'s filter: the pattern as written, compiled, and
// whether it was negated.
type Match struct {
	Pattern string
	Re      *regexp.Regexp
	Invert  bool
}

var opText = [...]string{
	OpPlus: "+", OpMinus: "-", OpStar: "*", OpSlash: "/", OpLT: "<",
	OpLEQ: "<=", OpEQ: "==", OpGEQ: ">=", OpGT: ">", OpNEQ: "!=",
	OpAnd: "&&", OpOr: "||", OpNot: "!", OpNeg: "-", OpQuest: "?", OpColon: ":",
}

// opName is libpcp's name for a node kind in its messages.
var opName = [...]string{
	OpInteger: "INTEGER", OpDouble: "DOUBLE", OpName: "NAME", OpPlus: "PLUS",
	OpMinus: "MINUS", OpStar: "STAR", OpSlash: "SLASH", OpQuest: "QUEST",
	OpColon: "COLON", OpAvg: "AVG", OpCount: "COUNT", OpDelta: "DELTA",
	OpMax: "MAX", OpMin: "MIN", OpSum: "SUM", OpAnon: "ANON", OpRate: "RATE",
	OpInstant: "INSTANT", OpRescale: "RESCALE", OpDefined: "DEFINED",
	OpInst: "FILTERINST", OpMatch: "FILTERINST", OpScalar: "SCALAR",
	OpLT: "LT", OpLEQ: "LEQ", OpEQ: "EQ", OpGEQ: "GEQ", OpGT: "GT",
	OpNEQ: "NEQ", OpAnd: "AND", OpOr: "OR", OpNot: "NOT", OpNeg: "NEG",
}

var funcName = [...]string{
	OpAvg: "avg", OpCount: "count", OpDefined: "defined", OpDelta: "delta",
	OpInstant: "instant", OpMax: "max", OpMin: "min", OpRate: "rate",
	OpSum: "sum", OpAnon: "anon", OpScalar: "scalar",
}

// The tables of Ops and of tokens are arrays indexed by them, not maps:
// static data, where a map literal is built by the package's
// initialisation in every program that links derive. entry reads one as
// a map would, the zero value for an index the table does not reach.
func entry[T any](table []T, i int) T {
	if uint(i) < uint(len(table)) {
		return table[i]
	}
	var zero T
	return zero
}

func (o Op) binary() bool { return o >= OpPlus && o <= OpOr }

func (o Op) relational() bool { return o >= OpLT && o <= OpNEQ }

func (o Op) boolean() bool { return o == OpAnd || o == OpOr }

// String returns the expression fully parenthesised, in the language's
// own syntax, so that it parses back to the same tree.
func (n *Node) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *Node) write(b *strings.Builder) {
	switch {
	case n.Op == OpInteger || n.Op == OpDouble:
		if n.Desc.Type == defaultConstType(n.Op) && n.Desc.Sem == pcp.SemDiscrete && n.Desc.Units == (pcp.Units{}) {
			b.WriteString(n.Value)
			return
		}
		b.WriteString("mkconst(" + n.Value + ", type=" + typeWord(n.Desc.Type) + ", semantics=" + semWord(n.Desc.Sem))
		if n.Desc.Units != (pcp.Units{}) {
			b.WriteString(", units=" + strconv.Quote(n.Desc.Units.String()))
		}
		b.WriteByte(')')
	case n.Op == OpName:
		b.WriteString(n.Value)
	case n.Op.binary():
		b.WriteByte('(')
		n.Left.write(b)
		b.WriteString(" " + entry(opText[:], int(n.Op)) + " ")
		n.Right.write(b)
		b.WriteByte(')')
	case n.Op == OpNot || n.Op == OpNeg:
		b.WriteString("(" + entry(opText[:], int(n.Op)))
		n.Left.write(b)
		b.WriteByte(')')
	case n.Op == OpQuest:
		b.WriteByte('(')
		n.Left.write(b)
		b.WriteString(" ? ")
		n.Right.Left.write(b)
		b.WriteString(" : ")
		n.Right.Right.write(b)
		b.WriteByte(')')
	case n.Op == OpRescale:
		b.WriteString("rescale(")
		n.Left.write(b)
		b.WriteString(", " + strconv.Quote(n.Units.String()) + ")")
	case n.Op == OpScalar:
		b.WriteString("scalar(")
		n.Left.write(b)
		b.WriteByte(')')
	case n.Op == OpInst:
		if n.Paren {
			b.WriteByte('(')
			n.Left.write(b)
			b.WriteByte(')')
		} else {
			n.Left.write(b)
		}
		b.WriteString("[" + escapeDelim(n.Value, ']') + "]")
	case n.Op == OpMatch:
		b.WriteString("matchinst(")
		if n.Match.Invert {
			b.WriteByte('!')
		}
		b.WriteString("/" + escapeDelim(n.Match.Pattern, '/') + "/, ")
		n.Left.write(b)
		b.WriteByte(')')
	case n.Op == OpAnon:
		b.WriteString("anon(PM_TYPE_" + typeWord(n.Desc.Type) + ")")
	default:
		b.WriteString(entry(funcName[:], int(n.Op)) + "(" + n.Left.Value + ")")
	}
}

func escapeDelim(s string, end byte) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == end || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func defaultConstType(o Op) pcp.Type {
	if o == OpDouble {
		return pcp.TypeDouble
	}
	return pcp.TypeU32
}

func typeWord(t pcp.Type) string {
	switch t {
	case pcp.Type32:
		return "32"
	case pcp.TypeU32:
		return "U32"
	case pcp.Type64:
		return "64"
	case pcp.TypeU64:
		return "U64"
	case pcp.TypeFloat:
		return "FLOAT"
	case pcp.TypeDouble:
		return "DOUBLE"
	}
	return "?"
}

func semWord(s pcp.Sem) string {
	switch s {
	case pcp.SemCounter:
		return "counter"
	case pcp.SemInstant:
		return "instant"
	}
	return "discrete"
}
