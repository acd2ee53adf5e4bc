// Command pmrepfg is the bench's pmrep-like replay through a fetchgroup:
// every metric under the names given, every instance of each, read from
// an archive record by record (pmrep -u: no interpolation) and printed
// as pmrep -o csv prints them: a header of metric-instance columns, then
// one line per record with the record's time and each value as a rate
// (counters) or as it is, to three decimals, empty where the record has
// none. It exists to time the fetchgroup replay against PCP's pmrep
// (bench.TestPmrepSideBySide); it is not a pmrep.
//
//	pmrepfg -a ARCHIVE NAME...
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/gopcp/gopcp/fetchgroup"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

func main() {
	if len(os.Args) < 4 || os.Args[1] != "-a" {
		fmt.Fprintln(os.Stderr, "usage: pmrepfg -a ARCHIVE NAME...")
		os.Exit(1)
	}
	if err := run(context.Background(), os.Args[2], os.Args[3:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pmrepfg:", err)
		os.Exit(1)
	}
}

// column is one metric's handle and the instances it prints, in order.
type column struct {
	name  string
	h     *fetchgroup.InDom[float64]
	insts []pmapi.Instance
	// at is where each printed instance was found in the last fetch's
	// instances (-1: absent), refound only when the fetch's differ
	at []int
}

func run(ctx context.Context, archive string, names []string, stdout io.Writer) error {
	g, err := fetchgroup.Create(ctx, pmapi.KindArchive, archive)
	if err != nil {
		return err
	}
	defer g.Close()
	src, ok := g.Source().(*pmapi.ArchiveContext)
	if !ok {
		return errors.New("not an archive context")
	}
	var cols []*column
	for _, root := range names {
		leaves, err := src.Traverse(ctx, root)
		if err != nil {
			return fmt.Errorf("%s: %w", root, err)
		}
		for _, name := range leaves {
			h, err := fetchgroup.ExtendInDom[float64](ctx, g, name, nil)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			c := &column{name: name, h: h}
			if d := h.Desc(); d.InDom != pcp.InDomNull {
				if c.insts, err = src.GetInDomArchive(d.InDom); err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				slices.SortFunc(c.insts, func(a, b pmapi.Instance) int { return int(a.Inst) - int(b.Inst) })
			} else {
				c.insts = []pmapi.Instance{{Inst: pcp.InstNull}}
			}
			c.at = make([]int, len(c.insts))
			cols = append(cols, c)
		}
	}
	ts := g.ExtendTimestamp()
	w := bufio.NewWriterSize(stdout, 1<<16)
	defer w.Flush()
	w.WriteString("Time")
	for _, c := range cols {
		for _, in := range c.insts {
			w.WriteString(",\"" + c.name)
			if in.Inst != pcp.InstNull {
				w.WriteString("-" + in.Name)
			}
			w.WriteByte('"')
		}
	}
	w.WriteByte('\n')
	var line []byte
	for {
		if _, err := g.Fetch(ctx); err != nil {
			if errors.Is(err, pcp.ErrEOL) {
				return nil
			}
			return err
		}
		line = ts.Time().Local().AppendFormat(line[:0], time.DateTime)
		for _, c := range cols {
			line = c.appendValues(line)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
}

// appendValues appends a comma and each printed instance's value (or
// nothing) to line.
func (c *column) appendValues(line []byte) []byte {
	got := c.h.Instances()
	for i, in := range c.insts {
		line = append(line, ',')
		k := c.at[i]
		if k < 0 || k >= len(got) || got[k].Inst != in.Inst {
			k = slices.IndexFunc(got, func(v fetchgroup.Instance[float64]) bool { return v.Inst == in.Inst })
			c.at[i] = k
		}
		if k < 0 || got[k].Err != nil {
			continue
		}
		line = strconv.AppendFloat(line, got[k].Value, 'f', 3, 64)
	}
	return line
}
