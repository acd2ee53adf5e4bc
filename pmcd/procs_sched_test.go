package pmcd

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestParseSchedstat(t *testing.T) {
	for _, c := range []struct {
		in        string
		run, wait time.Duration
		ok        bool
	}{
		{"123456 7890 12\n", 123456, 7890, true},
		{"0 0 0\n", 0, 0, true},
		{"5 6", 5, 6, true},
		{"", 0, 0, false},
		{"5", 0, 0, false},
		{"-1 2 3", 0, 0, false},
		{"1 -2 3", 0, 0, false},
		{"x 2 3", 0, 0, false},
		{"99999999999999999999 1 1", 0, 0, false},
	} {
		run, wait, ok := parseSchedstat([]byte(c.in))
		if run != c.run || wait != c.wait || ok != c.ok {
			t.Errorf("parseSchedstat(%q) = %v, %v, %v; want %v, %v, %v", c.in, run, wait, ok, c.run, c.wait, c.ok)
		}
	}
}

func FuzzParseSchedstat(f *testing.F) {
	for _, s := range []string{"123456 7890 12\n", "0 0 0", "1", "-1 2 3", "9223372036854775807 9223372036854775807 1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		run, wait, ok := parseSchedstat(b)
		if ok && (run < 0 || wait < 0) {
			t.Fatalf("parseSchedstat(%q) = %v, %v", b, run, wait)
		}
		if !ok && (run != 0 || wait != 0) {
			t.Fatalf("parseSchedstat(%q) failed with %v, %v", b, run, wait)
		}
	})
}

// TestThreadsSched sums a task directory laid out as /proc/self/task,
// skipping a thread without schedstat (one that ended) and one whose
// line is damaged.
func TestThreadsSched(t *testing.T) {
	dir := t.TempDir()
	for tid, text := range map[string]string{"100": "1000 200 5\n", "101": "3000 50 9\n", "102": "", "103": "garbage\n"} {
		if err := os.MkdirAll(filepath.Join(dir, tid), 0o755); err != nil {
			t.Fatal(err)
		}
		if text != "" {
			if err := os.WriteFile(filepath.Join(dir, tid, "schedstat"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	run, wait, ok := threadsSched(dir)
	if run != 4000 || wait != 250 || !ok {
		t.Fatalf("threadsSched = %v, %v, %v; want 4µs, 250ns, true", run, wait, ok)
	}
	if _, _, ok := threadsSched(filepath.Join(dir, "none")); ok {
		t.Fatal("threadsSched of a missing directory says ok")
	}
	// sched_info off: the kernel has a line for every thread, all
	// noughts.
	zeros := t.TempDir()
	for _, tid := range []string{"200", "201", "202"} {
		if err := os.MkdirAll(filepath.Join(zeros, tid), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(zeros, tid, "schedstat"), []byte("0 0 0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if run, wait, ok := threadsSched(zeros); ok {
		t.Fatalf("threadsSched of threads all \"0 0 0\" = %v, %v, true; want not ok", run, wait)
	}
}

// TestThreadsSchedHere reads this process's threads: where the kernel
// keeps the counts, a process that has run has run for some time.
func TestThreadsSchedHere(t *testing.T) {
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("no /proc/self/task here")
	}
	run, wait, ok := ThreadsSched()
	if !ok {
		if _, err := os.Stat("/proc/self/schedstat"); err == nil {
			t.Fatal("ThreadsSched not ok, yet /proc/self/schedstat is there")
		}
		t.Skip("the kernel keeps no schedstat")
	}
	if run <= 0 || wait < 0 {
		t.Fatalf("ThreadsSched = %v, %v", run, wait)
	}
}

func TestRoomOf(t *testing.T) {
	const w = 100 * time.Millisecond
	const unknown = -1
	for _, c := range []struct {
		name            string
		run, wait, took time.Duration
		procs           int
		idle            time.Duration
		want            procsRoom
	}{
		{"waits as long as it runs", 30 * time.Millisecond, 30 * time.Millisecond, w, 1, unknown, roomWanted},
		{"waits twice as long", 20 * time.Millisecond, 40 * time.Millisecond, w, 1, unknown, roomWanted},
		{"runs nearly all the time", 85 * time.Millisecond, 5 * time.Millisecond, w, 1, unknown, roomWanted},
		{"two Ps nearly all the time", 170 * time.Millisecond, 0, w, 2, unknown, roomWanted},
		{"runs half the time, waits little", 50 * time.Millisecond, 10 * time.Millisecond, w, 1, unknown, roomNotWanted},
		{"two Ps, half the time each", 100 * time.Millisecond, 20 * time.Millisecond, w, 2, unknown, roomNotWanted},
		{"too little of either to tell", time.Millisecond, 2 * time.Millisecond, w, 1, unknown, roomNotWanted},
		{"no time went by", time.Millisecond, time.Millisecond, 0, 1, unknown, roomUnknown},
		{"waits as long as it runs, a CPU idle", 30 * time.Millisecond, 30 * time.Millisecond, w, 1, w, roomWanted},
		{"runs nearly all the time, half a CPU idle", 85 * time.Millisecond, 5 * time.Millisecond, w, 1, w / 2, roomWanted},
		{"waits as long as it runs, the CPUs full", 30 * time.Millisecond, 30 * time.Millisecond, w, 1, 0, roomNotWanted},
		{"runs nearly all the time, a tenth of a CPU idle", 85 * time.Millisecond, 5 * time.Millisecond, w, 1, w / 10, roomNotWanted},
		{"runs half the time, CPUs idle", 50 * time.Millisecond, 10 * time.Millisecond, w, 1, 2 * w, roomNotWanted},
	} {
		if got := roomOf(c.run, c.wait, c.took, c.procs, c.idle); got != c.want {
			t.Errorf("%s: roomOf(%v, %v, %v, %d, %v) = %d, want %d", c.name, c.run, c.wait, c.took, c.procs, c.idle, got, c.want)
		}
	}
}

func TestParseStatIdle(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"cpu  4705 356 584 3699 23 23 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n", 3722 * 10 * time.Millisecond, true},
		{"cpu 1 2 3 4 5\n", 9 * 10 * time.Millisecond, true},
		{"cpu 1 2 3 4\n", 0, false},
		{"cpu0 1 2 3 4 5 6\n", 0, false},
		{"cpu 1 2 3 x 5 6\n", 0, false},
		{"cpu 1 2 3 -4 5 6\n", 0, false},
		{"", 0, false},
		{"cpu 0 0 0 9223372036854775807 1 0\n", 0, false},
		{"cpu 0 0 0 922337203685 0 0\n", 922337203685 * 10 * time.Millisecond, true},
		{"cpu 0 0 0 922337203685 1 0\n", 0, false},
	} {
		got, ok := parseStatIdle([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("parseStatIdle(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func FuzzParseStatIdle(f *testing.F) {
	for _, s := range []string{"cpu  4705 356 584 3699 23 23 0 0 0 0\n", "cpu 1 2 3 4 5", "cpu", "",
		"cpu 0 0 0 9223372036854775807 1 0", "cpu 0 0 0 922337203685 0 0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		idle, ok := parseStatIdle(b)
		if ok && idle < 0 || !ok && idle != 0 {
			t.Fatalf("parseStatIdle(%q) = %v, %v", b, idle, ok)
		}
	})
}

func TestMachineIdle(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc/stat")
	}
	// Two readings, in no order: iowait, and so the sum, may go back
	// (MachineIdle).
	for range 2 {
		if idle, ok := MachineIdle(); !ok || idle < 0 {
			t.Fatalf("MachineIdle = %v, %v with /proc/stat there", idle, ok)
		}
	}
}

func TestIdleWindow(t *testing.T) {
	for _, c := range []struct {
		then, now, want time.Duration
		ok              bool
	}{
		{time.Second, 3 * time.Second, 2 * time.Second, true},
		{time.Second, time.Second, 0, true},
		// iowait went back by more than idle grew.
		{3 * time.Second, 3*time.Second - 10*time.Millisecond, 0, false},
	} {
		if got, ok := IdleWindow(c.then, c.now); got != c.want || ok != c.ok {
			t.Errorf("IdleWindow(%v, %v) = %v, %v; want %v, %v", c.then, c.now, got, ok, c.want, c.ok)
		}
	}
}

// fakeSched stands for ThreadsSched and time.Now in a procScaler: the
// test advances both by a window's run and wait.
type fakeSched struct {
	mu        sync.Mutex
	run, wait time.Duration
	at        time.Time
	reads     int
}

func (f *fakeSched) read() (time.Duration, time.Duration, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	return f.run, f.wait, true
}

func (f *fakeSched) readCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads
}

func (f *fakeSched) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.at
}

// window is a window of procsWindow in which the threads ran and waited
// as given.
func (f *fakeSched) window(run, wait time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.run += run
	f.wait += wait
	f.at = f.at.Add(procsWindow)
}

// TestProcsFollowStarvedThreads serves busy clients with MaxProcs 2 and
// the threads' counts read from a fake: enough busy clients for two Ps
// do not raise them while the one P's thread runs half of each window
// and waits little; once it waits as long as it runs, they do; and after
// procsProbe windows the scaler goes back to one P for a window, which
// stays if the thread no longer waits. Raised, the clients make twice
// the requests, as clients that wait for their answers do when answered
// faster (gained).
func TestProcsFollowStarvedThreads(t *testing.T) {
	t.Parallel()
	fake := &fakeProcs{cur: 1}
	sched := &fakeSched{at: time.Unix(1e9, 0)}
	p := &procScaler{window: time.Hour, gomaxprocs: fake.gomaxprocs, now: sched.now}
	_, conns, end := serveProcsSched(t, p, 2, 2*procsClientsPerP, sched.read)
	defer end()
	rounds := 1
	step := func(run, wait time.Duration, want []int, what string) {
		t.Helper()
		for range rounds {
			busy(t, conns)
		}
		sched.window(run, wait)
		p.tick()
		if got := fake.got(); !slices.Equal(got, want) {
			t.Fatalf("%s: Ps set %v, want %v", what, got, want)
		}
	}
	step(50*time.Millisecond, 5*time.Millisecond, nil, "first busy window")
	for range 3 {
		step(50*time.Millisecond, 5*time.Millisecond, nil, "thread running half the time, waiting little")
	}
	step(30*time.Millisecond, 60*time.Millisecond, []int{2}, "thread waiting twice as long as it runs")
	reads := sched.readCount()
	rounds = 2
	for range procsProbe - 1 {
		step(60*time.Millisecond, 120*time.Millisecond, []int{2}, "raised")
	}
	if n := sched.readCount() - reads; n != 0 {
		t.Fatalf("counts read %d times in %d windows raised before the probe's, want 0", n, procsProbe-1)
	}
	step(60*time.Millisecond, 120*time.Millisecond, []int{2, 1}, "the probe")
	if n := sched.readCount() - reads; n != 1 {
		t.Fatalf("counts read %d times by the window before the probe, want 1", n)
	}
	step(50*time.Millisecond, 5*time.Millisecond, []int{2, 1}, "the probe's window, the thread no longer short of CPU")
	step(50*time.Millisecond, 5*time.Millisecond, []int{2, 1}, "after the probe")
}

// TestProcsUnmeasuredByZeros: a kernel with sched_info off counts "0 0 0"
// for every thread; a ProcsSched that reads that (ok, but nothing ran)
// leaves the load alone to decide, as with no counts: two Ps' worth of
// busy clients raise the Ps at the first window, and no probe comes.
func TestProcsUnmeasuredByZeros(t *testing.T) {
	t.Parallel()
	fake := &fakeProcs{cur: 1}
	p := &procScaler{window: time.Hour, gomaxprocs: fake.gomaxprocs}
	zeros := func() (time.Duration, time.Duration, bool) { return 0, 0, true }
	_, conns, end := serveProcsSched(t, p, 2, 2*procsClientsPerP, zeros)
	defer end()
	for i := range procsProbe + 2 {
		busy(t, conns)
		p.tick()
		if got := fake.got(); !slices.Equal(got, []int{2}) {
			t.Fatalf("busy window %d with counts all 0: Ps set %v, want [2] (the load alone)", i, got)
		}
	}
}

// TestProcsSampleFirstJoined: with two Servers that read counts, sample
// reads the first to join's every time, whatever the order of a map.
func TestProcsSampleFirstJoined(t *testing.T) {
	p := &procScaler{gomaxprocs: (&fakeProcs{cur: 1}).gomaxprocs}
	var a, b int
	first := &Server{ProcsSched: func() (time.Duration, time.Duration, bool) { a++; return time.Second, 0, true }}
	second := &Server{ProcsSched: func() (time.Duration, time.Duration, bool) { b++; return time.Second, 0, true }}
	p.join(first)
	p.join(second)
	p.join(first) // again: still first
	for range 32 {
		p.mu.Lock()
		servers := slices.Clone(p.servers)
		p.mu.Unlock()
		p.sample(servers)
	}
	if a != 32 || b != 0 {
		t.Fatalf("first joined read %d times, second %d; want 32 and 0", a, b)
	}
	p.leave(first)
	p.mu.Lock()
	servers := slices.Clone(p.servers)
	p.mu.Unlock()
	p.sample(servers)
	if b != 1 {
		t.Fatalf("once the first left, the second read %d times, want 1", b)
	}
}

func TestNextProbe(t *testing.T) {
	for _, c := range []struct {
		every  int
		wanted bool
		want   int
	}{
		{procsProbe, true, 2 * procsProbe},
		{2 * procsProbe, true, 4 * procsProbe},
		{procsProbeMax / 2, true, procsProbeMax},
		{procsProbeMax - 1, true, procsProbeMax},
		{procsProbeMax, true, procsProbeMax},
		{procsProbe, false, procsProbe},
		{procsProbeMax, false, procsProbe},
	} {
		if got := nextProbe(c.every, c.wanted); got != c.want {
			t.Errorf("nextProbe(%d, %v) = %d, want %d", c.every, c.wanted, got, c.want)
		}
	}
}

// decidingScaler is a scaler on one fake P with one Server joined (left at
// the test's end), for tests that feed windows to decide.
func decidingScaler(t *testing.T) (*fakeProcs, *procScaler, *Server) {
	fake := &fakeProcs{cur: 1}
	srv := &Server{}
	p := &procScaler{window: time.Hour, gomaxprocs: fake.gomaxprocs}
	p.join(srv)
	t.Cleanup(func() { p.leave(srv) })
	return fake, p, srv
}

// TestProcsProbesBackOff feeds busy windows to decide: while every probe
// finds the base short of CPU, the windows raised between probes double
// from procsProbe up to procsProbeMax; a probe that finds the base enough
// stays on it, and the next raise probes after procsProbe again.
func TestProcsProbesBackOff(t *testing.T) {
	fake, p, srv := decidingScaler(t)
	var probes []int // the windows that went back to the base
	window := func(i int, room procsRoom) {
		p.arm()
		before := len(fake.got())
		p.decide(32, 0, true, 2, room, []*Server{srv})
		if set := fake.got(); len(set) > before && set[len(set)-1] == 1 {
			probes = append(probes, i)
		}
	}
	i := 0
	for ; len(probes) < 7; i++ {
		window(i, roomWanted)
	}
	var gaps []int
	for k := 1; k < len(probes); k++ {
		gaps = append(gaps, probes[k]-probes[k-1]-1) // windows raised in between
	}
	want := []int{2 * procsProbe, 4 * procsProbe, 8 * procsProbe, 16 * procsProbe, procsProbeMax, procsProbeMax}
	if !slices.Equal(gaps, want) {
		t.Fatalf("windows raised between probes %v, want %v", gaps, want)
	}
	// The window after the last probe, on the base, finds it enough.
	window(i, roomNotWanted)
	i++
	if p.last != 0 {
		t.Fatalf("a probe that found the base enough left the Ps at %d", p.last)
	}
	window(i, roomWanted) // raised again
	i++
	from := i
	for n := len(probes); len(probes) == n; i++ {
		window(i, roomWanted)
	}
	if got := probes[len(probes)-1] - from; got != procsProbe-1 {
		t.Fatalf("after a probe that dropped back, the next came %d windows after the raise, want %d", got+1, procsProbe)
	}
}

// TestProcsSampleIdle: sample reads the machine's idle time with the
// threads' counts, from the same Server; a window whose one P waited as
// long as it ran wants more Ps only while half a CPU or more was idle,
// and says so from the counts alone where the idle time cannot be read.
// A window with the CPUs full is not wanted without reading the
// threads' counts, once they are known to be kept, so the next window's
// have nothing to compare with.
func TestProcsSampleIdle(t *testing.T) {
	sched := &fakeSched{at: time.Unix(1e9, 0)}
	var idle time.Duration
	idleOK := true
	srv := &Server{ProcsSched: sched.read, ProcsIdle: func() (time.Duration, bool) { return idle, idleOK }}
	p := &procScaler{gomaxprocs: (&fakeProcs{cur: 1}).gomaxprocs, now: sched.now}
	servers := []*Server{srv}
	for _, c := range []struct {
		name    string
		idle    time.Duration
		ok      bool
		want    procsRoom
		threads bool // the threads' counts are read
	}{
		{"first window", 0, true, roomUnknown, true},
		{"the CPUs full", procsWindow / 20, true, roomNotWanted, false},
		{"a CPU idle: nothing to compare with", procsWindow, true, roomUnknown, true},
		{"a CPU idle", procsWindow, true, roomWanted, true},
		{"just under half a CPU idle", procsWindow/2 - time.Millisecond, true, roomNotWanted, false},
		{"half a CPU idle: nothing to compare with", procsWindow / 2, true, roomUnknown, true},
		{"half a CPU idle", procsWindow / 2, true, roomWanted, true},
		{"idle time unreadable", 0, false, roomWanted, true},
		{"readable again: nothing to compare with", 0, true, roomWanted, true},
		{"the CPUs full again", 0, true, roomNotWanted, false},
		// iowait moved to idle between readings and the sum went
		// back: the window's idle time is unknown, the counts decide.
		{"a CPU idle again: nothing to compare with", procsWindow, true, roomUnknown, true},
		{"the idle time went back", -10 * time.Millisecond, true, roomWanted, true},
		{"growing again", procsWindow, true, roomWanted, true},
	} {
		sched.window(30*time.Millisecond, 30*time.Millisecond)
		idle += c.idle
		idleOK = c.ok
		reads := sched.readCount()
		if got := p.sample(servers); got != c.want {
			t.Errorf("%s: sample = %d, want %d", c.name, got, c.want)
		}
		if read := sched.readCount() > reads; read != c.threads {
			t.Errorf("%s: threads' counts read %v, want %v", c.name, read, c.threads)
		}
	}
}

// TestProcsLimitOnlyToRaise: at rest, while the CPUs are full, a busy
// window reads neither the threads' counts nor the limit (files read on
// the P the clients wait for), and the Ps stay; once a CPU is idle and
// the thread waits as long as it runs, the limit is read and the Ps
// raised.
func TestProcsLimitOnlyToRaise(t *testing.T) {
	t.Parallel()
	fake := &fakeProcs{cur: 1}
	sched := &fakeSched{at: time.Unix(1e9, 0)}
	p := &procScaler{window: time.Hour, gomaxprocs: fake.gomaxprocs, now: sched.now}
	var mu sync.Mutex
	var idle time.Duration
	limits := 0
	srv := &Server{PMNS: testTree(t), MaxProcs: 2, scaler: p, ProcsSched: sched.read,
		ProcsIdle: func() (time.Duration, bool) {
			mu.Lock()
			defer mu.Unlock()
			return idle, true
		},
		ProcsLimit: func() int {
			mu.Lock()
			defer mu.Unlock()
			limits++
			return 2
		}}
	_, conns, end := serveClients(t, srv, 2*procsClientsPerP)
	defer end()
	step := func(idleFor time.Duration, wantLimits int, want []int, what string) {
		t.Helper()
		busy(t, conns)
		sched.window(30*time.Millisecond, 60*time.Millisecond)
		mu.Lock()
		idle += idleFor
		mu.Unlock()
		reads := sched.readCount()
		p.tick()
		mu.Lock()
		got := limits
		mu.Unlock()
		if got != wantLimits {
			t.Fatalf("%s: limit read %d times, want %d", what, got, wantLimits)
		}
		if set := fake.got(); !slices.Equal(set, want) {
			t.Fatalf("%s: Ps set %v, want %v", what, set, want)
		}
		if what == "CPUs full" && sched.readCount() != reads {
			t.Fatalf("%s: threads' counts read", what)
		}
	}
	step(0, 0, nil, "first busy window")
	for range 3 {
		step(0, 0, nil, "CPUs full")
	}
	step(procsWindow, 0, nil, "a CPU idle, nothing to compare with")
	step(procsWindow, 1, []int{2}, "a CPU idle, the thread waiting twice as long as it runs")
}

// TestProcsRaiseWithoutGain feeds busy windows to decide with the
// threads' counts wanting more Ps throughout: raised Ps that serve no
// more requests than the base go back to it after procsGainWindows
// windows past the first, and stay there procsProbe busy windows, then
// twice as many after the next such raise; a raise that serves more
// stays, and the hold after the next that does not starts over.
func TestProcsRaiseWithoutGain(t *testing.T) {
	fake, p, srv := decidingScaler(t)
	const base = 1000
	// run gives windows of reqs requests until the Ps change, and says
	// how many windows that took and what they were set to.
	run := func(reqs uint64, most int) (int, []int) {
		t.Helper()
		before := len(fake.got())
		for i := 1; i <= most; i++ {
			p.arm()
			p.decide(32, reqs, true, 2, roomWanted, []*Server{srv})
			if set := fake.got(); len(set) > before {
				return i, set[before:]
			}
		}
		return most, nil
	}
	if n, set := run(base, 1); n != 1 || !slices.Equal(set, []int{2}) {
		t.Fatalf("first window: %d windows, Ps set %v, want 1 and [2]", n, set)
	}
	if n, set := run(base, 100); n != procsGainWindows+1 || !slices.Equal(set, []int{1}) {
		t.Fatalf("raised serving as many: %d windows, then Ps set %v; want %d and [1]", n, set, procsGainWindows+1)
	}
	if n, set := run(base, 10*procsProbe); n != procsProbe+1 || !slices.Equal(set, []int{2}) {
		t.Fatalf("held: raised after %d windows (Ps %v), want %d", n, set, procsProbe+1)
	}
	if n, set := run(base, 100); n != procsGainWindows+1 || !slices.Equal(set, []int{1}) {
		t.Fatalf("raised again serving as many: %d windows, then Ps set %v", n, set)
	}
	if n, _ := run(base, 10*procsProbe); n != 2*procsProbe+1 {
		t.Fatalf("second hold: raised after %d windows, want %d", n, 2*procsProbe+1)
	}
	// Serving more (a fifth more than the window before), the Ps stay
	// until the probe.
	if n, set := run(base*6/5, procsProbe-1); set != nil {
		t.Fatalf("raised serving more: Ps set %v after %d windows, want none", set, n)
	}
	if p.holdEvery != 0 {
		t.Fatalf("after a raise that served more, the next hold is %d windows, want procsProbe", p.holdEvery)
	}
}
