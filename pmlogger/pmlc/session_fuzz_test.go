package pmlc

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmlogger"
)

// fakeSource is a pmcd with three metrics: a.one (no instances), a.two
// and a.three (instances 1 "one" and 2 "two").
type fakeSource struct{}

var fakeNames = map[string]pcp.PMID{"a.one": 1, "a.two": 2, "a.three": 3}

func (fakeSource) LookupName(_ context.Context, name string) (pcp.PMID, error) {
	if id, ok := fakeNames[name]; ok {
		return id, nil
	}
	return 0, pcp.ErrName
}

func (fakeSource) Traverse(_ context.Context, name string) ([]string, error) {
	if name == "a" {
		return []string{"a.one", "a.three", "a.two"}, nil
	}
	if _, ok := fakeNames[name]; ok {
		return []string{name}, nil
	}
	return nil, pcp.ErrName
}

func (fakeSource) LookupDesc(_ context.Context, pmid pcp.PMID) (pcp.Desc, error) {
	d := pcp.Desc{PMID: pmid, Type: pcp.TypeU32, InDom: pcp.InDomNull}
	if pmid != 1 {
		d.InDom = 7
	}
	return d, nil
}

func (fakeSource) GetInDom(context.Context, pcp.InDom) ([]pmapi.Instance, error) {
	return []pmapi.Instance{{Inst: 1, Name: "one"}, {Inst: 2, Name: "two"}}, nil
}

func (fakeSource) Close() error { return nil }

// fakeLogger answers pmlc as a logger does: the acknowledgement, status,
// requests, and LOG_CONTROL with every metric asked about on, mandatory,
// every second.
func fakeLogger(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			ctx := context.Background()
			r, w := pdu.NewReader(c, 5*time.Second), pdu.NewWriter(c)
			if w.WriteMessage(ctx, &pdu.Error{Code: 3}, 4242) != nil {
				return
			}
			for {
				b, err := r.ReadPDU(ctx)
				if err != nil {
					return
				}
				m, err := pdu.Decode(b)
				if err != nil {
					return
				}
				var out pdu.Message
				switch m := m.(type) {
				case *pdu.Creds:
					continue
				case *pdu.LogRequest:
					out = &pdu.Error{Code: 0}
					if m.Request == pdu.LogRequestStatus {
						out = &pdu.LogStatus{LoggerStatus: pdu.LoggerStatus{State: pdu.LogStateInit, PMCDHost: "h", PMCDFQDN: "h:1", LoggerTimezone: "UTC"}}
					}
				case *pdu.LogControl:
					res := pcp.Result{}
					for _, s := range m.Sets {
						vs := pcp.ValueSet{PMID: s.PMID, ValFmt: pcp.ValInSitu}
						insts := []int32{1, 2}
						if s.PMID == 1 {
							insts = []int32{-1}
						}
						for _, in := range insts {
							vs.Values = append(vs.Values, pcp.Value{Inst: in, LVal: lcOn | lcMand | lcInLog | 1000<<4})
						}
						vs.NumVal = int32(len(vs.Values))
						res.Sets = append(res.Sets, vs)
					}
					out = &pdu.Result{Result: res}
				default:
					return
				}
				if w.WriteMessage(ctx, out, 4242) != nil {
					return
				}
			}
		}()
	}
}

func startFake(t testing.TB) string {
	path := filepath.Join(t.TempDir(), "fake.socket")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go fakeLogger(ln)
	return path
}

// runScript runs input through a session connected to the fake logger.
func runScript(t testing.TB, sock, input string) string {
	var out bytes.Buffer
	// a bound on each wait, should a statement reach something that is
	// no logger
	s := &Session{Stdout: &out, Stderr: &out, sleep: func(time.Duration) {}, Dirs: pmlogger.ClientDirs{Timeout: 5 * time.Second},
		OpenPMCD: func(context.Context, string) (Source, error) { return fakeSource{}, nil }}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s.Run(ctx, Options{Host: "local:" + sock, PID: pmlogger.NoPID, Port: pmlogger.NoPort}, strings.NewReader(input))
	return out.String()
}

// TestScripts checks the statements against the fake logger: the
// request built from names and instances, and what is printed.
func TestScripts(t *testing.T) {
	sock := startFake(t)
	for _, c := range []struct{ input, want string }{
		{"query a.one\n", "a.one\n    mand on  na       1 sec \n\n"},
		{"query a.two[two]\n", "a.two\n    mand on  na       1 sec  [2 or \"two\"]\n\n"},
		{"query a.two[3]\n", "Error: metric a.two currently has no instance number 3\n"},
		{"log advisory on 1 sec a.one\n", "Warning: unable to change logging state for:\na.one\n\n"},
		{"log mandatory on 1 sec { a.two a.three }[1]\n", ""},
		{"query a.one[one]\n", "Error: a.one has no instance domain but an instance was specified\n"},
		{"log mandatory on 2500 msec a.one\n", "Warning: unable to change logging state for:\na.one\n\n"},
		{"query a.nosuch\n", "Warning [<stdin>, line 1]\nProblem with lookup for metric \"a.nosuch\" ...\nReason: Unknown metric name\nLogging statement ignored due to error(s)\n"},
	} {
		got := runScript(t, sock, c.input)
		got = strings.TrimPrefix(got, "Connected to pmlogger via local socket at local:"+sock+"\n")
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%q:\n got %q\nwant %q", c.input, got, c.want)
		}
	}
}

// TestPrintState checks the interval column against values PCP's pmlc
// printed for pmlogger's answers.
func TestPrintState(t *testing.T) {
	for _, c := range []struct {
		v    int32
		want string
	}{
		{lcOn | lcMand | lcInLog | lcAvail | 1000<<4, "mand on           1 sec "},
		{lcOn | lcInLog | 1500<<4, "adv  on  na    1.5 sec "},
		{lcOn | 90000<<4, "adv  on  nl    1.5 min "},
		{lcOn | 3600000<<4, "adv  on  nl       1 hour"},
		{lcOn | 250<<4, "adv  on  nl     250 msec"},
		{lcOn, "adv  on  nl         once"},
		{lcMand, "mand off nl             "},
	} {
		var b strings.Builder
		printState(&b, c.v)
		if b.String() != c.want {
			t.Errorf("%#x: %q, want %q", c.v, b.String(), c.want)
		}
	}
}

// FuzzSession runs any input through the lexer, parser and statements
// against the fake logger: no panic, and every run ends.
func FuzzSession(f *testing.F) {
	for _, s := range []string{
		"status\n", "query { a.one a.two[one, \"two\"] 1 }\n", "log mandatory on every 2 hours a\n",
		"log mandatory maybe { a.two[1 2] a.three }\n", "connect 1 @unix:/x*\n", "timezone \"UTC\"\nstatus\n",
		"show loggers @local:\n", "new volume\nsync\nqa 1\n", "!\"x\n{}[]@,#\n", "query {\na.one\n}\nquit\n",
		"log advisory off a.two[one] a.two[two]\n", "disconnect\nquery a\n",
	} {
		f.Add(s)
	}
	sock := startFake(f)
	f.Fuzz(func(t *testing.T, input string) {
		// "connect port N" dials a TCP port of this host, which may be
		// anyone's daemon (the system pmcd's 44321): not from a fuzzer
		if len(input) > 4096 || strings.Contains(input, "port") {
			return
		}
		runScript(t, sock, input)
	})
}

// closeCounting is fakeSource counting its closes.
type closeCounting struct {
	fakeSource
	closed *int
}

func (c closeCounting) Close() error { *c.closed++; return nil }

// TestRunClosesSource: the pmcd context a statement opened is closed
// when Run ends, as the logger's connection is.
func TestRunClosesSource(t *testing.T) {
	sock := startFake(t)
	opened, closed := 0, 0
	var out bytes.Buffer
	s := &Session{Stdout: &out, Stderr: &out, sleep: func(time.Duration) {},
		OpenPMCD: func(context.Context, string) (Source, error) {
			opened++
			return closeCounting{closed: &closed}, nil
		}}
	s.Run(context.Background(), Options{Host: "local:" + sock, PID: pmlogger.NoPID, Port: pmlogger.NoPort}, strings.NewReader("query a.one\n"))
	if opened != 1 || closed != 1 {
		t.Fatalf("opened %d, closed %d:\n%s", opened, closed, out.String())
	}
}
