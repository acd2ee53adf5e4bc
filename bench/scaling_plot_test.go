package bench

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/bench/internal/plot"
)

// scalingCharts are the PNGs drawn from testdata/scaling/*.csv: the
// file, the x and y columns, how to scale them and the axes.
var scalingCharts = []struct {
	png, csv, x, y string
	xScale, yScale float64
	title, xLabel  string
	yLabel         string
	logY           bool
}{
	{"scaling-clients-rate.png", "clients.csv", "clients", "fetches_per_s", 1, 1, "Fetch rate, all clients together", "concurrent clients", "fetches/s", false},
	{"scaling-clients-p50.png", "clients.csv", "clients", "p50_us", 1, 1, "Median fetch latency", "concurrent clients", "µs", true},
	{"scaling-clients-p99.png", "clients.csv", "clients", "p99_us", 1, 1, "p99 fetch latency", "concurrent clients", "µs", true},
	{"scaling-clients-rss.png", "clients.csv", "clients", "rss_kb", 1, 1.0 / 1024, "pmcd + sample agent RSS after the load", "concurrent clients", "MiB", false},
	{"scaling-clients-cpu.png", "clients.csv", "clients", "cpu_us_per_fetch", 1, 1, "pmcd + agent CPU per fetch", "concurrent clients", "µs per fetch", false},
	{"scaling-instances-cpu.png", "instances.csv", "instances", "cpu_us_per_fetch", 1, 1, "pmcd + agent CPU per fetch of sample.many.int", "instances", "µs per fetch", true},
	{"scaling-instances-p50.png", "instances.csv", "instances", "p50_us", 1, 1, "Median latency, fetch of sample.many.int", "instances", "µs", true},
	{"scaling-metrics-cpu.png", "metrics.csv", "metrics", "cpu_us_per_fetch", 1, 1, "pmcd + agent CPU per fetch", "sample metrics per fetch", "µs per fetch", true},
	{"scaling-metrics-p50.png", "metrics.csv", "metrics", "p50_us", 1, 1, "Median fetch latency", "sample metrics per fetch", "µs", true},
	{"scaling-replay-cpu.png", "replay.csv", "bytes", "cpu_s", 1.0 / (1 << 20), 1, "pmdumplog -a CPU time", "archive size, MiB", "s", true},
}

// TestScalingPlots draws the scaling study's CSV files as PNG charts
// under docs/bench/, one series per daemon (GOPCP_BENCH=1; it runs after
// the measuring tests when they are selected with it).
func TestScalingPlots(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	out := filepath.Join("..", "docs", "bench")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, ch := range scalingCharts {
		rows, err := readCSV(filepath.Join(scalingDir, ch.csv))
		if err != nil {
			t.Error(err)
			continue
		}
		series := map[string]*plot.Series{}
		var order []string
		for _, r := range rows {
			impl := r["impl"]
			if series[impl] == nil {
				series[impl] = &plot.Series{Name: impl}
				order = append(order, impl)
			}
			x, err1 := strconv.ParseFloat(r[ch.x], 64)
			y, err2 := strconv.ParseFloat(r[ch.y], 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %s=%q %s=%q", ch.csv, ch.x, r[ch.x], ch.y, r[ch.y])
			}
			series[impl].X = append(series[impl].X, x*ch.xScale)
			series[impl].Y = append(series[impl].Y, y*ch.yScale)
		}
		c := plot.Chart{Title: ch.title, XLabel: ch.xLabel, YLabel: ch.yLabel, LogX: true, LogY: ch.logY}
		for _, name := range order {
			s := *series[name]
			sortPoints(&s)
			c.Series = append(c.Series, s)
		}
		f, err := os.Create(filepath.Join(out, ch.png))
		if err != nil {
			t.Fatal(err)
		}
		err = c.WritePNG(f, 720, 420)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Errorf("%s: %v", ch.png, err)
		}
	}
}

// sortPoints orders a series' points by x, for its line.
func sortPoints(s *plot.Series) {
	idx := make([]int, len(s.X))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return s.X[idx[a]] < s.X[idx[b]] })
	x, y := make([]float64, len(idx)), make([]float64, len(idx))
	for i, j := range idx {
		x[i], y[i] = s.X[j], s.Y[j]
	}
	s.X, s.Y = x, y
}

// readCSV reads a CSV file with a header line into one map per row.
func readCSV(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, err
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows, nil
}
