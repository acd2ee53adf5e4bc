package linux

import (
	"strings"
)

// Serial lines (/proc/tty/driver/serial, readable by root only), tape
// drives (/sys/class/scsi_tape/stN/stats) and the SCSI device map
// (/proc/scsi/scsi).
const (
	ttyInDom  = 35
	tapeInDom = 34
)

type ttyLine struct {
	tx, rx, frame, parity, brk, overrun, irq uint64
	present                                  bool
}

var ttyFields = []struct {
	metric, tag string
}{
	{"tx", "tx:"}, {"rx", "rx:"}, {"frame", "fe:"}, {"parity", "pe:"},
	{"brk", "brk:"}, {"overrun", "oe:"}, {"irq", "irq:"},
}

func (x *Linux) bindTTY() {
	x.sources[srcTTY] = x.readTTY
	for i, f := range ttyFields {
		x.bind("tty.serial."+f.metric, srcTTY, func(inst int32) (pcpAtom, error) {
			if inst < 0 || int(inst) >= len(x.ttys) || !x.ttys[inst].present {
				return pcpAtom{}, noInst
			}
			return u32(x.ttys[inst].get(i)), nil
		})
	}
}

func (l *ttyLine) get(i int) uint64 {
	return [...]uint64{l.tx, l.rx, l.frame, l.parity, l.brk, l.overrun, l.irq}[i]
}

func (l *ttyLine) set(i int, v uint64) {
	switch i {
	case 0:
		l.tx = v
	case 1:
		l.rx = v
	case 2:
		l.frame = v
	case 3:
		l.parity = v
	case 4:
		l.brk = v
	case 5:
		l.overrun = v
	case 6:
		l.irq = v
	}
}

// readTTY lists serial ports with a known UART, named by port number.
func (x *Linux) readTTY() error {
	t := &x.indoms[ttyInDom]
	for i := range x.ttys {
		x.ttys[i].present = false
	}
	t.begin()
	defer t.end()
	b, err := x.readProc("tty/driver/serial")
	if err != nil {
		return nil
	}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		colon := indexByte(line, ':')
		u := indexString(line, "uart:")
		if colon <= 0 || u < 0 {
			continue
		}
		port := line[:colon]
		uart, _ := nextField(line[u+5:])
		if string(uart) == "unknown" || string(port) == "serinfo" {
			continue
		}
		id := t.add(port)
		for int(id) >= len(x.ttys) {
			x.ttys = append(x.ttys, ttyLine{})
		}
		l := &x.ttys[id]
		*l = ttyLine{present: true}
		for i, f := range ttyFields {
			// " tx:" so that "tx:" does not match inside another tag.
			if p := indexString(line, " "+f.tag); p >= 0 {
				l.set(i, parseU64(line[p+1+len(f.tag):]))
			}
		}
	}
	return nil
}

var tapeStats = []string{"in_flight", "io_ns", "other_cnt", "read_byte_cnt", "read_cnt", "read_ns",
	"resid_cnt", "write_byte_cnt", "write_cnt", "write_ns"}

type tapeDev struct {
	stats   [10]uint64
	present bool
}

func (x *Linux) bindTape() {
	x.sources[srcTape] = x.readTape
	for i, s := range tapeStats {
		x.bind("tape.dev."+s, srcTape, func(inst int32) (pcpAtom, error) {
			if inst < 0 || int(inst) >= len(x.tapes) || !x.tapes[inst].present {
				return pcpAtom{}, noInst
			}
			return u64(x.tapes[inst].stats[i]), nil
		})
	}
}

// readTape lists tape drives stN with statistics.
func (x *Linux) readTape() error {
	t := &x.indoms[tapeInDom]
	for i := range x.tapes {
		x.tapes[i].present = false
	}
	t.begin()
	defer t.end()
	if x.dir.Read(true, x.sys, "/class/scsi_tape") != nil {
		return nil
	}
	for e := range x.dir.Len() {
		n := x.dir.At(e)
		if !hasPrefix(n, "st") || !isDigit(n[len(n)-1]) {
			continue
		}
		// The drive's directory, to which each use below adds a name.
		x.scratch = append(append(append(x.scratch[:0], x.sys...), "/class/scsi_tape/"...), n...)
		x.scratch = append(x.scratch, "/stats"...)
		if !x.pc.existsPath(x.scratch) {
			continue
		}
		id := t.add(n)
		for int(id) >= len(x.tapes) {
			x.tapes = append(x.tapes, tapeDev{})
		}
		d := &x.tapes[id]
		d.present = true
		for i, s := range tapeStats {
			if b, err := x.fb.readBytes(append(append(x.scratch, '/'), s...)); err == nil {
				d.stats[i] = parseU64(b)
			}
		}
	}
	return nil
}

// readSCSI lists /proc/scsi/scsi's devices as "scsiH:C:I:L TYPE", with
// the block device sysfs names for each; devices without one are left
// out, as PCP's agent leaves them.
func (x *Linux) readSCSI() error {
	t := &x.indoms[scsiInDom]
	t.begin()
	defer t.end()
	b, err := x.readProc("scsi/scsi")
	if err != nil {
		return nil
	}
	var name []byte
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		tl := trimSpace(line)
		switch {
		case hasPrefix(tl, "Host:"):
			x.fields = fields(tl, x.fields)
			f := x.fields
			// Host: scsi0 Channel: 00 Id: 00 Lun: 00
			if len(f) < 8 {
				name = nil
				continue
			}
			name = append(append(name[:0], "scsi"...), strings.TrimPrefix(string(f[1]), "scsi")...)
			for _, i := range []int{3, 5, 7} {
				name = append(append(name, ':'), itoaTrim(f[i])...)
			}
		case hasPrefix(tl, "Type:") && name != nil:
			typ, _ := nextField(tl[len("Type:"):])
			dev := x.scsiBlock(name[len("scsi"):])
			if dev == nil {
				name = nil
				continue
			}
			name = append(append(name, ' '), typ...)
			id := t.add(name)
			for int(id) >= len(x.scsiDev) {
				x.scsiDev = append(x.scsiDev, "")
			}
			x.scsiDev[id] = keepString(x.scsiDev[id], dev)
			name = nil
		}
	}
	return nil
}

// itoaTrim drops leading zeros of a decimal field ("00" is "0").
func itoaTrim(b []byte) []byte {
	for len(b) > 1 && b[0] == '0' {
		b = b[1:]
	}
	return b
}

// scsiBlock is the block device of SCSI address H:C:I:L, from
// /sys/class/scsi_device/H:C:I:L/device/block (the first by name), or
// nil. The name is valid until the next directory listing.
func (x *Linux) scsiBlock(addr []byte) []byte {
	x.scratch = append(append(append(x.scratch[:0], x.sys...), "/class/scsi_device/"...), addr...)
	x.scratch = append(x.scratch, "/device/block"...)
	if x.dir.ReadPath(true, x.scratch) != nil {
		return nil
	}
	for i := range x.dir.Len() {
		if n := x.dir.At(i); n[0] != '.' {
			return n
		}
	}
	return nil
}
