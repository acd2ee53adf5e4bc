package pmlogger

import (
	"context"
	"encoding/binary"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// The metrics of the prologue and epilogue records, with the descriptors
// pmcd's own agent gives them; pmlogger writes these itself so an
// archive says who wrote it and from which pmcd.
var (
	pmidLoggerHost    = pcp.NewPMID(2, 3, 3)
	pmidLoggerPort    = pcp.NewPMID(2, 3, 0)
	pmidLoggerArchive = pcp.NewPMID(2, 3, 2)
	pmidPMCDPID       = pcp.NewPMID(2, 0, 23)
	pmidPMCDSeqnum    = pcp.NewPMID(2, 0, 24)
	indomLoggers      = pcp.NewInDom(2, 1)

	logueDescs = []struct {
		desc pcp.Desc
		name string
	}{
		{pcp.Desc{PMID: pmidLoggerHost, Type: pcp.TypeString, InDom: indomLoggers, Sem: pcp.SemDiscrete}, "pmcd.pmlogger.host"},
		{pcp.Desc{PMID: pmidLoggerPort, Type: pcp.TypeU32, InDom: indomLoggers, Sem: pcp.SemDiscrete}, "pmcd.pmlogger.port"},
		{pcp.Desc{PMID: pmidLoggerArchive, Type: pcp.TypeString, InDom: indomLoggers, Sem: pcp.SemDiscrete}, "pmcd.pmlogger.archive"},
		{pcp.Desc{PMID: pmidPMCDPID, Type: pcp.TypeU64, InDom: pcp.InDomNull, Sem: pcp.SemDiscrete}, "pmcd.pid"},
		{pcp.Desc{PMID: pmidPMCDSeqnum, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemDiscrete}, "pmcd.seqnum"},
	}
)

// logueRecord builds the prologue or epilogue record at t; with fetched
// set, t is replaced by the time of pmcd's answer for pmcd.pid and
// pmcd.seqnum.
func (l *Logger) logueRecord(ctx context.Context, t pcp.Timestamp, useFetchTime bool) (*pcp.Result, pcp.Timestamp) {
	pid := int32(os.Getpid())
	var pmcdPID uint64
	var seq uint32
	var r pcp.Result
	if _, err := l.src.Fetch(ctx, []pcp.PMID{pmidPMCDPID, pmidPMCDSeqnum}, &r); err == nil && len(r.Sets) == 2 {
		if useFetchTime {
			t = r.Timestamp
		}
		if vs := r.Sets[0]; vs.NumVal == 1 && vs.ValFmt != pcp.ValInSitu && len(vs.Values[0].Block.Data) >= 8 {
			pmcdPID = binary.NativeEndian.Uint64(vs.Values[0].Block.Data)
		}
		if vs := r.Sets[1]; vs.NumVal == 1 && vs.ValFmt == pcp.ValInSitu {
			seq = uint32(vs.Values[0].LVal)
		}
	}
	str := func(s string) pcp.ValueSet {
		return pcp.ValueSet{NumVal: 1, ValFmt: pcp.ValDPtr, Values: []pcp.Value{{Inst: pid,
			Block: pcp.ValueBlock{Type: pcp.TypeString, Data: append([]byte(s), 0)}}}}
	}
	u64 := make([]byte, 8)
	binary.NativeEndian.PutUint64(u64, pmcdPID)
	sets := []pcp.ValueSet{
		str(fqdn()),
		{NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pid, LVal: int32(l.opt.Port)}}},
		str(l.archive),
		{NumVal: 1, ValFmt: pcp.ValDPtr, Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: pcp.TypeU64, Data: u64}}}},
		{NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: int32(seq)}}},
	}
	for i := range sets {
		sets[i].PMID = logueDescs[i].desc.PMID
	}
	return &pcp.Result{Timestamp: t, Sets: sets}, t
}

// prologue writes the first record, with the labels, the descriptors of
// its metrics and the loggers' instance domain, and the first index
// entry, stamped epoch.
func (l *Logger) prologue(ctx context.Context, epoch pcp.Timestamp) error {
	r, _ := l.logueRecord(ctx, epoch, false)
	w := l.w
	if err := w.PutResult(r); err != nil {
		return err
	}
	l.lastStamp, l.lastLogOff = epoch, labelSize(w)
	for i, d := range logueDescs {
		if err := w.PutDesc(d.desc, []string{d.name}); err != nil {
			return err
		}
		l.descs[d.desc.PMID] = true
		if i == 0 {
			id := &archive.InDom{Stamp: epoch, Insts: []int32{int32(os.Getpid())}, Names: []string{strconv.Itoa(os.Getpid())}}
			if err := w.PutInDom(indomLoggers, id, false); err != nil {
				return err
			}
			l.indoms[indomLoggers] = id
		}
	}
	return w.PutIndex(epoch, labelSize(w), labelSize(w))
}

// epilogue writes the last record, a millisecond after the last one
// unless pmcd says what time it is.
func (l *Logger) epilogue(ctx context.Context) error {
	r, t := l.logueRecord(ctx, addMsec(l.lastStamp), true)
	data, _ := l.w.Offsets()
	if err := l.w.PutResult(r); err != nil {
		return err
	}
	l.lastStamp, l.lastLogOff = t, data
	return nil
}

// fqdn is this host's name as its address resolves back, as pmlogger
// records it.
func fqdn() string {
	host, err := os.Hostname()
	if err != nil {
		return "unknown"
	}
	addrs, err := net.LookupHost(host)
	if err != nil || len(addrs) == 0 {
		return host
	}
	names, err := net.LookupAddr(addrs[0])
	if err != nil || len(names) == 0 {
		return host
	}
	return strings.TrimSuffix(names[0], ".")
}
