package pmlc

import (
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmlogger"
)

// stmt is the kind of statement parsed.
type stmt int

const (
	stNone stmt = iota // nothing to do: an error, or the end
	stEmpty
	stLog
	stShow
	stConnect
	stDisconnect
	stHelp
	stQuit
	stStatus
	stNew
	stTimezone
	stSync
	stSleep
	stQA
)

// parser reads one statement with one token of look-ahead, taking each
// token only when the grammar needs it, so that the side effects of
// what came before (looking metrics up, connecting to pmcd) happen in
// the order pmlc's yacc parser makes them.
type parser struct {
	lx   *lexer
	s    *Session
	la   tok
	have bool
}

func (p *parser) peek() tok {
	if !p.have {
		p.la = p.lx.next()
		p.have = true
	}
	return p.la
}

func (p *parser) take() tok {
	t := p.peek()
	p.have = false
	return t
}

// syntaxError reports a token the grammar has no place for and drops it.
func (p *parser) syntaxError() stmt {
	p.have = false
	p.s.yyerror("syntax error")
	return stNone
}

func (p *parser) end(kind stmt) stmt {
	if p.take() != tEOL {
		return p.syntaxError()
	}
	return kind
}

// statement parses one statement and does what its grammar actions do.
func (p *parser) statement() stmt {
	s := p.s
	switch p.peek() {
	case tEOF:
		// the grammar's empty statement: end of input, no message
		p.have = false
		return stNone
	case tEOL:
		p.take()
		return stEmpty
	case tShow:
		p.take()
		if p.peek() == tLogger {
			p.take()
		}
		if !p.hostopt() {
			return p.syntaxError()
		}
		return p.end(stShow)
	case tConnect:
		p.take()
		switch p.take() {
		case tPrimary:
			s.pid, s.port = pmlogger.PrimaryPID, pmlogger.NoPort
		case tNumber:
			s.pid, s.port = int(int32(p.lx.num)), pmlogger.NoPort
		case tPort:
			if p.take() != tNumber {
				return p.syntaxError()
			}
			s.pid, s.port = pmlogger.NoPID, int(int32(p.lx.num))
		case tSock:
			s.pid, s.port = pmlogger.NoPID, pmlogger.NoPort
		default:
			return p.syntaxError()
		}
		if !p.hostopt() {
			return p.syntaxError()
		}
		return p.end(stConnect)
	case tDisconnect:
		p.take()
		return p.end(stDisconnect)
	case tHelp:
		p.take()
		return p.end(stHelp)
	case tQuit:
		p.take()
		return p.end(stQuit)
	case tStatus:
		p.take()
		return p.end(stStatus)
	case tSync:
		p.take()
		return p.end(stSync)
	case tNew:
		p.take()
		if p.take() != tVolume {
			return p.syntaxError()
		}
		return p.end(stNew)
	case tTimezone:
		p.take()
		switch p.take() {
		case tLocal:
			s.tzType = tzLocal
		case tLogger:
			s.tzType = tzLogger
		case tString:
			s.tzType, s.tz = tzOther, p.lx.text
		default:
			return p.syntaxError()
		}
		return p.end(stTimezone)
	case tSleep, tQA:
		t := p.take()
		if p.take() != tNumber {
			return p.syntaxError()
		}
		if t == tSleep {
			s.sleepMsec = int(int32(p.lx.num))
			return p.end(stSleep)
		}
		s.qaCase = int(int32(p.lx.num))
		return p.end(stQA)
	case tQuery:
		p.take()
		s.state = pdu.LogEnquire
		return p.metrics()
	case tLog, tMandatory, tAdvisory:
		if p.peek() == tLog {
			p.take()
		}
		switch p.take() {
		case tMandatory:
			s.control = pdu.LogMandatory
			if p.peek() == tMaybe {
				p.take()
				s.state = pdu.LogMaybe
				return p.metrics()
			}
		case tAdvisory:
			s.control = pdu.LogAdvisory
		default:
			return p.syntaxError()
		}
		switch p.take() {
		case tOn:
			if !p.frequency() {
				return p.syntaxError()
			}
			s.state = pdu.LogOn
		case tOff:
			s.state = pdu.LogOff
		default:
			return p.syntaxError()
		}
		return p.metrics()
	}
	return p.syntaxError()
}

// frequency reads "once" or "[every] N units" into the session's
// interval in milliseconds (-1 for once).
func (p *parser) frequency() bool {
	t := p.take()
	if t == tOnce {
		p.s.logFreq = -1
		return true
	}
	if t == tEvery {
		t = p.take()
	}
	if t != tNumber {
		return false
	}
	n := p.lx.num
	var unit int64
	switch p.take() {
	case tMsec:
		unit = 1
	case tSecond:
		unit = 1000
	case tMinute:
		unit = 60000
	case tHour:
		unit = 3600000
	default:
		return false
	}
	p.s.logFreq = int(int32(n * unit))
	return true
}

// hostopt reads an optional "@ host".
func (p *parser) hostopt() bool {
	if p.peek() != tAt {
		return true
	}
	p.take()
	switch p.take() {
	case tName, tHostname, tString:
		p.s.hostname = p.lx.text
	case tURL:
		p.s.hostname = p.lx.text
		p.s.noteURL(p.lx.text)
	case tNumber:
		p.s.hostname = itoa(int32(p.lx.num))
	default:
		return false
	}
	p.s.hasHostname = true
	return true
}

// metrics reads a log or query statement's metrics, after checking the
// connection and reaching the logger's pmcd, as pmlc does before it
// reads them.
func (p *parser) metrics() stmt {
	s := p.s
	p.lx.state |= inSpec
	if !s.connected() {
		s.metricCnt = -1
		return stNone
	}
	if s.connectPMCD() < 0 {
		s.yyerror("")
		s.metricCnt = -1
		return stNone
	}
	s.beginMetrics()
	switch p.peek() {
	case tLBrace:
		p.take()
		p.lx.state |= inSpecList
		if !p.metricSpec() {
			return p.syntaxError()
		}
	list:
		for {
			switch p.peek() {
			case tName:
				if !p.metricSpec() {
					return p.syntaxError()
				}
			case tComma:
				p.take()
				if !p.metricSpec() {
					return p.syntaxError()
				}
			case tRBrace:
				p.take()
				break list
			default:
				return p.syntaxError()
			}
		}
	case tName:
		if !p.metricSpec() {
			return p.syntaxError()
		}
	default:
		return p.syntaxError()
	}
	p.lx.state = global
	s.endMetrics()
	return p.end(stLog)
}

// metricSpec reads a name and its optional instance list.
func (p *parser) metricSpec() bool {
	if p.take() != tName {
		return false
	}
	p.s.addName(p.lx.text)
	if p.peek() == tLSQB {
		p.take()
		if !p.instance() {
			return false
		}
	insts:
		for {
			switch p.peek() {
			case tRSQB:
				p.take()
				break insts
			case tComma:
				p.take()
				if !p.instance() {
					return false
				}
			default:
				if !p.instance() {
					return false
				}
			}
		}
	}
	p.s.endMetGroup()
	return true
}

func (p *parser) instance() bool {
	switch p.take() {
	case tName, tString:
		p.s.addInst(p.lx.text, 0, true)
	case tNumber:
		p.s.addInst("", int32(p.lx.num), false)
	default:
		return false
	}
	return true
}

func itoa(n int32) string {
	var b [12]byte
	i := len(b)
	u := int64(n)
	neg := u < 0
	if neg {
		u = -u
	}
	for {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
