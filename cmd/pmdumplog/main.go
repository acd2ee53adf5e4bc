// Command pmdumplog prints the content of a PCP archive (its label,
// metadata, temporal index and data records) as PCP 6.0.3's pmdumplog
// does, with its options and output. What it prints comes from package
// archive; this command only parses options and formats.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/startpages"
	"github.com/gopcp/gopcp/pcp"
)

func main() {
	cli.Signals()
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// dumper holds what the printing routines share.
type dumper struct {
	f       *flags
	out     *bufio.Writer
	errw    io.Writer
	prog    string
	a       *archive.Archive
	label   archive.Label
	version int
	loc     *time.Location
	ns      nameSpace
	metrics map[pcp.PMID]*metricInfo
	scratch []byte
}

func run(argv []string, stdout, stderr io.Writer) int {
	var f flags
	cmd := command(&f)
	p := cli.Parse(cmd, argv)
	out := bufio.NewWriterSize(stdout, 1<<16)
	defer out.Flush()
	prog := p.Progname()

	done, code := p.Done()
	// The archive is the first operand unless PCP_ARCHIVE named one.
	noArchive := len(p.Args) == 0 && len(p.Archives) == 0
	if badOperands := (f.rawSet && len(p.Args) != 0) || (!f.rawSet && noArchive); done || badOperands {
		if !p.Exit {
			code = 1
		}
		out.Flush()
		fmt.Fprint(stderr, p.Report(cmd))
		return code
	}

	if f.rawSet {
		return rawDump(f.raw, prog, out, stderr)
	}
	if !(f.desc || f.labelsets || f.help || f.diskInDom || f.inDom || f.label || f.metrics || f.index) {
		f.metrics = true
	}
	names := p.Args
	if len(p.Archives) == 0 {
		p.AddArchive(p.Args[0])
		names = p.Args[1:]
	}
	// With the archive known, the deferred checks of the time window
	// and -z always pass, as in PCP's pmdumplog.
	p.End()
	if len(p.Archives) == 0 {
		// PCP_HOST named a host, so the archive was refused; PCP's
		// pmdumplog goes on without an archive and crashes
		out.Flush()
		fmt.Fprint(stderr, strings.Join(p.Messages, ""))
		return 1
	}
	name := p.Archives[0]
	if st, err := os.Stat(name); strings.ContainsRune(name, ',') || (err == nil && st.IsDir()) {
		out.Flush()
		fmt.Fprintf(stderr, "%s: Multiple archives are not supported\n", prog)
		return 1
	}

	// For a long replay, the binary's pages that only start touched are
	// given back before the archive's metadata takes its heap, those
	// only opening touched after (a failure costs only the pages).
	long := cli.LongReplay(name)
	if long {
		_, _ = startpages.Release()
	}
	a, err := archive.Open(name, archive.Options{})
	if err != nil && errors.Is(err, pcp.ErrFeature) {
		out.Flush()
		fmt.Fprintf(stderr, "%s: Warning: unsupported feature bits, other errors may follow ...\n", prog)
		a, err = archive.Open(name, archive.Options{NoFeatureCheck: true})
	}
	if err != nil {
		out.Flush()
		fmt.Fprintf(stderr, "%s: Cannot open archive \"%s\": %s\n", prog, name, archive.Code(err).Error())
		return 1
	}

	defer a.Close()
	if long {
		_, _ = startpages.Release()
	}
	// libpcp reads the derived metric definitions once a context opens,
	// reporting the bad ones then
	reg := p.DerivedRegistry()
	out.Flush()
	fmt.Fprint(stderr, p.DerivedMessages())
	d := &dumper{f: &f, out: out, errw: stderr, prog: prog, a: a, label: a.Label, version: a.Version()}
	var note string
	d.loc, note = p.ArchiveZone(a.Label.Timezone, a.Label.Hostname)
	fmt.Fprint(out, note)

	// The time window: the archive's bounds, narrowed by -S and -T.
	start := a.Label.Start
	finish, endErr := a.End()
	if endErr != nil {
		finish = pcp.Timestamp{Sec: math.MaxInt64}
		out.Flush()
		cli.EndWarning(stderr, prog, name, archive.Code(endErr).Error())
	}
	args := p.WindowArgs()
	window := args.Start != nil || args.Finish != nil
	if window {
		var msgs []string
		start, finish, msgs = parseWindow(prog, args.Start, args.Finish, start, finish, d.loc)
		if len(msgs) > 0 {
			out.Flush()
			for _, m := range msgs {
				fmt.Fprintf(stderr, "%s", m)
			}
			return 1
		}
	}

	ns := namesFor(a, p.Namespace, reg)
	d.ns = ns
	var pmids []pcp.PMID
	if len(names) > 0 {
		for _, n := range names {
			id, err := ns.LookupName(n)
			if err == nil {
				pmids = append(pmids, id)
				continue
			}
			if errors.Is(err, pcp.ErrNonLeaf) {
				leaves, _ := ns.Traverse(n)
				for _, l := range leaves {
					if id, err := ns.LookupName(l); err == nil {
						pmids = append(pmids, id)
					} else {
						out.Flush()
						fmt.Fprintf(stderr, "%s: pmLookupName(%s): %s\n", prog, l, archive.Code(err).Error())
					}
				}
				continue
			}
			out.Flush()
			fmt.Fprintf(stderr, "%s: pmLookupName(%s): %s\n", prog, n, archive.Code(err).Error())
		}
		if len(pmids) == 0 {
			out.Flush()
			fmt.Fprintf(stderr, "No metric names can be translated, dump abandoned\n")
			return 1
		}
	}

	rd := a.NewReader()
	// pmSetMode: a failure to place with the index (an entry naming a
	// missing volume) is ignored, the reads going on from where they were
	if f.reverse {
		_ = rd.Seek(archive.Backward, finish)
	} else {
		_ = rd.Seek(archive.Forward, start)
	}

	if f.label {
		d.dumpLabel()
	}
	if f.desc {
		d.dumpDesc()
	}
	if f.labelsets {
		d.dumpLabelSets()
	}
	if f.help {
		d.dumpHelp()
	}
	if f.diskInDom {
		if code := d.dumpDiskInDom(); code != 0 {
			return code
		}
	}
	if f.inDom {
		d.dumpInDom()
	}
	if f.index {
		d.dumpIndex()
	}
	if f.metrics {
		return d.dumpRecords(rd, pmids, window, start, finish)
	}
	return 0
}

func (d *dumper) dumpRecords(rd *archive.Reader, pmids []pcp.PMID, window bool, start, finish pcp.Timestamp) int {
	var done pcp.Timestamp
	if !d.f.reverse {
		done = pcp.Timestamp{Sec: math.MaxInt32}
		if window {
			done = finish
		}
	} else if window {
		done = start
	}
	var res, pick pcp.Result
	var slots []int
	first := true
	for {
		err := rd.Fetch(&res)
		if err != nil {
			if errors.Is(err, pcp.ErrEOL) {
				return 0
			}
			d.out.Flush()
			fmt.Fprintf(d.errw, "%s: pmFetch: %s\n", d.prog, archive.Code(err).Error())
			return 1
		}
		r := &res
		if len(pmids) > 0 && !(len(res.Sets) == 0 && d.f.marks) {
			// Each value set goes to the place of the first name that
			// asked for its metric, as PCP's pmdumplog picks them: a
			// metric named twice (say, alone and under its parent) is
			// printed once, in the order the names came.
			pick.Timestamp = res.Timestamp
			slots = slots[:0]
			for range pmids {
				slots = append(slots, -1)
			}
			for i := range res.Sets {
				for j, id := range pmids {
					if res.Sets[i].PMID == id {
						slots[j] = i
						break
					}
				}
			}
			pick.Sets = pick.Sets[:0]
			for _, i := range slots {
				if i >= 0 {
					pick.Sets = append(pick.Sets, res.Sets[i])
				}
			}
			if len(pick.Sets) == 0 {
				continue
			}
			r = &pick
		}
		if first && d.f.reverse {
			first = false
			fmt.Fprintf(d.out, "\nLog finished at %.24s - dump in reverse order\n", d.ctime(r.Timestamp.Sec))
		}
		c := r.Timestamp.Compare(done)
		if (!d.f.reverse && c > 0) || (d.f.reverse && c < 0) {
			return 0
		}
		d.out.WriteByte('\n')
		d.dumpResult(r)
	}
}
