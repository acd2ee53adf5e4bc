package proc

import "sync"

// Parsers of the per-process files. Each takes the file's bytes and fills
// a value kept in the process's entry, allocating only when a string
// value differs from the one kept; none of them fails on malformed input:
// fields that cannot be read are left zero, as strtoul leaves them in
// PCP's agent, and the caller decides from what was found whether the
// file gave a value at all.

// num reads an unsigned decimal number at b[i:], after any blanks, as
// strtoull does (a leading '-' negates, wrapping), returning it and the
// index after it.
func num(b []byte, i int) (uint64, int) {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n') {
		i++
	}
	neg := false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var v uint64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		v = v*10 + uint64(b[i]-'0')
		i++
	}
	if neg {
		v = -v
	}
	return v, i
}

// setString keeps b in *s, allocating only when it differs.
func setString(s *string, b []byte) {
	if *s != string(b) {
		*s = string(b)
	}
}

// statData is /proc/PID/stat.
type statData struct {
	cmd   string
	state byte
	// v holds the numeric fields after the state, in the file's order
	// as PCP's agent reads them (see statField).
	v [statFields]uint64
}

// The numeric fields of stat after the state, as PCP 6.0.3's pmdaproc
// names them. From the processor on, PCP's agent reads one more field
// into "priority" than the kernel writes there, so its rt_priority,
// policy, delayacct_blkio_time, guest_time and cguest_time are the
// kernel's next fields (policy, delayacct_blkio_ticks, guest_time,
// cguest_time, start_data) and its priority the kernel's rt_priority;
// the agent serves what PCP's serves.
const (
	sPPID = iota
	sPgrp
	sSession
	sTTY
	sTTYPgrp
	sFlags
	sMinflt
	sCminflt
	sMajflt
	sCmajflt
	sUtime
	sStime
	sCutime
	sCstime
	sPriorityKernel
	sNice
	sThreads
	sItReal
	sStartTime
	sVsize
	sRSS
	sRSSRlim
	sStartCode
	sEndCode
	sStartStack
	sESP
	sEIP
	sSignal
	sBlocked
	sSigignore
	sSigcatch
	sWchan
	sNswap
	sCnswap
	sExitSignal
	sProcessor
	sPriority // the kernel's rt_priority, PCP's proc.psinfo.priority
	sRTPriority
	sPolicy
	sDelayacct
	sGuest
	sCguest
	statFields
)

// parseStat parses stat: "PID (cmd) S n n n ...". It reports false when
// the file has no command in parentheses.
func parseStat(d *statData, b []byte) bool {
	open := -1
	for i, c := range b {
		if c == ' ' {
			open = i + 2
			break
		}
	}
	if open < 0 || open > len(b) {
		return false
	}
	end := -1
	for i := len(b) - 1; i >= open; i-- {
		if b[i] == ')' {
			end = i
			break
		}
	}
	if end < 0 {
		return false
	}
	setString(&d.cmd, b[open:end])
	i := end + 2
	d.state = 0
	if i < len(b) {
		d.state = b[i]
		i++
	}
	for f := 0; f < statFields; f++ {
		if i >= len(b) {
			d.v[f] = 0
			continue
		}
		d.v[f], i = num(b, i+1)
	}
	return true
}

// The numbers of /proc/PID/status the agent reads: indexes of
// statusData.u.
const (
	stUID = iota
	stEUID
	stSUID
	stFSUID
	stGID
	stEGID
	stSGID
	stFSGID
	stVmPeak
	stVmSize
	stVmLck
	stVmPin
	stVmHWM
	stVmRSS
	stVmData
	stVmStk
	stVmExe
	stVmLib
	stVmPTE
	stVmSwap
	stThreads
	stVctxsw
	stNvctxsw
	stTgid
	stEnvID
	stNgid
	statusNums
)

// The strings of /proc/PID/status the agent reads: indexes of
// statusData.s.
const (
	ssSigPnd = iota
	ssSigBlk
	ssSigIgn
	ssSigCgt
	ssCpusAllowed
	ssNStgid
	ssNSpid
	ssNSpgid
	ssNSsid
	statusStrs
)

// statusData is /proc/PID/status: the lines PCP's agent reads.
type statusData struct {
	u   [statusNums]uint32
	s   [statusStrs]string
	has uint32 // has* bits: the lines some kernels lack
}

const (
	hasCpusAllowed = 1 << iota
	hasNgid
	hasNStgid
	hasNSpid
	hasNSpgid
	hasNSsid
	hasTgid
	hasEnvID
)

// hasPrefix reports whether line starts with p.
func hasPrefix(line []byte, p string) bool {
	return len(line) >= len(p) && string(line[:len(p)]) == p
}

// strValue is a status line's value after its key: leading blanks
// skipped, to the end of the line; commas for blanks when commasep.
func strValue(s *string, line []byte, keylen int, commasep bool, scratch *[]byte) {
	i := keylen
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	v := line[i:]
	if commasep {
		b := append((*scratch)[:0], v...)
		for j, c := range b {
			if c == ' ' || c == '\t' {
				b[j] = ','
			}
		}
		*scratch = b
		v = b
	}
	setString(s, v)
}

// How a status line is read.
const (
	lNum    = iota + 1 // a number into u[idx]
	lQuad              // four numbers into u[idx:idx+4]
	lStr               // the rest of the line into s[idx]
	lCommas            // the same with commas for blanks
)

// statusLines are the lines of status the agent reads: the key, how its
// value is read and where it goes, and the has* bit it sets (0 for the
// lines every kernel writes).
var statusLines = [...]struct {
	key      string
	how, idx uint8
	has      uint32
}{
	{"Tgid:", lNum, stTgid, hasTgid}, {"Ngid:", lNum, stNgid, hasNgid},
	{"Uid:", lQuad, stUID, 0}, {"Gid:", lQuad, stGID, 0},
	{"NStgid:", lCommas, ssNStgid, hasNStgid}, {"NSpid:", lCommas, ssNSpid, hasNSpid},
	{"NSpgid:", lCommas, ssNSpgid, hasNSpgid}, {"NSsid:", lCommas, ssNSsid, hasNSsid},
	{"VmPeak:", lNum, stVmPeak, 0}, {"VmSize:", lNum, stVmSize, 0}, {"VmLck:", lNum, stVmLck, 0},
	{"VmPin:", lNum, stVmPin, 0}, {"VmHWM:", lNum, stVmHWM, 0}, {"VmRSS:", lNum, stVmRSS, 0},
	{"VmData:", lNum, stVmData, 0}, {"VmStk:", lNum, stVmStk, 0}, {"VmExe:", lNum, stVmExe, 0},
	{"VmLib:", lNum, stVmLib, 0}, {"VmPTE:", lNum, stVmPTE, 0}, {"VmSwap:", lNum, stVmSwap, 0},
	{"Threads:", lNum, stThreads, 0},
	{"SigPnd:", lStr, ssSigPnd, 0}, {"SigBlk:", lStr, ssSigBlk, 0}, {"SigIgn:", lStr, ssSigIgn, 0},
	{"SigCgt:", lStr, ssSigCgt, 0}, {"Cpus_allowed_list:", lStr, ssCpusAllowed, hasCpusAllowed},
	{"voluntary_ctxt_switches:", lNum, stVctxsw, 0}, {"nonvoluntary_ctxt_switches:", lNum, stNvctxsw, 0},
	{"envID:", lNum, stEnvID, hasEnvID},
}

// nextLine splits b at its first newline: the line before it and what
// follows it.
func nextLine(b []byte) (line, rest []byte) {
	n := 0
	for n < len(b) && b[n] != '\n' {
		n++
	}
	if n < len(b) {
		return b[:n], b[n+1:]
	}
	return b, b[n:]
}

// statusByFirst indexes statusLines by their keys' first byte.
// (A zero-value Once: sync.OnceValue at package level is a call at init,
// which every tool linking the agent for -L would pay.)
func statusByFirst() *[128][]uint8 {
	statusFirst.Do(func() {
		for i, l := range statusLines {
			statusFirst.t[l.key[0]] = append(statusFirst.t[l.key[0]], uint8(i))
		}
	})
	return &statusFirst.t
}

var statusFirst struct {
	sync.Once
	t [128][]uint8
}

// parseStatus parses status, line by line: each line whose key is one
// of statusLines' (no key starts another) gives its value.
func parseStatus(d *statusData, b []byte, scratch *[]byte) {
	d.has = 0
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		if len(line) == 0 {
			continue
		}
		for _, i := range statusByFirst()[line[0]&0x7f] {
			l := &statusLines[i]
			if !hasPrefix(line, l.key) {
				continue
			}
			k := len(l.key)
			switch l.how {
			case lNum:
				v, _ := num(line, k)
				d.u[l.idx] = uint32(v)
			case lQuad:
				for f := int(l.idx); f < int(l.idx)+4; f++ {
					var v uint64
					v, k = num(line, k)
					d.u[f] = uint32(v)
				}
			case lStr, lCommas:
				strValue(&d.s[l.idx], line, k, l.how == lCommas, scratch)
			}
			d.has |= l.has
			break
		}
	}
}

// parseNumbers reads up to len(v) blank-separated numbers from b (statm,
// schedstat), leaving the rest zero.
func parseNumbers(v []uint64, b []byte) {
	i := 0
	for f := range v {
		if i >= len(b) {
			v[f] = 0
			continue
		}
		v[f], i = num(b, i)
	}
}

// ioKeys are the lines of /proc/PID/io in proc.io's item order.
var ioKeys = [...]string{"rchar:", "wchar:", "syscr:", "syscw:", "read_bytes:", "write_bytes:", "cancelled_write_bytes:"}

// smapsKeys are the lines of smaps_rollup in proc.smaps's item order.
var smapsKeys = [...]string{"Rss:", "Pss:", "Pss_Anon:", "Pss_File:", "Pss_Shmem:", "Shared_Clean:",
	"Shared_Dirty:", "Private_Clean:", "Private_Dirty:", "Referenced:", "Anonymous:", "LazyFree:",
	"AnonHugePages:", "ShmemPmdMapped:", "FilePmdMapped:", "Shared_Hugetlb:", "Private_Hugetlb:",
	"Swap:", "SwapPss:", "Locked:"}

// parseKeyed fills v from the "Key: number" lines of b whose keys are
// keys, in keys' order; other lines are skipped and missing keys keep
// their earlier values, as in PCP's agent.
func parseKeyed(v []uint64, keys []string, b []byte) {
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		for k, key := range keys {
			if hasPrefix(line, key) {
				v[k], _ = num(line, len(key))
				break
			}
		}
	}
}

// cgroupFormat turns /proc/PID/cgroup ("N:subsys:path" lines) into the
// one line ps prints, "subsys:path;subsys:path", into dst.
func cgroupFormat(dst, b []byte) []byte {
	dst = dst[:0]
	first := true
	for len(b) > 0 {
		n := 0
		for n < len(b) && b[n] != '\n' && b[n] != 0 {
			n++
		}
		if n == len(b) || b[n] == 0 {
			// PCP's agent takes only lines ended by a newline.
			break
		}
		line := b[:n]
		b = b[n+1:]
		c := -1
		for i, ch := range line {
			if ch == ':' {
				c = i
				break
			}
		}
		if c < 0 {
			continue
		}
		if !first {
			dst = append(dst, ';')
		}
		first = false
		dst = append(dst, line[c+1:]...)
	}
	return dst
}

// parseAutogroup reads "/autogroup-ID nice N".
func parseAutogroup(b []byte) (id uint32, nice int32) {
	const p = "/autogroup-"
	if !hasPrefix(b, p) {
		return 0, 0
	}
	v, i := num(b, len(p))
	id = uint32(v)
	rest := b[i:]
	const q = " nice "
	if !hasPrefix(rest, q) {
		return id, 0
	}
	n, _ := num(rest, len(q))
	return id, int32(n)
}

// containerOf finds a container id in /proc/PID/cgroup by PCP's
// heuristics: on the cpuset line, a last path component "libpod-ID.scope"
// or "docker-ID.scope" with a 64 character ID, or a component of 65
// characters after its slash (which is what PCP 6.0.3's length test
// takes); empty when none.
func containerOf(b []byte) []byte {
	for len(b) > 0 {
		n := indexByte(b, '\n')
		if n < 0 {
			return nil
		}
		line := b[:n]
		b = b[n+1:]
		c := indexByte(line, ':')
		if c < 0 {
			continue
		}
		s := line[c+1:]
		if !hasPrefix(s, "cpuset:") {
			continue
		}
		path := s[7:]
		p := len(path) // at the newline
		for p > 0 && (p == len(path) || path[p] != '/') {
			p--
		}
		if p == 0 {
			continue
		}
		last := path[p:]
		if hasPrefix(last, "/libpod-") || hasPrefix(last, "/docker-") {
			id := last[8:]
			if dot := indexByte(id, '.'); dot == 64 {
				return id[:64]
			}
		} else if len(path)-p-1 == 64+1 {
			// endp - p - 2 in PCP's agent, endp at the newline.
			return last[1:65]
		}
	}
	return nil
}
