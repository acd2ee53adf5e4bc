package sample

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// Instances answers pmda.InstanceLister: the current members of one of
// the agent's instance domains. An instance request refreshes the
// domains PCP's agent refreshes for one: sample.mirage's, once a mirage
// value has been fetched, and sample.dynamic's.
func (s *agent) Instances(_ context.Context, _ pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mirage.need {
		s.redoMirage()
	}
	if indom == pcp.NewInDom(s.domain, dynamicInDom) {
		s.redoDynamic(false)
	}
	insts, err := s.members(indom)
	// The tables change under later requests; the caller gets its own.
	return slices.Clone(insts), err
}

// members is Instances with the lock held, without refreshing anything.
func (s *agent) members(indom pcp.InDom) ([]pmda.Instance, error) {
	if indom.Domain() != s.domain {
		return nil, pcp.ErrInDom
	}
	switch indom.Serial() {
	case colourInDom:
		return s.colour, nil
	case binInDom:
		return s.bin, nil
	case mirageInDom:
		return s.mirage.insts, nil
	case familyInDom:
		return s.family, nil
	case hordesInDom:
		return s.hordes, nil
	case dodgeyInDom:
		return s.dodgey, nil
	case dynamicInDom:
		return s.dynamic, nil
	case manyInDom:
		return s.many, nil
	case scrambleInDom:
		return s.scramble, nil
	case eventInDom:
		return s.events, nil
	case ghostInDom:
		if s.visible <= 0 {
			return nil, nil
		}
		return s.ghosts[:s.visible], nil
	case procInDom:
		return s.proc.instances(), nil
	}
	return nil, pcp.ErrInDom
}

// mirage is sample.mirage's instance domain: m-00 always, others coming
// and going at random at most every mirageGap.
type mirage struct {
	insts []pmda.Instance
	next  int32 // the last instance number handed out
	need  bool  // a mirage value has been fetched: keep it changing
}

func mirageInstance(id int32) pmda.Instance {
	return pmda.Instance{ID: id, Name: fmt.Sprintf("m-%02d", id),
		Labels: []pmda.Label{{Name: "transient", Value: id != 0}}}
}

// redoMirage changes sample.mirage's instances when it is time to.
func (s *agent) redoMirage() {
	now := s.now()
	if now.Before(s.mirageCtl) {
		return
	}
	m := &s.mirage
	if m.insts == nil {
		m.insts = []pmda.Instance{mirageInstance(0)}
	} else {
		cull := int64(len(m.insts))
		if cull > 12 {
			cull /= 2
		}
		kept := m.insts[:1]
		for _, in := range m.insts[1:] {
			if s.rnd.next()%1000 < 1000/cull {
				continue
			}
			kept = append(kept, in)
		}
		m.insts = kept
		for range 2 {
			if s.rnd.next()%1000 >= 500 {
				continue
			}
			for {
				m.next = (m.next + 1) % 50
				if !has(m.insts, m.next) {
					break
				}
			}
			m.insts = append(m.insts, mirageInstance(m.next))
		}
	}
	s.mirageCtl = now.Add(s.mirageGap)
}

func has(insts []pmda.Instance, id int32) bool {
	for _, in := range insts {
		if in.ID == id {
			return true
		}
	}
	return false
}

// redoMany sizes sample.many.int's domain to manyCount instances.
// It returns what PCP's agent returns, which a store into many.count puts
// in sample.error_code: for an empty domain, whatever error number the C
// library's realloc left behind, which is ENOMEM's.
func (s *agent) redoMany() int32 {
	s.manyCount = min(max(s.manyCount, 0), 999999)
	if s.manyCount == 0 {
		s.many = nil
		return -12 // -ENOMEM
	}
	s.many = make([]pmda.Instance, s.manyCount)
	for i := range s.many {
		s.many[i] = pmda.Instance{ID: int32(i), Name: "i-" + itoa(int32(i))}
	}
	return 0
}

// redoDodgey sets sample.dodgey.value's behaviour from dodgey.control:
// five steady instances for a control of 5 or less, otherwise, for a
// random number of fetches, a random error or a random subset of the
// instances.
func (s *agent) redoDodgey() {
	full := func(n int) {
		s.dodgey = s.dodgey[:0]
		for j := 1; j <= n; j++ {
			s.dodgey = append(s.dodgey, pmda.Instance{ID: int32(j), Name: "d" + itoa(int32(j))})
		}
	}
	if s.dodgeyCtl <= 5 {
		s.tmpDodgey = s.dodgeyCtl
		s.newDodgey = 0
		full(5)
		return
	}
	switch j := s.rnd.next() % 1000; {
	case j < 33:
		s.tmpDodgey = int32(pcp.ErrNoAgent)
	case j < 66:
		s.tmpDodgey = int32(pcp.ErrAgain)
	case j < 99:
		s.tmpDodgey = int32(pcp.ErrAppVersion)
	default:
		s.dodgey = s.dodgey[:0]
		for j := 1; j <= 5; j++ {
			if s.rnd.next()%100 < 49 {
				s.dodgey = append(s.dodgey, pmda.Instance{ID: int32(j), Name: "d" + itoa(int32(j))})
			}
		}
		s.tmpDodgey = int32(len(s.dodgey))
	}
	s.newDodgey = int32(s.rnd.next() % int64(s.dodgeyCtl))
}

// reshuffle gives sample.scramble.bin a new order and subset of the bin
// instances, as each fetch of it does.
func (s *agent) reshuffle() {
	s.scr.reseed(int32(s.scrambleV<<10) + 13)
	s.scrambleV++
	n := len(s.bin)
	slots := make([]*pmda.Instance, n)
	for i := range s.bin {
		if s.scr.next()%100 < 33 {
			continue
		}
		for {
			k := s.scr.next() % int32(n)
			if slots[k] != nil {
				continue
			}
			slots[k] = &s.bin[i]
			break
		}
	}
	s.scramble = s.scramble[:0]
	for _, in := range slots {
		if in != nil {
			s.scramble = append(s.scramble, *in)
		}
	}
}

// dynamicState is what sample.dynamic.* keep between fetches: the control
// file's last modification time and a counter per instance number.
type dynamicState struct {
	seen    bool
	modTime time.Time
	ctr     []int32
}

// redoDynamic rereads the control file listing sample.dynamic's
// instances ("number name" pairs, the name quoted if it has spaces) when
// it has changed, zeroing the counters, and with increment counts one
// more for every instance.
func (s *agent) redoDynamic(increment bool) {
	st, err := os.Stat(s.dynPath)
	if s.dynPath == "" || err != nil {
		s.dynamic = nil
	} else if !s.dyn.seen || !st.ModTime().Equal(s.dyn.modTime) {
		s.dyn.seen, s.dyn.modTime = true, st.ModTime()
		insts, err := readDynamic(s.dynPath)
		s.dynamic = insts
		if err != nil {
			// The counters are left as they were, as PCP's agent does.
			s.log.Printf("sample.dynamic: %v", err)
			return
		}
		for _, in := range insts {
			if int(in.ID) >= len(s.dyn.ctr) {
				s.dyn.ctr = append(s.dyn.ctr, make([]int32, int(in.ID)+1-len(s.dyn.ctr))...)
			}
		}
		clear(s.dyn.ctr)
	}
	if increment {
		for _, in := range s.dynamic {
			s.dyn.ctr[in.ID]++
		}
	}
}

// readDynamic parses the control file: an instance number (scanf's %d:
// white space, a sign, digits) and a name (the next word, on the same
// line), over and over. A malformed entry empties the domain, as in PCP's
// agent.
func readDynamic(path string) ([]pmda.Instance, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' }
	var insts []pmda.Instance
	i := 0
	for {
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i == len(b) {
			return insts, nil
		}
		start := i
		if b[i] == '+' || b[i] == '-' {
			i++
		}
		digits := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == digits {
			return nil, fmt.Errorf("%s: missing instance number at byte %d", path, start)
		}
		id, err := strconv.ParseInt(string(b[start:i]), 10, 64)
		if err != nil || id < 0 || id >= 1<<22 {
			return nil, fmt.Errorf("%s: instance number %s out of range", path, b[start:i])
		}
		for i < len(b) && isSpace(b[i]) && b[i] != '\n' {
			i++
		}
		if i == len(b) || b[i] == '\n' {
			return nil, fmt.Errorf("%s: no name for instance %d", path, id)
		}
		start = i
		for i < len(b) && !isSpace(b[i]) {
			i++
		}
		insts = append(insts, pmda.Instance{ID: int32(id), Name: string(b[start:i])})
	}
}

// FindInstance looks one instance up as PCP's agent does, as
// pmda.InstanceFinder: by number among all the domain's instances (every
// ghost, visible or not), or by name comparing the name's first word with
// each instance name's first word.
func (s *agent) FindInstance(_ context.Context, _ pmda.Client, indom pcp.InDom, inst int32, name string) (pmda.Instance, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	insts, err := s.members(indom)
	if err != nil {
		return pmda.Instance{}, err
	}
	if indom == pcp.NewInDom(s.domain, ghostInDom) {
		insts = s.ghosts
	}
	word, _, _ := strings.Cut(name, " ")
	for _, in := range insts {
		if name == "" {
			if in.ID == inst {
				return in, nil
			}
			continue
		}
		if rest, ok := strings.CutPrefix(in.Name, word); ok && (rest == "" || rest[0] == ' ') {
			return in, nil
		}
	}
	return pmda.Instance{}, pcp.ErrInst
}
