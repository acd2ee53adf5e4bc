package logcheck

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

func labelBytes(version int) int64 {
	if version == archive.Version3 {
		return 4 + 4 + 12 + 4 + 4 + 4 + 256*3 + 8
	}
	return 4 + 4 + 8 + 4 + 64 + 40 + 8
}

func stampStr(t pcp.Timestamp) string {
	return strconv.FormatInt(t.Sec, 10) + "." + fmt.Sprintf("%09d", t.Nsec)
}

// pass1 checks the temporal index against itself, the label and the
// sizes of the files it points into.
func (c *checker) pass1(a *archive.Archive, name string) {
	w := c.w
	if c.opt.Verbose > 0 {
		fmt.Fprintf(w, "%s: start pass1 (check temporal index)\n", name)
	}
	if len(a.Index) == 0 {
		fmt.Fprintf(w, "%s: warning temporal index is missing\n", name)
		return
	}
	var metaSize int64 = -1
	if n, err := archive.FileSize(name + ".meta"); err == nil {
		metaSize = n
	}
	var logSize int64 = -1
	lsize := labelBytes(a.Version())
	bad := func(format string, args ...any) {
		fmt.Fprintf(w, format, args...)
		c.index = stateBad
	}
	var last *archive.IndexEntry
	for i := 1; i <= len(a.Index); i++ {
		e := &a.Index[i-1]
		if e.Vol < 0 {
			bad("%s.index[entry %d]: illegal negative volume number %d\n", name, i, e.Vol)
			logSize = -1
		} else if last == nil || e.Vol != last.Vol {
			logSize = -1
			path := name + "." + strconv.Itoa(int(e.Vol))
			if n, err := archive.FileSize(path); err == nil {
				logSize = n
			} else {
				fmt.Fprintf(w, "%s: file missing for log volume %d\n", path, e.Vol)
			}
		}
		if e.Stamp.Sec < 0 || e.Stamp.Nsec < 0 {
			bad("%s.index[entry %d]: illegal negative timestamp value (%d sec, %d nsec)\n", name, i, e.Stamp.Sec, e.Stamp.Nsec)
		}
		if e.Stamp.Nsec > 999999999 {
			bad("%s.index[entry %d]: illegal timestamp nsec value (%d sec, %d nsec)\n", name, i, e.Stamp.Sec, e.Stamp.Nsec)
		}
		if e.MetaOffset < lsize {
			bad("%s.index[entry %d]: offset to metadata (%d) before end of label record (%d)\n", name, i, e.MetaOffset, lsize)
		}
		if metaSize != -1 && e.MetaOffset > metaSize {
			bad("%s.index[entry %d]: offset to metadata (%d) past end of file (%d)\n", name, i, e.MetaOffset, metaSize)
		}
		if e.DataOffset < lsize {
			bad("%s.index[entry %d]: offset to log (%d) before end of label record (%d)\n", name, i, e.DataOffset, lsize)
		}
		if logSize != -1 && e.DataOffset > logSize {
			bad("%s.index[entry %d]: offset to log (%d) past end of file (%d)\n", name, i, e.DataOffset, logSize)
		}
		if c.start.Sec != 0 && e.Stamp.Sub(c.start) < 0 {
			bad("%s.index[entry %d]: timestamp (%s) less than log label timestamp (%s)\n", name, i, stampStr(e.Stamp), stampStr(c.start))
		}
		if last != nil {
			if e.Stamp.Sub(last.Stamp) < 0 {
				bad("%s.index[entry %d]: timestamp (%s) went backwards in time (from %s at [entry %d])\n", name, i, stampStr(e.Stamp), stampStr(last.Stamp), i-1)
			}
			if e.Vol < last.Vol {
				bad("%s.index[entry %d]: volume number (%d) decreased (from %d at [entry %d])\n", name, i, e.Vol, last.Vol, i-1)
			}
			if e.Vol == last.Vol && e.MetaOffset < last.MetaOffset {
				bad("%s.index[entry %d]: offset to metadata (%d) decreased (from %d at [entry %d])\n", name, i, e.MetaOffset, last.MetaOffset, i-1)
			}
			if e.Vol == last.Vol && e.DataOffset < last.DataOffset {
				bad("%s.index[entry %d]: offset to log (%d) decreased (from %d at [entry %d])\n", name, i, e.DataOffset, last.DataOffset, i-1)
			}
		}
		last = e
	}
}

// pass2 checks each metric descriptor.
func (c *checker) pass2(a *archive.Archive, name string) {
	w := c.w
	if c.opt.Verbose > 0 {
		fmt.Fprintf(w, "%s: start pass2\n", name)
	}
	a.Meta.EachDesc(func(d pcp.Desc) {
		names, err := c.ns.Names(d.PMID)
		mname := "unknown"
		if err != nil || len(names) == 0 {
			fmt.Fprintf(w, "%s.meta: PMID %s: no name in PMNS: %s\n", name, d.PMID, pcp.TextOf(err))
		} else {
			mname = names[0]
		}
		who := fmt.Sprintf("%s.meta: %s [%s]", name, mname, d.PMID)
		if d.Type == pcp.TypeNoSupport {
			return
		}
		if d.Type < pcp.Type32 || d.Type > pcp.TypeHighResEvent {
			fmt.Fprintf(w, "%s: bad type (%d) in pmDesc\n", who, d.Type)
		}
		if d.InDom != pcp.InDomNull && d.InDom.Domain() != d.PMID.Domain() {
			fmt.Fprintf(w, "%s: domain of pmid (%d) != domain of indom (%d)\n", who, d.PMID.Domain(), d.InDom.Domain())
		}
		if d.Sem != pcp.SemCounter && d.Sem != pcp.SemInstant && d.Sem != pcp.SemDiscrete {
			fmt.Fprintf(w, "%s: bad semantics (%d) in pmDesc\n", who, d.Sem)
		}
		u := d.Units
		for _, dim := range []struct {
			what string
			dim  int8
		}{{"Space", u.DimSpace}, {"Time", u.DimTime}, {"Count", u.DimCount}} {
			if dim.dim < -2 || dim.dim > 2 {
				fmt.Fprintf(w, "%s: bad dimension (%d) for %s in pmDesc\n", who, dim.dim, dim.what)
			}
		}
		if u.DimSpace == 0 && u.ScaleSpace != 0 {
			fmt.Fprintf(w, "%s: non-zero scale (%d) with zero dimension for Space in pmDesc\n", who, u.ScaleSpace)
		}
		if u.ScaleSpace > 6 { // PM_SPACE_EBYTE
			fmt.Fprintf(w, "%s: bad scale (%d) for Space in pmDesc\n", who, u.ScaleSpace)
		}
		if u.DimTime == 0 && u.ScaleTime != 0 {
			fmt.Fprintf(w, "%s: non-zero scale (%d) with zero dimension for Time in pmDesc\n", who, u.ScaleTime)
		}
		if u.ScaleTime > 5 { // PM_TIME_HOUR
			fmt.Fprintf(w, "%s: bad scale (%d) for Time in pmDesc\n", who, u.ScaleTime)
		}
		if u.DimCount == 0 && u.ScaleCount != 0 {
			fmt.Fprintf(w, "%s: non-zero scale (%d) with zero dimension for Count in pmDesc\n", who, u.ScaleCount)
		}
	})
}

// pass3 reads every data record in time order from the start, checking
// the timestamps.
func (c *checker) pass3(a *archive.Archive, name string) {
	w := c.w
	if c.opt.Verbose > 0 {
		fmt.Fprintf(w, "%s: start pass3\n", name)
	}
	if spanSeconds(c.win.Start, c.win.Finish) > 86400 {
		c.dayflag = true
	}
	var from pcp.Timestamp
	if c.win.FromStart {
		from = c.win.Start
	}
	r := a.NewReader()
	defer r.Close()
	// placed by the index at once, as pmSetMode does, then read record
	// by record with no skipping, as __pmLogRead_ctx reads
	if err := r.Seek(archive.Forward, from); err != nil {
		fmt.Fprintf(w, "%s: pmSetMode failed: %s\n", name, pcp.Error(archive.Code(err)).Error())
		return
	}
	// libpcp's ac_vol, the volume every message names: where the
	// placing left it, as reading on record by record does not move it
	vol, _ := r.Position()
	var res pcp.Result
	last := from
	data := map[pcp.PMID]*checkData{}
	for {
		err := r.Next(&res)
		if errors.Is(err, pcp.ErrEOL) {
			return
		}
		if err != nil {
			fmt.Fprintf(w, "[after %s]: pmFetch: error: %s\n", c.stamp(last), pcp.Error(archive.Code(err)).Error())
			return
		}
		c.results++
		if res.Timestamp.Sub(c.start) < 0 {
			fmt.Fprintf(w, "%s.%d:[%s]: timestamp before label timestamp: %s\n", name, vol, c.stamp(res.Timestamp), c.stamp(c.start))
		}
		if c.opt.DebugRecords {
			c.debugRecord(name, vol, &res, last)
		}
		if res.Timestamp.Sub(last) < 0 {
			fmt.Fprintf(w, "%s.%d:[%s]: timestamp went backwards, prior timestamp: %s\n", name, vol, c.stamp(res.Timestamp), c.stamp(last))
		}
		last = res.Timestamp
		if afterFinish(res.Timestamp, c.win.Finish) {
			return
		}
		if len(res.Sets) == 0 {
			// a mark: no wrap check across the gap
			for _, cd := range data {
				if cd != nil {
					for i := range cd.insts {
						cd.insts[i].lastSec = 0
					}
				}
			}
			c.marks++
			continue
		}
		if c.docheck(a, name, vol, &res, data) {
			c.abandoned = true // pmlogcheck exits here
			return
		}
	}
}

func (c *checker) stamp(t pcp.Timestamp) string {
	tm := t.Time().In(c.opt.Loc)
	hms := fmt.Sprintf("%02d:%02d:%02d.%03d", tm.Hour(), tm.Minute(), tm.Second(), t.Nsec/1000000)
	if c.dayflag {
		return tm.Format("Mon Jan _2 ") + hms + fmt.Sprintf(" %4d", tm.Year())
	}
	return hms
}

// spanSeconds is the whole seconds from start to finish, as the
// seconds of a timeval difference (its microseconds kept positive).
func spanSeconds(start, finish pcp.Timestamp) int64 {
	if finish.Sec == math.MaxInt64 {
		return math.MaxInt64
	}
	sec := finish.Sec - start.Sec
	if finish.Nsec/1000 < start.Nsec/1000 {
		sec--
	}
	return sec
}

// afterFinish says t is past the window's end, compared to the
// microsecond as pmlogcheck compares them.
func afterFinish(t, finish pcp.Timestamp) bool {
	if finish.Sec != t.Sec {
		return finish.Sec < t.Sec
	}
	return finish.Nsec/1000 < t.Nsec/1000
}

// debugRecord is -D appl0's line for each record pass 3 reads: the
// time since the one before and how many values it holds.
func (c *checker) debugRecord(name string, vol int, res *pcp.Result, last pcp.Timestamp) {
	sum, none, bad := 0, 0, 0
	for i := range res.Sets {
		switch n := res.Sets[i].NumVal; {
		case n > 0:
			sum += int(n)
		case n == 0:
			none++
		default:
			bad++
		}
	}
	fmt.Fprintf(c.w, "%s.%d:[%s] delta(stamp)=%.3fsec numpmid=%d sum(numval)=%d", name, vol, c.stamp(res.Timestamp),
		res.Timestamp.Sub(last), len(res.Sets), sum)
	if none > 0 {
		fmt.Fprintf(c.w, " count(numval=0)=%d", none)
	}
	if bad > 0 {
		fmt.Fprintf(c.w, " count(numval<0)=%d", bad)
	}
	fmt.Fprintf(c.w, "\n")
}
