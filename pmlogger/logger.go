package pmlogger

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// Options control a Logger; the zero value of each field is pmlogger's
// default.
type Options struct {
	// Archive is the base name of the archive to create.
	Archive string
	// Version is the archive version, archive.Version3 unless 2.
	Version int
	// ConfigFile names the configuration in messages.
	ConfigFile string
	// Samples stops logging after that many fetches (-s N).
	Samples int
	// Bytes stops logging once the data volumes hold that many bytes
	// (-s size).
	Bytes int64
	// End stops logging at that time (-T).
	End time.Time
	// VolSamples, VolBytes and VolTime switch to a new data volume after
	// that many fetches, bytes or that long (-v).
	VolSamples int
	VolBytes   int64
	VolTime    time.Duration
	// Hostname, when set or when HostnameSet (pmlogger -H ""), is the
	// host the label names instead of pmcd's answer.
	Hostname    string
	HostnameSet bool
	// Port is the control port recorded as pmcd.pmlogger.port.
	Port int
	// Log receives pmlogger's messages; nil discards them.
	Log io.Writer
	// Report, when set, receives the -r report of each task's bytes.
	Report io.Writer
	// Access is the configuration's [access] section for pmlc clients
	// (BuildAccess); nil allows every client everything.
	Access *access.Control
	// PMLCVersion is the control protocol version announced to pmlc
	// (-I); zero means the latest, 3.
	PMLCVersion int
	// Plan, when set, is the configuration already resolved against
	// the source (ResolvePlan); New then ignores its cfg.
	Plan *Plan
	// WatchPID, when set, ends logging at the first sample after that
	// process has gone (-p).
	WatchPID int
	// RequestTimeout bounds reading a pmlc client's PDU once begun, as
	// PCP's pmlogger bounds it by $PMCD_REQUEST_TIMEOUT (read by the
	// caller): zero means pdu.DefaultTimeout, a negative value no limit.
	RequestTimeout time.Duration
	// TZ is $TZ's value as the caller read it, for the logger's own time
	// zone that pmlc is told (pmapi.LocalZone).
	TZ string
}

// Logger records metrics from a source into an archive as PCP's
// pmlogger does: the prologue record (pmcd.pmlogger.* with pmcd.pid and
// pmcd.seqnum), one record per fetch of each task with the metadata each
// first needs (descriptor with names, label sets, help text, instance
// domains when they change, full or as version 3 deltas), temporal index
// entries at the start of each volume, after metadata changes and every
// 100000 bytes, volume switching, and the epilogue and final index entry
// when it stops. A Logger is driven by one goroutine (Run).
type Logger struct {
	src   pmapi.Source
	w     *archive.Writer
	opt   Options
	log   io.Writer
	tasks []*task

	descs   map[pcp.PMID]bool
	indoms  map[pcp.InDom]*archive.InDom
	labels  map[[2]uint32]bool
	texts   map[[2]uint32]bool
	archive string // absolute base name, for pmcd.pmlogger.archive

	lastStamp  pcp.Timestamp
	lastLogOff int64
	flushSize  int64
	volSamples int
	volBytes   int64
	samples    int
	res        pcp.Result
	closed     bool
	stopMsg    string
	volReq     chan struct{}
	ctl        chan func()           // control requests, run by Run's goroutine
	connSpec   string                // how pmcd is reached, for LOG_STATUS
	hist       map[pcp.PMID]*history // what has been logged, for pmlc's query
	busy       atomic.Bool           // a pmlc client is being served
	volTicker  *time.Ticker          // -v's time switches, restarted by the others
}

// RequestNewVolume asks Run to switch data volumes between samples, as
// SIGHUP does to pmlogger. It is safe to call from any goroutine.
func (l *Logger) RequestNewVolume() {
	select {
	case l.volReq <- struct{}{}:
	default:
	}
}

// New resolves the configuration against src, creates the archive and
// writes its prologue. The caller runs the Logger with Run and ends it
// with Close.
func New(ctx context.Context, src pmapi.Source, cfg *Config, opt Options) (*Logger, error) {
	l := &Logger{src: src, opt: opt, log: opt.Log,
		descs: map[pcp.PMID]bool{}, indoms: map[pcp.InDom]*archive.InDom{},
		labels: map[[2]uint32]bool{}, texts: map[[2]uint32]bool{}, flushSize: 100000,
		volReq: make(chan struct{}, 1), ctl: make(chan func())}
	if l.log == nil {
		l.log = io.Discard
	}
	if opt.Plan != nil {
		l.tasks = opt.Plan.tasks
	} else {
		tasks, err := resolve(ctx, src, cfg, opt.ConfigFile, l.log)
		if err != nil {
			return nil, err
		}
		l.tasks = tasks
	}
	host := opt.Hostname
	if host == "" && !opt.HostnameSet {
		host, _ = src.HostName(ctx)
	}
	epoch, tz := l.remoteZone(ctx)
	l.archive, _ = filepath.Abs(opt.Archive)
	var err error
	l.w, err = archive.Create(opt.Archive, archive.WriterOptions{
		Version:  opt.Version,
		Hostname: host,
		Timezone: tz,
		Zoneinfo: localZoneinfo(),
	})
	if err != nil {
		return nil, err
	}
	if err := l.prologue(ctx, epoch); err != nil {
		l.w.Close()
		return nil, fmt.Errorf("pmlogger: writing the prologue: %w", err)
	}
	return l, nil
}

// Writer is the archive being written.
func (l *Logger) Writer() *archive.Writer { return l.w }

// Tasks reports the number of fetch groups the configuration made.
func (l *Logger) Tasks() int { return len(l.tasks) }

// remoteZone asks pmcd for its time zone and the time, which becomes the
// archive's start, as pmlogger prefers pmcd's clock to its own. Without
// pmcd's answer (a local context has no pmcd agent) the label keeps the
// local zone, as libpcp's new labels have it.
func (l *Logger) remoteZone(ctx context.Context) (pcp.Timestamp, string) {
	now, local := pcp.TimestampOf(time.Now()), l.localZone()
	pmids, err := l.src.LookupNames(ctx, []string{"pmcd.timezone"})
	if err != nil || len(pmids) != 1 {
		return now, local
	}
	var r pcp.Result
	if _, err := l.src.Fetch(ctx, pmids, &r); err != nil || len(r.Sets) != 1 || r.Sets[0].NumVal < 1 {
		return now, local
	}
	a, err := pcp.ExtractValue(r.Sets[0].ValFmt, &r.Sets[0].Values[0], pcp.TypeString, pcp.TypeString)
	if err != nil {
		return now, local
	}
	return r.Timestamp, a.CP
}

// Run logs until ctx is cancelled, a limit of Options is reached or every
// task was a "log once"; it then returns why it stopped (nil for
// cancellation or a limit). Close finishes the archive afterwards.
func (l *Logger) Run(ctx context.Context) error {
	start := time.Now()
	for _, t := range l.tasks {
		t.next = start
	}
	var volTimer <-chan time.Time
	if l.opt.VolTime > 0 {
		tk := time.NewTicker(l.opt.VolTime)
		defer tk.Stop()
		volTimer = tk.C
		l.volTicker = tk
	}
	var endTimer <-chan time.Time
	if !l.opt.End.IsZero() {
		tm := time.NewTimer(time.Until(l.opt.End))
		defer tm.Stop()
		endTimer = tm.C
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		var due *task
		for _, t := range l.tasks {
			if !t.done && (due == nil || t.next.Before(due.next)) {
				due = t
			}
		}
		if due == nil {
			// Nothing left but "once" tasks already done: pmlogger
			// carries on (it lingers for its control port); so do we,
			// until told to stop.
			select {
			case <-ctx.Done():
				return nil
			case <-endTimer:
				l.stopMsg = "End of run time"
				return nil
			case <-volTimer:
				l.newVolume("sample time")
				continue
			case <-l.volReq:
				l.newVolume("SIGHUP")
				continue
			case f := <-l.ctl:
				f()
				continue
			}
		}
		timer.Reset(max(time.Until(due.next), 0))
		select {
		case <-ctx.Done():
			return nil
		case <-endTimer:
			l.stopMsg = "End of run time"
			return nil
		case <-volTimer:
			timer.Stop()
			l.newVolume("sample time")
			continue
		case <-l.volReq:
			timer.Stop()
			l.newVolume("SIGHUP")
			continue
		case f := <-l.ctl:
			// A control request (pmlc) runs between samples.
			timer.Stop()
			f()
			continue
		case <-timer.C:
		}
		if due.once {
			due.done = true
		} else {
			due.next = due.next.Add(due.interval)
			if now := time.Now(); due.next.Before(now) {
				// Fell behind: skip the missed samples rather than
				// firing them in a burst.
				due.next = now.Add(due.interval - now.Sub(due.next)%due.interval)
			}
		}
		stop, err := l.work(ctx, due)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if stop {
			return nil
		}
		if l.opt.WatchPID > 0 && !ownfile.Alive(l.opt.WatchPID) {
			l.stopMsg = "process from -p has vanished"
			return nil
		}
	}
}

// newVolume switches data volumes and reports it as pmlogger does.
func (l *Logger) newVolume(why string) error {
	l.volSamples = 0
	data, _ := l.w.Offsets()
	l.volBytes += data
	vol, err := l.w.NewVolume()
	if err != nil {
		fmt.Fprintf(l.log, "pmlogger: new volume: %v\n", err)
		return err
	}
	fmt.Fprintf(l.log, "New log volume %d, via %s at %s", vol, why, time.Now().Format("Mon Jan _2 15:04:05 2006\n"))
	if l.volTicker != nil && why != "sample time" {
		// A switch asked for (SIGHUP, pmlc) or forced by size starts
		// -v's time over, as PCP reschedules it.
		l.volTicker.Reset(l.opt.VolTime)
	}
	return nil
}

// Close writes the epilogue and the final temporal index entry and closes
// the archive: what pmlogger does on SIGINT or SIGTERM.
func (l *Logger) Close(ctx context.Context) error {
	if l.closed {
		return nil
	}
	l.closed = true
	err := l.epilogue(ctx)
	if err != nil {
		fmt.Fprintf(l.log, "Warning: problem writing archive epilogue: %v\n", err)
	}
	if l.lastStamp != (pcp.Timestamp{}) {
		_, meta := l.w.Offsets()
		err = errors.Join(err, l.w.PutIndex(l.lastStamp, l.lastLogOff, meta))
	}
	return errors.Join(err, l.w.Close())
}

// StopMessage is why Run stopped on its own ("Sample limit reached",
// ...), empty when it was cancelled.
func (l *Logger) StopMessage() string { return l.stopMsg }

// localZoneinfo is the zoneinfo name of this host as libpcp records it
// in a version 3 label: ":" and the path below zoneinfo/ of the
// /etc/localtime link.
func localZoneinfo() string {
	target, err := os.Readlink("/etc/localtime")
	if err != nil {
		return ""
	}
	const dir = "/zoneinfo/"
	for i := 0; i+len(dir) <= len(target); i++ {
		if target[i:i+len(dir)] == dir {
			return ":" + target[i+len(dir):]
		}
	}
	return ":" + target
}
