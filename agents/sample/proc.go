package sample

import (
	"fmt"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pmda"
)

// procs is sample.proc's make-believe process table: four processes that
// stay and up to sixteen more that start and exit at random, each fetch.
type procs struct {
	built   bool
	slots   [maxProcs]fakeProc
	members []procMember // the instance domain, in order
	ordinal uint32
	k1      int
	k2      int
	k3      int
	lastPID int32
	rnd     procRand
}

const (
	maxProcs = 20
	maxPID   = 999
)

type fakeProc struct {
	pid     int32
	ordinal int32 // -1 for a free slot
	started time.Time
	name    string
}

// procMember is an instance: its number and the slot its name is read
// from. PCP's agent keeps the slot's name buffer in its instance table, so
// an instance whose slot is reused takes the new process's name; so does
// this one.
type procMember struct {
	id   int32
	slot int
}

var (
	procDirs  = []string{"/etc", "/usr", "/usr/local", "/usr/opt"}
	procBins  = []string{"", "/bin"}
	procNames = []string{"/bozo", "/bobo", "/jester", "/loko", "/pierrot", "/waldo", "/yobo", "/jojo", "/koko", "/lala"}
)

func (p *procs) instances() []pmda.Instance {
	insts := make([]pmda.Instance, len(p.members))
	for i, m := range p.members {
		insts[i] = pmda.Instance{ID: m.id, Name: p.slots[m.slot].name}
	}
	return insts
}

// reset empties the table and restarts the sequence, as a store into
// sample.proc.reset does.
func (p *procs) reset() {
	p.built = false
	p.members = nil
	p.rnd.seed = 1
}

func (p *procs) nextPID() int32 {
	for {
		p.lastPID++
		if p.lastPID > maxPID {
			p.lastPID = 1
		}
		dup := false
		for _, m := range p.members {
			if m.id == p.lastPID {
				dup = true
				break
			}
		}
		if !dup {
			return p.lastPID
		}
	}
}

// start puts a new process in slot i.
func (p *procs) start(i int, now time.Time, init bool) {
	f := &p.slots[i]
	f.pid = p.nextPID()
	f.ordinal = int32(p.ordinal)
	p.ordinal++
	f.started = now
	if init {
		f.name = fmt.Sprintf("%04d %s", 1, "init")
	} else {
		f.name = fmt.Sprintf("%04d %s%s%s", f.ordinal, procDirs[p.k1], procBins[p.k2], procNames[p.k3])
		p.k1 = (p.k1 + 1) % len(procDirs)
		p.k2 = (p.k2 + 1) % len(procBins)
		p.k3 = (p.k3 + 1) % len(procNames)
	}
	p.members = append(p.members, procMember{id: f.pid, slot: i})
}

// redo is one step of the table's life.
func (p *procs) redo(now time.Time) {
	if !p.built {
		p.built = true
		for i := range p.slots {
			p.slots[i].ordinal = -1
		}
	}
	if len(p.members) == 0 {
		p.k1, p.k2, p.k3 = 0, 0, 0
		p.ordinal = 1
		p.lastPID = 0
		for i := range 4 {
			p.start(i, now, i == 0)
		}
		return
	}
	for i := 4; i < maxProcs; i++ {
		f := &p.slots[i]
		if f.ordinal == -1 || p.rnd.next() >= 0.075 {
			continue
		}
		// PCP's agent looks the instance up by the process's ordinal,
		// not its PID, so it often stays in the domain; kept as it is.
		for j, m := range p.members {
			if m.id == f.ordinal {
				p.members = append(p.members[:j], p.members[j+1:]...)
				break
			}
		}
		f.ordinal = -1
	}
	for i := 4; i < maxProcs; i++ {
		if p.slots[i].ordinal != -1 || p.rnd.next() >= 0.075 {
			continue
		}
		p.start(i, now, false)
	}
}

func (p *procs) find(inst int32) *fakeProc {
	for i := range p.slots {
		if f := &p.slots[i]; f.ordinal != -1 && f.pid == inst {
			return f
		}
	}
	return nil
}

func (p *procs) ordinalOf(inst int32) uint32 {
	if f := p.find(inst); f != nil {
		return uint32(f.ordinal)
	}
	return 0
}

// exec is the process name after its last slash.
func (p *procs) exec(inst int32) string {
	f := p.find(inst)
	if f == nil {
		return "botch"
	}
	if i := strings.LastIndexByte(f.name, '/'); i >= 0 {
		return f.name[i+1:]
	}
	return f.name
}

// msecs is how long the process has run, in milliseconds.
func (p *procs) msecs(inst int32, now time.Time) uint64 {
	if f := p.find(inst); f != nil {
		return uint64(now.Sub(f.started).Seconds() * 1000)
	}
	return 0
}
