package pmda

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// genQueue is what the script generator knows of one queue.
type genQueue struct {
	name     string
	lockstep bool  // readers fetch once each per round
	readers  []int // contexts reading it now
	hasF     bool  // an event failing to decode was appended
	dirty    bool  // appended to since its reader last fetched
	shut     bool
	unread   bool // no client reads it
}

// genQueueScript writes a random event queue script whose reads stay
// where libpcp_pmda's queues keep their own promises, so its output must
// equal ours once our records of missed events are left out: each queue
// has one reader fetching whenever it likes, or several that each fetch
// once per round (libpcp_pmda rereads a queue from its head, so a reader
// fetching twice before another would be sent events twice); clients join
// and end only between rounds, when their queues hold nothing for them;
// events failing to decode go only to single-reader queues; queues are
// all made at the start. Everything else is random: sizes, memory limits
// small enough to overflow, events larger than the queue, access, filters
// and their changes, decoders making no or two records, counters,
// shutdowns, and active queues nobody reads.
func genQueueScript(r *rand.Rand) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	serial, sec := 0, 1
	limits := []int{6, 12, 20, 40, 100, 1000}
	var queues []*genQueue
	for i := range 1 + r.IntN(3) {
		q := &genQueue{name: fmt.Sprintf("q%d", i), lockstep: r.IntN(2) == 0}
		queues = append(queues, q)
		line("queue %s %d", q.name, limits[r.IntN(len(limits))])
	}
	if r.IntN(4) == 0 {
		line("queue %s 10", queues[0].name) // a duplicate
	}
	if r.IntN(4) == 0 {
		// an active queue nobody reads: events kept for the announced
		// readers, pushed out by the memory limit
		q := &genQueue{name: "qa", unread: true}
		queues = append(queues, q)
		line("active qa %d %d", limits[r.IntN(len(limits))], 1+r.IntN(3))
	}
	if r.IntN(6) == 0 {
		line("active bad 0 1") // no memory
	}
	nctx := 1 + r.IntN(4)
	registered := map[int]bool{}
	reads := map[int][]*genQueue{}
	rule := func(q *genQueue, c int) {
		switch r.IntN(10) {
		case 0:
			line("access %s %d 0", q.name, c)
		case 1, 2, 3, 4, 5:
			line("access %s %d 1", q.name, c)
		case 6, 7:
			line("filter %s %d %c", q.name, c, "abcTZ"[r.IntN(5)])
		case 8:
			line("filter %s %d -", q.name, c)
		}
	}
	join := func(c int) {
		line("client %d", c)
		registered[c] = true
		for _, q := range queues {
			if q.unread || len(q.readers) > 0 && (!q.lockstep || len(q.readers) >= 3) || r.IntN(3) == 0 {
				continue
			}
			q.readers = append(q.readers, c)
			reads[c] = append(reads[c], q)
			rule(q, c)
			line("records %s %d", q.name, c)
		}
	}
	for c := 1; c <= nctx; c++ {
		join(c)
	}
	noise := func() {
		q := queues[r.IntN(len(queues))]
		switch r.IntN(8) {
		case 0:
			line("counter %s", q.name)
		case 1:
			line("bytes %s", q.name)
		case 2, 3:
			line("memory %s", q.name)
		case 4:
			line("clients %s", q.name)
		case 5:
			line("nclients")
		case 6, 7:
			if len(q.readers) > 0 {
				rule(q, q.readers[r.IntN(len(q.readers))])
			}
		}
	}
	appendTo := func(q *genQueue) {
		first := "aabbcTZ"
		if !q.lockstep {
			first += "F"
		}
		c := first[r.IntN(len(first))]
		serial++
		text := fmt.Sprintf("%c%d", c, serial)
		pad := r.IntN(12)
		if r.IntN(10) == 0 {
			pad = 40 + r.IntN(1000)
		}
		text += strings.Repeat("x", pad)
		if c == 'F' {
			q.hasF = true
		}
		q.dirty = true
		line("append %s %d.%06d %s", q.name, sec, r.IntN(1000000), text)
	}
	single := func(q *genQueue) {
		if !q.lockstep && len(q.readers) == 1 {
			line("records %s %d", q.name, q.readers[0])
			q.dirty = false
		}
	}
	for range 3 + r.IntN(10) {
		sec++
		for range r.IntN(9) {
			switch r.IntN(4) {
			case 0:
				noise()
			case 1:
				single(queues[r.IntN(len(queues))])
			default:
				appendTo(queues[r.IntN(len(queues))])
			}
		}
		// each lockstep reader once, in a random order
		var fetches []string
		for _, q := range queues {
			for _, c := range q.readers {
				if q.lockstep {
					fetches = append(fetches, fmt.Sprintf("records %s %d", q.name, c))
				}
			}
			q.dirty = q.dirty && !q.lockstep
		}
		r.Shuffle(len(fetches), func(i, j int) { fetches[i], fetches[j] = fetches[j], fetches[i] })
		for _, f := range fetches {
			line("%s", f)
			if r.IntN(3) == 0 {
				noise()
			}
		}
		for _, q := range queues {
			if r.IntN(2) == 0 {
				single(q)
			}
		}
		// between rounds: clients end, come back, queues shut down
		if r.IntN(4) == 0 {
			c := 1 + r.IntN(nctx)
			clean := registered[c]
			for _, q := range reads[c] {
				clean = clean && (q.lockstep || !q.hasF && !q.dirty)
			}
			if clean {
				line("end %d", c)
				registered[c] = false
				for _, q := range reads[c] {
					q.readers = slices.DeleteFunc(q.readers, func(x int) bool { return x == c })
				}
				reads[c] = nil
			}
		}
		if r.IntN(5) == 0 {
			if c := 1 + r.IntN(nctx); !registered[c] {
				join(c)
			}
		}
		if q := queues[r.IntN(len(queues))]; r.IntN(12) == 0 && !q.shut {
			line("shutdown %s", q.name)
			q.shut = true
		}
	}
	for _, q := range queues {
		line("counter %s", q.name)
		line("bytes %s", q.name)
		line("memory %s", q.name)
		line("clients %s", q.name)
	}
	line("nclients")
	return b.String()
}

var paramRE = regexp.MustCompile(`"([^"]*)"`)

// checkNoDuplicates reports an event given twice to one client of a
// queue, in the full output of ours (event texts are unique).
func checkNoDuplicates(out string) error {
	seen := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) < 4 || f[0] != "records" {
			continue
		}
		for _, m := range paramRE.FindAllStringSubmatch(l, -1) {
			key := f[1] + " " + strings.TrimSuffix(f[2], ":") + " " + m[1]
			if seen[key] {
				return fmt.Errorf("event %q sent twice to client %s of %s", m[1], strings.TrimSuffix(f[2], ":"), f[1])
			}
			seen[key] = true
		}
	}
	return nil
}

// TestEventQueueRandomScriptsAgainstPCP runs random scripts (see
// genQueueScript) through libpcp_pmda's queues and ours and compares what
// they print, ours without its records of missed events, which PCP never
// sends; ours must also never send a client an event twice. The seed is
// printed on failure; GOPCP_EVENTQUEUE_SEED replays one and
// GOPCP_EVENTQUEUE_SCRIPTS sets how many scripts run (300).
func TestEventQueueRandomScriptsAgainstPCP(t *testing.T) {
	if !havePCPMDA() {
		pcptest.Missing(t, "libpcp-pmda3-dev is not installed")
	}
	bin := buildQueueHarness(t)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("GOPCP_EVENTQUEUE_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	n := 300
	if s := os.Getenv("GOPCP_EVENTQUEUE_SCRIPTS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	scripts := make([]string, n)
	for i := range scripts {
		scripts[i] = genQueueScript(r)
	}
	for i, pcpOut := range runPCPQueueScripts(t, bin, scripts) {
		script := scripts[i]
		if ours := runQueueScript(script, true); ours != pcpOut {
			t.Fatalf("seed %d, script %d: ours (missed records left out) differs from libpcp_pmda (- PCP, + ours):\n%s", seed, i, lineDiff(pcpOut, ours))
		}
		if err := checkNoDuplicates(runQueueScript(script, false)); err != nil {
			t.Fatalf("seed %d, script %d: %v\n%s", seed, i, err, script)
		}
	}
	t.Logf("seed %d: %d scripts agree", seed, n)
}
