package pmda

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// Event queue scripts drive an EventQueues here and libpcp_pmda's queues
// in testdata/eventqueue_harness/eventqueue.c alike, one command a line
// ('#' lines and blank lines skipped). Each command prints itself, a
// colon, and its result: a return code as PCP's error number (0 for
// success), a queue handle, a counter's value, or for records "none"
// (PMDA_FETCH_NOVALUES) or the value type, each record and the array's
// bytes in hex (the timestamps of missed records, which are the time of
// the fetch, and the padding after parameters zeroed). A filter prints
// "release PREFIX" when it is released.
//
//	queue NAME MAXMEM           pmdaEventNewQueue
//	active NAME MAXMEM N        pmdaEventNewActiveQueue
//	handle NAME                 pmdaEventQueueHandle
//	append NAME SEC.USEC TEXT   pmdaEventQueueAppend of TEXT's bytes
//	client CTX / end CTX        pmdaEventNewClient / pmdaEventEndClient
//	records NAME CTX            pmdaEventQueueRecords
//	access NAME CTX 0|1         pmdaEventSetAccess
//	filter NAME CTX PREFIX|-    pmdaEventSetFilter keeping events that
//	                            start with PREFIX; "-" sets no filter
//	counter|clients|memory|bytes NAME, nclients, shutdown NAME
//
// The decoder makes one point record per event with its text as a string
// parameter; text starting with F fails to decode (PM_ERR_CONV), with Z
// decodes to nothing, with T to two records.

var scriptParam = pcp.NewPMID(29, 0, 5)

// scriptDecode is the harness's decoder.
func scriptDecode(a *EventArray, data []byte, t time.Time) (int, error) {
	switch {
	case len(data) > 0 && data[0] == 'F':
		return 0, pcp.ErrConv
	case len(data) > 0 && data[0] == 'Z':
		return 0, nil
	}
	if err := a.AddRecord(t, pcp.EventFlagPoint); err != nil {
		return 0, err
	}
	if err := a.AddParam(scriptParam, pcp.TypeString, &pcp.Atom{CP: string(data)}); err != nil {
		return 0, err
	}
	if len(data) == 0 || data[0] != 'T' {
		return 1, nil
	}
	if err := a.AddRecord(t, pcp.EventFlagEnd); err != nil {
		return 0, err
	}
	return 2, nil
}

// errCode is the PCP error number an error carries.
func errCode(err error) int {
	var code pcp.Error
	if errors.As(err, &code) {
		return int(code)
	}
	return -1
}

func rc(err error) string {
	if err != nil {
		return strconv.Itoa(errCode(err))
	}
	return "0"
}

// runQueueScript runs a script through one EventQueues and returns what
// it printed; with dropMissed, records of missed events are left out of
// what it prints (libpcp_pmda's queues never send them).
func runQueueScript(script string, dropMissed bool) string {
	var (
		qs    EventQueues
		named = map[string]*EventQueue{}
		out   strings.Builder
	)
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	for _, line := range strings.Split(script, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		for len(f) < 4 {
			f = append(f, "")
		}
		fmt.Fprintf(&out, "%s:", line)
		q := named[f[1]]
		invalid := strconv.Itoa(int(errQueueInvalid))
		switch f[0] {
		case "queue", "active":
			n := 0
			if f[0] == "active" {
				n = atoi(f[3])
			}
			max, _ := strconv.ParseUint(f[2], 10, 63)
			nq, err := qs.NewActiveQueue(f[1], int(max), n)
			if err != nil {
				fmt.Fprintf(&out, " %d\n", errCode(err))
				break
			}
			named[f[1]] = nq
			fmt.Fprintf(&out, " %d\n", nq.Handle())
		case "handle":
			hq, err := qs.Queue(f[1])
			if err != nil {
				fmt.Fprintf(&out, " %d\n", errCode(err))
				break
			}
			fmt.Fprintf(&out, " %d\n", hq.Handle())
		case "append":
			if q == nil {
				fmt.Fprintf(&out, " %s\n", invalid)
				break
			}
			sec, usec, _ := strings.Cut(f[2], ".")
			t := time.Unix(int64(atoi(sec)), int64(atoi(usec))*1000)
			fmt.Fprintf(&out, " %s\n", rc(q.Append([]byte(f[3]), t)))
		case "client":
			qs.NewClient(Client(atoi(f[1])))
			out.WriteString(" 0\n")
		case "end":
			fmt.Fprintf(&out, " %s\n", rc(qs.EndClient(Client(atoi(f[1])))))
		case "records":
			if q == nil {
				fmt.Fprintf(&out, " %s\n", invalid)
				break
			}
			vb, err := q.Records(Client(atoi(f[2])), scriptDecode)
			switch {
			case err != nil:
				fmt.Fprintf(&out, " %d\n", errCode(err))
			case vb == nil:
				out.WriteString(" none\n")
			case dropMissed && onlyMissed(vb.Data):
				// PCP's fetch would have found no records
				out.WriteString(" none\n")
			default:
				fmt.Fprintf(&out, " %d%s\n", vb.Type, dumpEventArray(vb.Data, dropMissed))
			}
		case "access":
			if q == nil {
				fmt.Fprintf(&out, " %s\n", invalid)
				break
			}
			fmt.Fprintf(&out, " %s\n", rc(q.SetAccess(Client(atoi(f[2])), f[3] != "0")))
		case "filter":
			if q == nil {
				fmt.Fprintf(&out, " %s\n", invalid)
				break
			}
			var err error
			if f[3] == "-" {
				err = q.SetFilter(Client(atoi(f[2])), nil, nil)
			} else {
				prefix := f[3]
				err = q.SetFilter(Client(atoi(f[2])),
					func(d []byte) bool { return !strings.HasPrefix(string(d), prefix) },
					func() { fmt.Fprintf(&out, "release %s\n", prefix) })
			}
			fmt.Fprintf(&out, " %s\n", rc(err))
		case "counter", "clients", "memory", "bytes", "shutdown":
			if q == nil || !q.isLive() {
				fmt.Fprintf(&out, " %s\n", invalid)
				break
			}
			switch f[0] {
			case "counter":
				fmt.Fprintf(&out, " %d\n", q.Counter())
			case "clients":
				fmt.Fprintf(&out, " %d\n", q.Clients())
			case "memory":
				fmt.Fprintf(&out, " %d\n", q.Memory())
			case "bytes":
				fmt.Fprintf(&out, " %d\n", q.Bytes())
			case "shutdown":
				fmt.Fprintf(&out, " %s\n", rc(q.Shutdown()))
			}
		case "nclients":
			fmt.Fprintf(&out, " %d\n", qs.Clients())
		default:
			out.WriteString(" unknown command\n")
		}
	}
	return out.String()
}

// dumpEventArray prints an event array's records and its bytes as the C
// harness does. With dropMissed the records of missed events are left
// out of both, as if the array had been built without them.
func dumpEventArray(data []byte, dropMissed bool) string {
	buf := append([]byte(nil), data...)
	kept := buf[:4:4]
	var out strings.Builder
	word := func(off int) uint32 { return hostOrder.Uint32(buf[off:]) }
	off, nrec := 4, 0
	for r := 0; r < int(word(0)) && off+16 <= len(buf); r++ {
		start := off
		flags, np := word(off+8), word(off+12)
		if flags&pcp.EventFlagMissed != 0 {
			off += 16
			if dropMissed {
				continue
			}
			clear(buf[start : start+8])
			fmt.Fprintf(&out, " [missed %d]", np)
		} else {
			fmt.Fprintf(&out, " [%d.%06d %#x", word(off), word(off+4), flags)
			off += 16
			for p := 0; p < int(np) && off+8 <= len(buf); p++ {
				plen := int(word(off+4) & 0xffffff)
				padded := (plen + 3) &^ 3
				fmt.Fprintf(&out, " %q", buf[off+8:off+4+plen])
				if off+4+padded <= len(buf) {
					clear(buf[off+4+plen : off+4+padded])
				}
				off += 4 + padded
			}
			out.WriteString("]")
		}
		kept = append(kept, buf[start:min(off, len(buf))]...)
		nrec++
	}
	hostOrder.PutUint32(kept, uint32(nrec))
	out.WriteString(" hex=" + hex.EncodeToString(kept))
	return out.String()
}

// onlyMissed reports whether an array holds nothing but records of missed
// events.
func onlyMissed(data []byte) bool {
	n := int(hostOrder.Uint32(data))
	for r, off := 0, 4; r < n; r++ {
		if off+16 > len(data) || hostOrder.Uint32(data[off+8:])&pcp.EventFlagMissed == 0 {
			return false
		}
		off += 16
	}
	return true
}
