package getdate

// meridian is how an hour is read: am, pm, or on the 24 hour clock.
type meridian int

const (
	am meridian = iota
	pm
	h24
)

// dstMode says whether a date is in summer time: by the string's zone
// (on or off), or as the local zone has it at that date (maybe).
type dstMode int

const (
	dstOn dstMode = iota
	dstOff
	dstMaybe
)

// state is what the items of a date set; the counts catch items given
// twice.
type state struct {
	haveDate, haveDay, haveRel, haveTime, haveZone, haveAlign int

	year, month, day    int64
	hour, minute, sec   int64
	meridian            meridian
	zone                int64 // minutes west of UTC
	dst                 dstMode
	dayOrdinal, weekday int64
	relSeconds          int64
	relMonths           int64
}

// parser reads the grammar of PCP's getdate: a sequence of items, each a
// time of day, a zone, a date, a weekday, a relative time or a bare
// number. Where the grammar could either end an item or extend it, it
// extends it (as the LALR parser PCP builds from its grammar does on its
// shift/reduce conflicts), and it never backs up: "10 -2 days" is an
// error because "10 -2" must go on as a year-month-day date.
type parser struct {
	lex lexer
	tok token
	st  state
}

func (p *parser) advance() { p.tok = p.lex.next() }

// accept advances past the current token when it is of kind k.
func (p *parser) accept(k kind) (token, bool) {
	t := p.tok
	if t.kind != k {
		return t, false
	}
	p.advance()
	return t, true
}

func (p *parser) acceptChar(c byte) bool {
	if p.tok.kind != kChar || p.tok.val != int64(c) {
		return false
	}
	p.advance()
	return true
}

// parse reads items to the end of the input; false is a syntax error.
func (p *parser) parse() bool {
	p.advance()
	for p.tok.kind != kEnd {
		if !p.item() {
			return false
		}
	}
	return true
}

func isUnit(k kind) bool { return k == kMinutes || k == kSeconds || k == kMonths || k == kDayAlign }

func (p *parser) item() bool {
	st := &p.st
	t := p.tok
	switch t.kind {
	case kUnsigned:
		p.advance()
		return p.afterNumber(t.val)
	case kSigned:
		p.advance()
		if !isUnit(p.tok.kind) {
			return false
		}
		p.rel(t.val)
	case kMinutes, kSeconds, kMonths, kDayAlign:
		p.rel(1)
	case kZone:
		p.advance()
		st.zone, st.dst = t.val, dstOff
		if _, ok := p.accept(kDST); ok {
			st.dst = dstOn
		}
		st.haveZone++
	case kDayZone:
		p.advance()
		st.zone, st.dst = t.val, dstOn
		st.haveZone++
	case kWeekday:
		p.advance()
		p.acceptChar(',')
		st.dayOrdinal, st.weekday = 0, t.val
		st.haveDay++
	case kMonth:
		p.advance()
		d, ok := p.accept(kUnsigned)
		if !ok {
			return false
		}
		st.month, st.day = t.val, d.val
		if p.acceptChar(',') {
			y, ok := p.accept(kUnsigned)
			if !ok {
				return false
			}
			st.year = y.val
		}
		st.haveDate++
	default:
		return false
	}
	return true
}

// afterNumber goes on from an unsigned number n: a time, a date, an
// ordinal weekday, a count of units, or the number alone.
func (p *parser) afterNumber(n int64) bool {
	st := &p.st
	t := p.tok
	switch {
	case t.kind == kMeridian:
		p.advance()
		st.hour, st.minute, st.sec, st.meridian = n, 0, 0, meridian(t.val)
		st.haveTime++
	case t.kind == kChar && t.val == ':':
		p.advance()
		m, ok := p.accept(kUnsigned)
		if !ok {
			return false
		}
		st.hour, st.minute = n, m.val
		sec, withSec := int64(0), false
		if p.acceptChar(':') {
			s, ok := p.accept(kUnsigned)
			if !ok {
				return false
			}
			sec, withSec = s.val, true
		}
		switch p.tok.kind {
		case kMeridian:
			st.meridian, st.sec = meridian(p.tok.val), sec
			p.advance()
		case kSigned:
			// a numeric zone, +hhmm or -hhmm east of UTC; without
			// seconds the grammar leaves them as they were
			off := p.tok.val
			p.advance()
			st.meridian, st.dst = h24, dstOff
			st.zone = -(off%100 + (off/100)*60)
			if withSec {
				st.sec = sec
			}
		default:
			st.meridian, st.sec = h24, sec
		}
		st.haveTime++
	case t.kind == kWeekday:
		p.advance()
		st.dayOrdinal, st.weekday = n, t.val
		st.haveDay++
	case t.kind == kChar && t.val == '/':
		p.advance()
		b, ok := p.accept(kUnsigned)
		if !ok {
			return false
		}
		if !p.acceptChar('/') {
			st.month, st.day = n, b.val
		} else {
			c, ok := p.accept(kUnsigned)
			if !ok {
				return false
			}
			if n >= 100 {
				st.year, st.month, st.day = n, b.val, c.val
			} else {
				st.month, st.day, st.year = n, b.val, c.val
			}
		}
		st.haveDate++
	case t.kind == kSigned:
		// yyyy-mm-dd
		p.advance()
		d, ok := p.accept(kSigned)
		if !ok {
			return false
		}
		st.year, st.month, st.day = n, -t.val, -d.val
		st.haveDate++
	case t.kind == kMonth:
		// 25 Nov, 25 Nov 2004, 25-Nov-2004
		p.advance()
		st.month, st.day = t.val, n
		if y, ok := p.accept(kSigned); ok {
			st.year = -y.val
		} else if y, ok := p.accept(kUnsigned); ok {
			st.year = y.val
		}
		st.haveDate++
	case isUnit(t.kind):
		p.rel(n)
	default:
		p.number(n)
	}
	return true
}

// rel reads a count of units (the unit is the current token) and an
// optional "ago", which negates every relative time read so far.
func (p *parser) rel(n int64) {
	st := &p.st
	t := p.tok
	p.advance()
	switch t.kind {
	case kMinutes:
		st.relSeconds += n * t.val * 60
	case kSeconds:
		st.relSeconds += n
	case kMonths:
		st.relMonths += n * t.val
	case kDayAlign:
		st.relSeconds += n * t.val * 60
		st.haveAlign++
	}
	if _, ok := p.accept(kAgo); ok {
		st.relSeconds, st.relMonths = -st.relSeconds, -st.relMonths
	}
	st.haveRel++
}

// number is a bare number: the year after a date and a time, a date
// yyyymmdd when above 10000, else a time hh or hhmm.
func (p *parser) number(n int64) {
	st := &p.st
	switch {
	case st.haveTime > 0 && st.haveDate > 0 && st.haveRel == 0:
		st.year = n
	case n > 10000:
		st.haveDate++
		st.day, st.month, st.year = n%100, (n/100)%100, n/10000
	default:
		st.haveTime++
		if n < 100 {
			st.hour, st.minute = n, 0
		} else {
			st.hour, st.minute = n/100, n%100
		}
		st.sec, st.meridian = 0, h24
	}
}
