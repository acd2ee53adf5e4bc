package acct

import (
	"bufio"
	"encoding/binary"
	"io"
	"math"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/agents/internal/pcpdesc"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// Domain is pmdaproc's PMID domain; Cluster and InDomSerial are acct's.
const (
	Domain      = 3
	Cluster     = 70
	InDomSerial = 40
)

// The limits and defaults of pmdaproc's acct.c.
const (
	ringSize        = 5000
	recordSize      = 64 // struct acct_v3
	defLifetime     = 60
	defOpenRetry    = 60
	defCheckAcct    = 600
	defTimer        = 600
	defSizeThresh   = 10485760
	maxRecordsFetch = 1 << 20 // records read per refresh; the rest next time
)

// The control items.
const (
	itemOpenRetry  = 23
	itemCheckAcct  = 24
	itemSizeThresh = 25
	itemLifetime   = 26
	itemTimer      = 27
	itemEnable     = 28
)

// pcpDesc is one row of pcpDescs.
type pcpDesc pcpdesc.Row

// Options configure a Source.
type Options struct {
	// SystemFile is the system's accounting file (pcp.conf's
	// PCP_PACCT_SYSTEM_PATH); "" for none.
	SystemFile string
	// PrivateFile is where the agent has the kernel write when
	// acct.control.enable_acct is set ($PCP_VAR_DIR/pmcd/pacct); "" for
	// none.
	PrivateFile string
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Hertz is the kernel's clock tick; 0 is 100.
	Hertz uint32
	// Check reports whether the kernel is writing to f now; nil runs
	// true(1) and sees whether f grew, as pmdaproc forks to see.
	Check func(f *os.File) bool
	// Acct turns accounting on into path, or off for ""; nil is acct(2).
	Acct func(path string) error
	// TTYName names a terminal device number; nil gives "?" for all.
	TTYName func(dev uint32) string
	// UserName and GroupName name user and group IDs, "" for none; nil
	// looks them up with os/user. The proc agent passes its own, cached.
	UserName, GroupName func(id uint32) string
}

type record struct {
	flag, version            uint8
	tty                      uint16
	exitcode, uid, gid       uint32
	pid, ppid, btime         uint32
	etime                    float32
	utime, stime, mem, io    uint16
	rw, minflt, majflt, swap uint16
	comm                     string
}

func decode(b []byte) record {
	le := binary.LittleEndian
	r := record{flag: b[0], version: b[1], tty: le.Uint16(b[2:]), exitcode: le.Uint32(b[4:]),
		uid: le.Uint32(b[8:]), gid: le.Uint32(b[12:]), pid: le.Uint32(b[16:]), ppid: le.Uint32(b[20:]),
		btime: le.Uint32(b[24:]), etime: math.Float32frombits(le.Uint32(b[28:])),
		utime: le.Uint16(b[32:]), stime: le.Uint16(b[34:]), mem: le.Uint16(b[36:]), io: le.Uint16(b[38:]),
		rw: le.Uint16(b[40:]), minflt: le.Uint16(b[42:]), majflt: le.Uint16(b[44:]), swap: le.Uint16(b[46:])}
	comm := b[48:64]
	for i, c := range comm {
		if c == 0 {
			comm = comm[:i]
			break
		}
	}
	r.comm = string(comm)
	return r
}

// endTime is when the process ended: its start plus its elapsed ticks.
func (r *record) endTime(hz uint32) int64 {
	return int64(r.btime) + int64(int32(r.etime/float32(hz)))
}

// compT decodes a comp_t: 13 bits of mantissa, 3 of base-8 exponent.
func compT(c uint16) uint64 {
	v := uint64(c & 0x1fff)
	for e := (c >> 13) & 7; e > 0; e-- {
		v <<= 3
	}
	return v
}

type ringEntry struct {
	end  int64
	pid  int32
	comm string
}

// Source is one agent's accounting state; it is safe for concurrent use.
type Source struct {
	opts    Options
	metrics []pmda.Metric
	byItem  map[uint32]int

	mu       sync.Mutex
	f        *os.File
	path     string
	private  bool // the kernel writes f because this Source asked
	prevSize int64
	lastFail int64
	lastChk  int64
	lastTick int64
	now      int64

	lifetime, openRetry, checkAcct, timer, enable uint32
	sizeThresh                                    uint64

	ring  []ringEntry
	next  int
	procs map[int32]record
	insts []pmda.Instance
	// rd and lim read new records, kept between refreshes: a reader
	// made every refresh was most of what a steady fetch allocated.
	rd     *bufio.Reader
	lim    io.LimitedReader
	recBuf [recordSize]byte
}

// New returns a Source; nothing is opened until the first Refresh.
func New(opts Options) *Source {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Hertz == 0 {
		opts.Hertz = 100
	}
	if opts.Check == nil {
		opts.Check = grows
	}
	if opts.Acct == nil {
		opts.Acct = sysAcct
	}
	if opts.TTYName == nil {
		opts.TTYName = func(uint32) string { return "?" }
	}
	if opts.UserName == nil {
		opts.UserName = userName
	}
	if opts.GroupName == nil {
		opts.GroupName = groupName
	}
	s := &Source{opts: opts, byItem: map[uint32]int{}, lifetime: defLifetime, openRetry: defOpenRetry,
		checkAcct: defCheckAcct, timer: defTimer, sizeThresh: defSizeThresh,
		ring: make([]ringEntry, ringSize), procs: map[int32]record{}}
	for i := range pcpDescs {
		d := &pcpDescs[i]
		s.byItem[d.Item] = i
		var h [2]string
		if int(d.Item) < len(helpText) {
			h = helpText[d.Item]
		}
		s.metrics = append(s.metrics, pmda.Metric{Name: d.Name, OneLine: h[0], Help: h[1], Desc: (*pcpdesc.Row)(d).Desc(Domain)})
	}
	return s
}

// Metrics is every acct.* metric.
func (s *Source) Metrics() []pmda.Metric { return append([]pmda.Metric(nil), s.metrics...) }

// InDoms is the acct instance domain, its instances from Instances.
func (s *Source) InDoms() []pmda.InDom {
	return []pmda.InDom{{InDom: pcp.NewInDom(Domain, InDomSerial), OneLine: "processes that ended lately, by PID, named by command",
		Help: "Processes whose exit the kernel's accounting file recorded within acct.control.lifetime seconds, numbered by process ID and named by command."}}
}

// grows runs a short process and reports whether f grew meanwhile.
func grows(f *os.File) bool {
	before, err := f.Stat()
	if err != nil {
		return false
	}
	if err := exec.Command("true").Run(); err != nil {
		return false
	}
	after, err := f.Stat()
	if err != nil {
		return false
	}
	return after.Size() > before.Size()
}

// open is open_and_acct: the file opened (and accounting turned on into it
// for the private one), checked and positioned at its end.
func (s *Source) open(path string, private bool) bool {
	if s.f != nil || path == "" {
		return s.f != nil
	}
	var f *os.File
	var err error
	if private {
		f, err = os.OpenFile(path, os.O_RDONLY|os.O_CREATE|os.O_TRUNC, 0o400)
	} else {
		f, err = os.Open(path)
	}
	if err != nil {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return false
	}
	if private {
		if err := s.opts.Acct(path); err != nil {
			f.Close()
			return false
		}
	}
	ok := s.opts.Check(f)
	if ok {
		var hdr [2]byte
		n, _ := f.ReadAt(hdr[:], 0)
		ok = n == 2 && hdr[1]&0x0f == 3
	}
	if ok {
		_, err = f.Seek(st.Size(), io.SeekStart)
		ok = err == nil
	}
	if !ok {
		if private {
			s.opts.Acct("")
		}
		f.Close()
		return false
	}
	s.f, s.path, s.private, s.prevSize = f, path, private, st.Size()
	s.lastChk = 0
	return true
}

// openFile is open_pacct_file: the system file, else the private one when
// enabled.
func (s *Source) openFile() {
	if s.open(s.opts.SystemFile, false) {
		return
	}
	if s.enable == 0 {
		return
	}
	if s.open(s.opts.PrivateFile, true) {
		return
	}
	s.lastFail = s.now
}

// closeFile is close_pacct_file: private accounting off and its file
// removed.
func (s *Source) closeFile() {
	if s.f == nil {
		return
	}
	s.f.Close()
	if s.private {
		s.opts.Acct("")
		os.Remove(s.path)
	}
	s.f, s.path, s.private = nil, "", false
}

func (s *Source) reopen() {
	s.closeFile()
	s.openFile()
}

// Close turns private accounting off and closes the file.
func (s *Source) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeFile()
}

// Refresh reads the records appended since the last one (refresh_acct).
func (s *Source) Refresh() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = s.opts.Now().Unix()
	// pmdaproc's timer: a private file past the size threshold is started
	// afresh; done here, at the first refresh after each interval.
	if s.now-s.lastTick >= int64(s.timer) {
		s.lastTick = s.now
		if s.f != nil && s.private {
			if st, err := s.f.Stat(); err == nil && uint64(st.Size()) > s.sizeThresh {
				s.reopen()
			}
		}
	}
	if s.f == nil {
		if s.now-s.lastFail > int64(s.openRetry) {
			s.openFile()
		}
		return
	}
	if s.now-s.lastChk > int64(s.checkAcct) {
		if !s.opts.Check(s.f) {
			s.reopen()
			return
		}
		s.lastChk = s.now
	}
	update := s.gc()
	// fstat(2) into a kept buffer: File.Stat makes its answer anew.
	var st syscall.Stat_t
	if err := syscall.Fstat(int(s.f.Fd()), &st); err != nil {
		s.reopen()
		return
	}
	size := st.Size
	n := (size - s.prevSize) / recordSize
	if n > maxRecordsFetch {
		n = maxRecordsFetch
		size = s.prevSize + n*recordSize
	}
	buf := &s.recBuf // a local escapes through ReadFull
	// Buffered, but never past the n records counted, so that the file's
	// offset stays at a record's start.
	if n > 0 {
		s.lim = io.LimitedReader{R: s.f, N: n * recordSize}
		if s.rd == nil {
			s.rd = bufio.NewReaderSize(&s.lim, 64<<10)
		} else {
			s.rd.Reset(&s.lim)
		}
	}
	rd := s.rd
	for i := int64(0); i < n; i++ {
		if _, err := io.ReadFull(rd, buf[:]); err != nil {
			s.reopen()
			return
		}
		if buf[1] != 3 {
			s.reopen()
			return
		}
		r := decode(buf[:])
		pid := int32(r.pid)
		if pid == 0 {
			continue
		}
		if _, ok := s.procs[pid]; ok {
			continue
		}
		end := r.endTime(s.opts.Hertz)
		if s.now-end > int64(s.lifetime) {
			continue
		}
		s.add(ringEntry{end: end, pid: pid, comm: r.comm}, r)
		update = true
	}
	if update {
		s.insts = s.insts[:0]
		for i := 0; i < ringSize; i++ {
			k := (s.next - 1 - i + 2*ringSize) % ringSize
			e := &s.ring[k]
			if s.now-e.end > int64(s.lifetime) {
				break
			}
			s.insts = append(s.insts, pmda.Instance{ID: e.pid, Name: e.comm})
		}
	}
	s.prevSize = size
}

// add puts a process in the ring, dropping the oldest one it replaces.
func (s *Source) add(e ringEntry, r record) {
	if old := s.ring[s.next]; old.pid != 0 {
		delete(s.procs, old.pid)
	}
	s.ring[s.next] = e
	s.procs[e.pid] = r
	s.next = (s.next + 1) % ringSize
}

// gc drops processes that ended more than the lifetime ago, oldest first.
func (s *Source) gc() bool {
	dropped := false
	k := s.next
	for i := 0; i < ringSize; i++ {
		e := &s.ring[k]
		if s.now-e.end <= int64(s.lifetime) {
			break
		}
		if e.pid != 0 {
			delete(s.procs, e.pid)
			*e = ringEntry{}
			dropped = true
		}
		k = (k + 1) % ringSize
	}
	return dropped
}

// Instances is the processes of the instance domain now, latest first.
func (s *Source) Instances() []pmda.Instance { return s.AppendInstances(nil) }

// AppendInstances appends what Instances returns to dst: an agent that
// keeps dst between fetches lists them without allocating.
func (s *Source) AppendInstances(dst []pmda.Instance) []pmda.Instance {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(dst, s.insts...)
}

// Fetch is acct_fetchCallBack: the control values, and a process's values
// while its record lives.
func (s *Source) Fetch(m *pmda.Metric, inst int32) (pcp.Atom, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	item := m.Desc.PMID.Item()
	switch item {
	case itemOpenRetry:
		return pcp.Atom{UL: s.openRetry}, nil
	case itemCheckAcct:
		return pcp.Atom{UL: s.checkAcct}, nil
	case itemSizeThresh:
		return pcp.Atom{ULL: s.sizeThresh}, nil
	case itemLifetime:
		return pcp.Atom{UL: s.lifetime}, nil
	case itemTimer:
		return pcp.Atom{UL: s.timer}, nil
	case itemEnable:
		return pcp.Atom{UL: s.enable}, nil
	}
	if _, ok := s.byItem[item]; !ok || m.Desc.PMID.Cluster() != Cluster {
		return pcp.Atom{}, pcp.ErrPMID
	}
	if s.f == nil {
		return pcp.Atom{}, pmda.ErrNoValue
	}
	r, ok := s.procs[inst]
	if !ok || s.now-r.endTime(s.opts.Hertz) > int64(s.lifetime) {
		return pcp.Atom{}, pmda.ErrNoValue
	}
	return s.value(item, &r)
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func (s *Source) value(item uint32, r *record) (pcp.Atom, error) {
	hz := float32(s.opts.Hertz)
	switch item {
	case 0:
		return pcp.Atom{UL: uint32(r.tty)}, nil
	case 1:
		return pcp.Atom{UL: r.exitcode}, nil
	case 2:
		return pcp.Atom{UL: r.uid}, nil
	case 3:
		return pcp.Atom{UL: r.gid}, nil
	case 4:
		return pcp.Atom{UL: r.pid}, nil
	case 5:
		return pcp.Atom{UL: r.ppid}, nil
	case 6:
		return pcp.Atom{UL: r.btime}, nil
	case 7:
		return pcp.Atom{F: r.etime / hz}, nil
	case 8:
		return pcp.Atom{F: float32(float64(compT(r.utime)) * 1.0 / float64(s.opts.Hertz))}, nil
	case 9:
		return pcp.Atom{F: float32(float64(compT(r.stime)) * 1.0 / float64(s.opts.Hertz))}, nil
	case 10:
		return pcp.Atom{ULL: compT(r.mem)}, nil
	case 11:
		return pcp.Atom{ULL: compT(r.io)}, nil
	case 12:
		return pcp.Atom{ULL: compT(r.rw)}, nil
	case 13:
		return pcp.Atom{ULL: compT(r.minflt)}, nil
	case 14:
		return pcp.Atom{ULL: compT(r.majflt)}, nil
	case 15:
		return pcp.Atom{ULL: compT(r.swap)}, nil
	case 16:
		return pcp.Atom{CP: s.opts.TTYName(uint32(r.tty))}, nil
	case 17:
		return pcp.Atom{CP: s.opts.UserName(r.uid)}, nil
	case 18:
		return pcp.Atom{CP: s.opts.GroupName(r.gid)}, nil
	case 19:
		return pcp.Atom{UL: b2u(r.flag&0x01 != 0)}, nil
	case 20:
		return pcp.Atom{UL: b2u(r.flag&0x02 != 0)}, nil
	case 21:
		return pcp.Atom{UL: b2u(r.flag&0x08 != 0)}, nil
	case 22:
		return pcp.Atom{UL: b2u(r.flag&0x10 != 0)}, nil
	}
	return pcp.Atom{}, pmda.ErrNoValue
}

// userName and groupName are "" for an ID without a name, as pmdaproc's.
func userName(uid uint32) string {
	u, err := user.LookupId(strconv.FormatUint(uint64(uid), 10))
	if err != nil {
		return ""
	}
	return u.Username
}

func groupName(gid uint32) string {
	g, err := user.LookupGroupId(strconv.FormatUint(uint64(gid), 10))
	if err != nil {
		return ""
	}
	return g.Name
}

// Store sets a control metric (acct_store); other acct metrics are
// pcp.ErrPermission, as is a refresh interval of 0.
func (s *Source) Store(set *pcp.ValueSet) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(set.Values) == 0 {
		return pcp.ErrPermission
	}
	item := set.PMID.Item()
	typ := pcp.TypeU32
	if item == itemSizeThresh {
		typ = pcp.TypeU64
	}
	switch item {
	case itemOpenRetry, itemCheckAcct, itemSizeThresh, itemLifetime, itemTimer, itemEnable:
	default:
		return pcp.ErrPermission
	}
	a, err := pcp.ExtractValue(set.ValFmt, &set.Values[0], typ, typ)
	if err != nil {
		return err
	}
	switch item {
	case itemOpenRetry:
		s.openRetry = a.UL
	case itemCheckAcct:
		s.checkAcct = a.UL
	case itemSizeThresh:
		// pmdaproc keeps the low 32 bits (it reads the union's 32-bit
		// member), so that is what it reports afterwards.
		s.sizeThresh = uint64(uint32(a.ULL))
	case itemLifetime:
		s.lifetime = a.UL
	case itemTimer:
		if a.UL == 0 {
			return pcp.ErrPermission
		}
		s.timer = a.UL
		s.reopen()
	case itemEnable:
		changed := (s.enable == 0) != (a.UL == 0)
		s.enable = a.UL
		if changed {
			s.reopen()
		}
	}
	return nil
}

// sysAcct is acct(2): accounting into path, or off (a NULL path) for "".
func sysAcct(path string) error {
	if path == "" {
		if _, _, e := syscall.Syscall(syscall.SYS_ACCT, 0, 0, 0); e != 0 {
			return e
		}
		return nil
	}
	return syscall.Acct(path)
}
