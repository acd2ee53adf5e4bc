// Package logcheck finds damage in PCP archives as PCP 6.0.3's
// pmlogcheck does, reporting it in pmlogcheck's words: pass 0 walks the
// raw records of every file of the archive (lengths, trailers, labels,
// record types for the version), then the archive is opened as a reader
// would, pass 1 checks the temporal index against the files, pass 2 the
// metric descriptors, and pass 3 reads the data records of the window.
//
// Files are taken in directory order, as pmlogcheck takes them. Pass 3
// reads the records from where the index places the window's start
// (the epoch without -S), with no skipping, as __pmLogRead_ctx does, and
// checks timestamps (records out of time order are seen and reported),
// read errors, unknown metrics, value encodings and counter wraps.
package logcheck

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// Options select pmlogcheck's checks.
type Options struct {
	Verbose      int  // -v
	MetadataOnly bool // -m: no pass 3
	Label        bool // -l: print the label
	Loc          *time.Location
	Prog         string
	// Context, when set, is called once the archive is open, where
	// pmlogcheck calls pmGetContextOptions: it prints what that prints
	// (a timezone note, a damaged end, a bad time window) and gives the
	// window, or false to end the check with status 1. Without it the
	// window is the archive's whole span.
	Context func(a *archive.Archive) (Window, bool)
	// NoWrap (-w) leaves counter wraps unreported.
	NoWrap bool
	// DebugRecords (-D appl0) prints a line for each record pass 3
	// reads, DebugCounters (-D appl2) each counter value it checks.
	DebugRecords, DebugCounters bool
	// Names, when set, names the metrics instead of the archive's own
	// name space, as a name space loaded with -n does in libpcp.
	Names Names
}

// Names gives a metric's names.
type Names interface {
	Names(pmid pcp.PMID) ([]string, error)
}

// Window is the time window of pass 3 and the label's end.
type Window struct {
	// Start is where pass 3 starts reading when FromStart (a -S, -O or
	// -A was given); otherwise it reads from the epoch, to see records
	// stamped before the label. Start and Finish also choose the
	// timestamp form: with a dates when they are over a day apart.
	Start     pcp.Timestamp
	FromStart bool
	// Finish ends pass 3: the first record after it is counted and
	// read no further. Its Sec is math.MaxInt64 when the archive's end
	// is unknown (the label then ends UNKNOWN).
	Finish pcp.Timestamp
	// Loc, when set, is the zone for times (-z, -Z).
	Loc *time.Location
}

// DefaultWindow is the archive's whole span, what pmGetContextOptions
// finds without -S, -T, -O or -A; the end is open when the archive's
// end cannot be found, as the error says.
func DefaultWindow(a *archive.Archive) (Window, error) {
	w := Window{Start: a.Label.Start}
	end, err := a.End()
	if err != nil {
		w.Finish = pcp.Timestamp{Sec: math.MaxInt64}
		return w, err
	}
	w.Finish = end
	return w, nil
}

// Status values of a pass, as pmlogcheck's.
const (
	statusOK      = 0
	statusWarning = -1
	statusFatal   = -2
)

const (
	stateOK = iota + 1
	stateMissing
	stateBad
)

type checker struct {
	opt     Options
	w       io.Writer
	golden  uint32 // magic of the first good label
	goldenF string
	start   pcp.Timestamp
	index   int
	meta    int
	log     int
	results int
	marks   int
	dayflag bool
	win     Window
	ns      Names
	// abandoned: a value could not be extracted, where pmlogcheck
	// exits at once with status 1
	abandoned bool
	instNames map[pcp.InDom]map[int32]string
}

// Check checks the archive name (a base name or one of its files),
// writing pmlogcheck's messages to w; it returns pmlogcheck's exit
// status.
func Check(name string, w io.Writer, opt Options) int {
	if opt.Prog == "" {
		opt.Prog = "pmlogcheck"
	}
	if opt.Loc == nil {
		opt.Loc = time.Local
	}
	c := &checker{opt: opt, w: w, index: stateMissing, meta: stateMissing, log: stateMissing}
	dir := filepath.Dir(name)
	base := filepath.Base(name)
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		if d := base[i+1:]; d != "" && d[0] >= '0' && d[0] <= '9' {
			if _, err := os.Stat(name); err == nil {
				if b, _, ok := archive.SplitName(base); ok {
					base = b
				}
			}
		} else if b, _, ok := archive.SplitName(base); ok {
			base = b
		}
	}
	if opt.Verbose > 0 {
		fmt.Fprintf(w, "Scanning for components of archive \"%s\"\n", name)
	}
	files := c.components(dir, base)
	if len(files) == 0 {
		fmt.Fprintf(w, "%s: no PCP archive files match \"%s\"\n", opt.Prog, name)
		return 1
	}
	sts := statusOK
	for _, f := range files {
		path := f
		if dir != "." {
			path = dir + "/" + f
		}
		if c.pass0(path) == statusFatal {
			sts = statusFatal
		}
	}
	if c.meta == stateMissing {
		fmt.Fprintf(w, "%s/%s.meta: missing metadata file\n", dir, base)
		sts = statusFatal
	}
	if c.log == stateMissing {
		fmt.Fprintf(w, "%s/%s.0 (or similar): missing log file \n", dir, base)
		sts = statusFatal
	}
	if sts == statusFatal {
		if opt.Verbose > 0 {
			fmt.Fprintf(w, "Due to earlier errors, cannot continue ... bye\n")
		}
		return 1
	}
	a, err := archive.Open(name, archive.Options{})
	if err != nil {
		fmt.Fprintf(w, "%s: cannot open archive \"%s\": %s\n", opt.Prog, name, pcp.TextOf(err))
		fmt.Fprintf(w, "Checking abandoned.\n")
		return 1
	}
	var win Window
	if opt.Context != nil {
		var ok bool
		if win, ok = opt.Context(a); !ok {
			return 1
		}
		if win.Loc != nil {
			c.opt.Loc = win.Loc
		}
	} else {
		win, _ = DefaultWindow(a)
	}
	c.win = win
	c.ns = opt.Names
	if c.ns == nil {
		c.ns = a.Meta
	}
	archName := base
	if dir != "." {
		archName = dir + "/" + base
	}
	if opt.Label {
		c.printLabel(a)
	}
	c.pass1(a, archName)
	if c.index == stateBad {
		a.Index = nil
	}
	c.pass2(a, archName)
	if !opt.MetadataOnly {
		c.pass3(a, archName)
		if c.abandoned {
			return 1
		}
	}
	if opt.Verbose > 0 {
		if c.results > 0 {
			fmt.Fprintf(w, "Processed %d pmResult records\n", c.results)
		}
		if c.marks > 0 {
			fmt.Fprintf(w, "Processed %d <mark> records\n", c.marks)
		}
	}
	return 0
}

// components lists the archive's files in dir, as pmlogcheck's filter
// accepts them, saying why of each entry with -vvv.
func (c *checker) components(dir, base string) []string {
	// scandir without a sort: directory order
	entries, err := dirNames(dir)
	if err != nil {
		return nil
	}
	debug := c.opt.Verbose > 2
	say := func(format string, args ...any) {
		if debug {
			fmt.Fprintf(c.w, format, args...)
		}
	}
	var out []string
	for i, n := range entries {
		if i == 0 {
			say("archbasename=\"%s\" len=%d\n", base, len(base))
		}
		say("d_name=\"%s\"? ", n)
		if len(n) <= len(base) || n[len(base)] != '.' {
			say("no (not expected extension after basename)\n")
			continue
		}
		b, kind, ok := archive.SplitName(n)
		switch {
		case !ok:
			say("no (not expected extension after basename)\n")
		case b != base:
			say("no (first %d chars not matched)\n", len(base))
		case kind == "meta" || kind == "index":
			say("yes\n")
			out = append(out, n)
		case kind == "" || kind[0] < '0' || kind[0] > '9':
			say("no (non-digit after basename)\n")
		default:
			say("yes\n")
			out = append(out, n)
		}
	}
	return out
}

func (c *checker) printLabel(a *archive.Archive) {
	l := a.Label
	fmt.Fprintf(c.w, "Log Label (Log Format Version %d)\n", l.Version())
	fmt.Fprintf(c.w, "Performance metrics from host %s\n", l.Hostname)
	st := l.Start.Time().In(c.opt.Loc)
	fmt.Fprintf(c.w, "  commencing %s %s %4d\n", st.Format("Mon Jan _2"), st.Format("15:04:05.000"), st.Year())
	// the end shown is the window's, as pmlogcheck prints its -T
	if c.win.Finish.Sec == math.MaxInt64 {
		fmt.Fprintf(c.w, "  ending     UNKNOWN\n")
		return
	}
	et := c.win.Finish.Time().In(c.opt.Loc)
	fmt.Fprintf(c.w, "  ending     %s %s %4d\n", et.Format("Mon Jan _2"), et.Format("15:04:05.000"), et.Year())
}
