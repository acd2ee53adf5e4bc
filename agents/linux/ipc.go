package linux

import (
	"github.com/gopcp/gopcp/pmda"
	"os/user"
	"strconv"
	"syscall"
	"unsafe"
)

// System V IPC: limits and usage from msgctl, semctl and shmctl (IPC_INFO
// and the MSG_INFO, SEM_INFO and SHM_INFO summaries), and each message
// queue, semaphore set and shared memory segment from /proc/sysvipc.
const (
	ipcInfo = 3
	shmInfo = 14
	msgInfo = 12
	semInfo = 19

	shmDest   = 0o1000
	shmLocked = 0o2000

	ipcShmInDom = 28
	ipcMsgInDom = 29
	ipcSemInDom = 30
)

// msginfo, seminfo, shminfo and shmInfoT are the kernel's structures.
type msginfo struct {
	msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql int32
	msgseg                                                  uint16
	_                                                       uint16
}

type seminfo struct {
	semmap, semmni, semmns, semmnu, semmsl, semopm, semume, semusz, semvmx, semaem int32
}

type shminfo struct {
	shmmax, shmmin, shmmni, shmseg, shmall uint64
	_                                      [4]uint64
}

type shmInfoT struct {
	usedIDs                                        int32
	_                                              int32
	shmTot, shmRss, shmSwp, swapAttempts, swapSucc uint64
}

// ipcObject is one line of /proc/sysvipc/{shm,msg,sem}.
type ipcObject struct {
	key, owner   string
	perms        uint64
	size, count  uint64 // shm: bytes, nattch; msg: bytes, messages; sem: nsems
	cpid, lpid   uint64
	dest, locked bool
	present      bool
}

type ipcData struct {
	msgLim, msgUse msginfo
	semLim, semUse seminfo
	shmLim         shminfo
	shmUse         shmInfoT
	ok             [6]bool // msgLim msgUse semLim semUse shmLim shmUse
	objs           [3][]ipcObject
	owners         map[uint64]string
	key            []byte
}

func ipcCall(trap uintptr, a1, a2, a3, a4 uintptr) bool {
	_, _, errno := syscall.Syscall6(trap, a1, a2, a3, a4, 0, 0)
	return errno == 0
}

func (x *Linux) bindIPC() {
	d := &x.ipc
	x.sources[srcIPC] = x.readIPC
	num := func(name string, which int, f func() uint64) {
		x.bind(name, srcIPC, func(int32) (pcpAtom, error) {
			if !d.ok[which] {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u32(f()), nil
		})
	}
	m, mu := &d.msgLim, &d.msgUse
	num("ipc.msg.sz_pool", 0, func() uint64 { return uint64(m.msgpool) })
	num("ipc.msg.mapent", 0, func() uint64 { return uint64(m.msgmap) })
	num("ipc.msg.max_msgsz", 0, func() uint64 { return uint64(m.msgmax) })
	num("ipc.msg.max_defmsgq", 0, func() uint64 { return uint64(m.msgmnb) })
	num("ipc.msg.max_msgqid", 0, func() uint64 { return uint64(m.msgmni) })
	num("ipc.msg.max_msgseg", 0, func() uint64 { return uint64(m.msgssz) })
	num("ipc.msg.num_smsghdr", 0, func() uint64 { return uint64(m.msgtql) })
	num("ipc.msg.max_seg", 0, func() uint64 { return uint64(m.msgseg) })
	num("ipc.msg.used_queues", 1, func() uint64 { return uint64(mu.msgpool) })
	num("ipc.msg.tot_msg", 1, func() uint64 { return uint64(mu.msgmap) })
	num("ipc.msg.tot_bytes", 1, func() uint64 { return uint64(mu.msgtql) })
	s, su := &d.semLim, &d.semUse
	num("ipc.sem.max_semmap", 2, func() uint64 { return uint64(s.semmap) })
	num("ipc.sem.max_semid", 2, func() uint64 { return uint64(s.semmni) })
	num("ipc.sem.max_sem", 2, func() uint64 { return uint64(s.semmns) })
	num("ipc.sem.num_undo", 2, func() uint64 { return uint64(s.semmnu) })
	num("ipc.sem.max_perid", 2, func() uint64 { return uint64(s.semmsl) })
	num("ipc.sem.max_ops", 2, func() uint64 { return uint64(s.semopm) })
	num("ipc.sem.max_undoent", 2, func() uint64 { return uint64(s.semume) })
	num("ipc.sem.sz_semundo", 2, func() uint64 { return uint64(s.semusz) })
	num("ipc.sem.max_semval", 2, func() uint64 { return uint64(s.semvmx) })
	num("ipc.sem.max_exit", 2, func() uint64 { return uint64(s.semaem) })
	num("ipc.sem.used_sem", 3, func() uint64 { return uint64(su.semusz) })
	num("ipc.sem.tot_sem", 3, func() uint64 { return uint64(su.semaem) })
	h, hu := &d.shmLim, &d.shmUse
	num("ipc.shm.max_segsz", 4, func() uint64 { return h.shmmax })
	num("ipc.shm.min_segsz", 4, func() uint64 { return h.shmmin })
	num("ipc.shm.max_seg", 4, func() uint64 { return h.shmmni })
	num("ipc.shm.max_segproc", 4, func() uint64 { return h.shmseg })
	num("ipc.shm.max_shmsys", 4, func() uint64 { return h.shmall })
	num("ipc.shm.tot", 5, func() uint64 { return hu.shmTot })
	num("ipc.shm.rss", 5, func() uint64 { return hu.shmRss })
	num("ipc.shm.swp", 5, func() uint64 { return hu.shmSwp })
	num("ipc.shm.used_ids", 5, func() uint64 { return uint64(hu.usedIDs) })
	num("ipc.shm.swap_attempts", 5, func() uint64 { return hu.swapAttempts })
	num("ipc.shm.swap_successes", 5, func() uint64 { return hu.swapSucc })

	obj := func(name string, kind int, f func(o *ipcObject) pcpAtom) {
		x.bind(name, srcIPC, func(inst int32) (pcpAtom, error) {
			objs := d.objs[kind]
			if inst < 0 || int(inst) >= len(objs) || !objs[inst].present {
				return pcpAtom{}, noInst
			}
			return f(&objs[inst]), nil
		})
	}
	for kind, g := range []string{"ipc.shm.", "ipc.msg.", "ipc.sem."} {
		obj(g+"key", kind, func(o *ipcObject) pcpAtom { return str(o.key) })
		obj(g+"owner", kind, func(o *ipcObject) pcpAtom { return str(o.owner) })
		obj(g+"perms", kind, func(o *ipcObject) pcpAtom { return u32(o.perms) })
	}
	obj("ipc.shm.segsz", 0, func(o *ipcObject) pcpAtom { return u32(o.size) })
	obj("ipc.shm.nattch", 0, func(o *ipcObject) pcpAtom { return u32(o.count) })
	obj("ipc.shm.status", 0, func(o *ipcObject) pcpAtom {
		switch {
		case o.dest && o.locked:
			return str("dest locked")
		case o.locked:
			return str("locked")
		case o.dest:
			return str("dest")
		}
		return str("")
	})
	obj("ipc.shm.creator_pid", 0, func(o *ipcObject) pcpAtom { return u32(o.cpid) })
	obj("ipc.shm.last_access_pid", 0, func(o *ipcObject) pcpAtom { return u32(o.lpid) })
	obj("ipc.msg.msgsz", 1, func(o *ipcObject) pcpAtom { return u32(o.size) })
	obj("ipc.msg.messages", 1, func(o *ipcObject) pcpAtom { return u32(o.count) })
	obj("ipc.msg.last_send_pid", 1, func(o *ipcObject) pcpAtom { return u32(o.cpid) })
	obj("ipc.msg.last_recv_pid", 1, func(o *ipcObject) pcpAtom { return u32(o.lpid) })
	obj("ipc.sem.nsems", 2, func(o *ipcObject) pcpAtom { return u32(o.count) })
}

func (x *Linux) readIPC() error {
	d := &x.ipc
	d.ok[0] = ipcCall(syscall.SYS_MSGCTL, 0, ipcInfo, uintptr(unsafe.Pointer(&d.msgLim)), 0)
	d.ok[1] = ipcCall(syscall.SYS_MSGCTL, 0, msgInfo, uintptr(unsafe.Pointer(&d.msgUse)), 0)
	d.ok[2] = ipcCall(syscall.SYS_SEMCTL, 0, 0, ipcInfo, uintptr(unsafe.Pointer(&d.semLim)))
	d.ok[3] = ipcCall(syscall.SYS_SEMCTL, 0, 0, semInfo, uintptr(unsafe.Pointer(&d.semUse)))
	d.ok[4] = ipcCall(syscall.SYS_SHMCTL, 0, ipcInfo, uintptr(unsafe.Pointer(&d.shmLim)), 0)
	d.ok[5] = ipcCall(syscall.SYS_SHMCTL, 0, shmInfo, uintptr(unsafe.Pointer(&d.shmUse)), 0)
	for kind, f := range []string{"sysvipc/shm", "sysvipc/msg", "sysvipc/sem"} {
		x.readSysvipc(kind, f)
	}
	return nil
}

// readSysvipc lists one kind of IPC object, named by its id.
func (x *Linux) readSysvipc(kind int, file string) {
	d := &x.ipc
	t := &x.indoms[ipcShmInDom+kind]
	objs := d.objs[kind]
	for i := range objs {
		objs[i].present = false
	}
	t.begin()
	defer t.end()
	b, err := x.readProc(file)
	if err != nil {
		return
	}
	_, b = nextLine(b) // the heading
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		// shm: key id perms size cpid lpid nattch uid ...
		// msg: key id perms cbytes qnum lspid lrpid uid ...
		// sem: key id perms nsems uid ...
		if (kind < 2 && len(f) < 8) || len(f) < 5 {
			continue
		}
		id := t.add(f[1])
		for int(id) >= len(objs) {
			objs = append(objs, ipcObject{})
		}
		o := &objs[id]
		o.present = true
		d.key = append(d.key[:0], "0x"...)
		key := uint32(parseI64(f[0]))
		hex := strconv.AppendUint(nil, uint64(key), 16)
		for i := len(hex); i < 8; i++ {
			d.key = append(d.key, '0')
		}
		o.key = keepString(o.key, append(d.key, hex...))
		mode := parseOctal(f[2])
		o.perms = octalAsDecimal(mode & 0o777)
		o.dest, o.locked = mode&shmDest != 0, mode&shmLocked != 0
		uidField := f[4]
		switch kind {
		case 0:
			o.size, o.cpid, o.lpid, o.count = parseU64(f[3]), parseU64(f[4]), parseU64(f[5]), parseU64(f[6])
			uidField = f[7]
		case 1:
			o.size, o.count, o.cpid, o.lpid = parseU64(f[3]), parseU64(f[4]), parseU64(f[5]), parseU64(f[6])
			uidField = f[7]
		default:
			o.count = parseU64(f[3])
		}
		o.owner = x.ownerName(parseU64(uidField))
	}
	d.objs[kind] = objs
}

// ownerName is the user name of uid, or the number; names are looked up
// once.
func (x *Linux) ownerName(uid uint64) string {
	d := &x.ipc
	if n, ok := d.owners[uid]; ok {
		return n
	}
	if d.owners == nil {
		d.owners = map[uint64]string{}
	}
	n := strconv.FormatUint(uid, 10)
	if u, err := user.LookupId(n); err == nil {
		n = u.Username
	}
	d.owners[uid] = n
	return n
}

func parseOctal(b []byte) uint64 {
	var n uint64
	for _, c := range b {
		if c < '0' || c > '7' {
			break
		}
		n = n<<3 | uint64(c-'0')
	}
	return n
}

// octalAsDecimal gives permission bits the value their octal digits read
// as a decimal number (0644 becomes 644), as PCP reports them.
func octalAsDecimal(m uint64) uint64 {
	return (m>>6&7)*100 + (m>>3&7)*10 + m&7
}
