// Command eventqueue_agent is a small agent built on pmda.EventQueues: it
// serves one log file's lines as event records with the names, PMIDs and
// descriptors PCP's pmdalogger gives a log file configured as NAME, so a
// test can read both with PCP's tools and compare. Each new line of the
// file, read every -s interval, is appended to the file's queue; each
// client's fetch of logger.perfile.NAME.records gets the lines it has not
// yet seen. Its help text is its own.
//
//	eventqueue_agent [-s interval] [-m maxmem] NAME PATH
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

const domain = 106 // pmdalogger's

var paramString = pcp.NewPMID(domain, 0, 2)

// logger is the agent's state; the Agent serialises its requests, and the
// queues are safe for the reading goroutine too.
type logger struct {
	queues  pmda.EventQueues
	q       *pmda.EventQueue
	path    string
	maxmem  int
	client  pmda.Client // the client of the request in hand
	mu      sync.Mutex  // guards size
	size    int64
	partial []byte
	offset  int64
}

func main() {
	interval := flag.Duration("s", 2*time.Second, "how often the log file is read")
	maxmem := flag.Int("m", 2*1024*1024, "memory limit of the queue in bytes")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: eventqueue_agent [-s interval] [-m maxmem] NAME PATH")
		os.Exit(1)
	}
	name, path := flag.Arg(0), flag.Arg(1)
	l := &logger{path: path, maxmem: *maxmem}
	var err error
	if l.q, err = l.queues.NewQueue(name, *maxmem); err != nil {
		fail(err)
	}
	count := pcp.Units{DimCount: 1}
	space := pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceByte}
	desc := func(item uint32, t pcp.Type, sem pcp.Sem, u pcp.Units) pcp.Desc {
		return pcp.Desc{PMID: pcp.NewPMID(domain, 0, item), Type: t, InDom: pcp.InDomNull, Sem: sem, Units: u}
	}
	stat := func(item uint32, s pmda.QueueStat) pcp.Desc {
		d := s.Desc()
		d.PMID = pcp.NewPMID(domain, 0, item)
		return d
	}
	per := "logger.perfile." + name + "."
	metrics := []pmda.Metric{
		{Name: "logger.numclients", Desc: desc(0, pcp.TypeU32, pcp.SemInstant, count), OneLine: "contexts attached to the agent"},
		{Name: "logger.numlogfiles", Desc: desc(1, pcp.TypeU32, pcp.SemDiscrete, count), OneLine: "log files read"},
		{Name: "logger.param_string", Desc: desc(2, pcp.TypeString, pcp.SemInstant, pcp.Units{}), OneLine: "a line of a log file, in event records"},
		{Name: "logger.maxmem", Desc: desc(3, pcp.TypeU64, pcp.SemDiscrete, space), OneLine: "memory limit of each log file's queue"},
		{Name: per + "count", Desc: stat(4, pmda.QueueCounter), OneLine: "lines read from the log file"},
		{Name: per + "bytes", Desc: stat(5, pmda.QueueBytes), OneLine: "bytes of the lines read from the log file"},
		{Name: per + "size", Desc: desc(6, pcp.TypeU64, pcp.SemInstant, space), OneLine: "size of the log file"},
		{Name: per + "path", Desc: desc(7, pcp.TypeString, pcp.SemDiscrete, pcp.Units{}), OneLine: "path of the log file"},
		{Name: per + "numclients", Desc: stat(8, pmda.QueueClients), OneLine: "clients reading the log file's records"},
		{Name: per + "records", Desc: desc(9, pcp.TypeEvent, pcp.SemInstant, pcp.Units{}), OneLine: "the log file's lines as event records"},
		{Name: per + "queuemem", Desc: stat(10, pmda.QueueMemory), OneLine: "bytes of lines held for clients yet to read them"},
	}
	agent, err := pmda.New(pmda.Config{Name: "pmdalogger", Domain: domain, Metrics: metrics, Fetcher: l})
	if err != nil {
		fail(err)
	}
	go func() {
		for range time.Tick(*interval) {
			l.read()
		}
	}()
	if err := agent.Serve(context.Background(), os.Stdin, os.Stdout); err != nil && err != io.EOF {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "eventqueue_agent:", err)
	os.Exit(1)
}

// read appends the file's new complete lines to the queue, each with a
// NUL after it as pmdalogger queues them.
func (l *logger) read() {
	f, err := os.Open(l.path)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		l.mu.Lock()
		l.size = fi.Size()
		l.mu.Unlock()
	}
	if _, err := f.Seek(l.offset, io.SeekStart); err != nil {
		return
	}
	data, err := io.ReadAll(f)
	if err != nil || len(data) == 0 {
		return
	}
	l.offset += int64(len(data))
	data = append(l.partial, data...)
	now := time.Now()
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		line := append(append([]byte(nil), data[:i]...), 0)
		l.q.Append(line, now)
		data = data[i+1:]
	}
	l.partial = append([]byte(nil), data...)
}

// BeginRequest registers every client that talks to the agent, as
// pmdalogger does from each of its callbacks.
func (l *logger) BeginRequest(_ context.Context, c pmda.Client, _ pdu.Type, _ uint32) error {
	l.queues.NewClient(c)
	l.client = c
	return nil
}

// EndContext forgets a client.
func (l *logger) EndContext(c pmda.Client) { l.queues.EndContext(c) }

// decode makes one point record per line, the line without its NUL as
// logger.param_string.
func decode(a *pmda.EventArray, data []byte, t time.Time) (int, error) {
	if err := a.AddRecord(t, pcp.EventFlagPoint); err != nil {
		return 0, err
	}
	line := string(bytes.TrimRight(data, "\x00"))
	if err := a.AddParam(paramString, pcp.TypeString, &pcp.Atom{CP: line}); err != nil {
		return 0, err
	}
	return 1, nil
}

func (l *logger) Fetch(_ context.Context, m *pmda.Metric, _ int32) (pcp.Atom, error) {
	item := m.Desc.PMID.Item()
	if item >= 4 {
		// an unrestricted log file: every client reading it may see it
		l.q.SetAccess(l.client, true)
	}
	switch item {
	case 0:
		return l.queues.ClientsAtom(), nil
	case 1:
		return pcp.Atom{UL: 1}, nil
	case 2:
		return pcp.Atom{}, pmda.ErrNoValue
	case 3:
		return pcp.Atom{ULL: uint64(l.maxmem)}, nil
	case 4:
		return l.q.Stat(pmda.QueueCounter)
	case 5:
		return l.q.Stat(pmda.QueueBytes)
	case 6:
		l.mu.Lock()
		defer l.mu.Unlock()
		return pcp.Atom{ULL: uint64(l.size)}, nil
	case 7:
		return pcp.Atom{CP: l.path}, nil
	case 8:
		return l.q.Stat(pmda.QueueClients)
	case 9:
		return l.q.FetchRecords(l.client, decode)
	case 10:
		return l.q.Stat(pmda.QueueMemory)
	}
	return pcp.Atom{}, pcp.ErrPMID
}
