package series

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
)

// TestLoadTrimmedAsXADDMaxlen checks the loader's trimming against
// Redis's own with every entry. PCP 6.0.3's pmseries --load leaves
// [pmseries] stream.maxlen at 8640 whatever pmseries.conf says (its XADDs
// seen with MONITOR), and no QA archive has that many records, so the
// reference is libpcp_web's command itself: every entry of an untrimmed
// load written again to a third Redis with XADD MAXLEN ~ <maxlen>, one by
// one in time order. Ours trims with XTRIM now and then and at the end,
// and is loaded twice (the second load's entries all refused); its
// streams must hold what the reference's hold, entry for entry.
func TestLoadTrimmedAsXADDMaxlen(t *testing.T) {
	ctx := context.Background()
	for _, a := range []string{"20180102", "mirage-3"} {
		t.Run(a, func(t *testing.T) {
			path := filepath.Join(qaArchives, a)
			ourSrv, fullSrv, refSrv := redistest.Start(t), redistest.Start(t), redistest.Start(t)
			ours, full, ref := client(t, ourSrv), client(t, fullSrv), client(t, refSrv)
			opt := LoadOptions{MaxStreamLen: 120, StreamExpire: 600}
			if _, err := Load(ctx, full, path, LoadOptions{MaxStreamLen: 1 << 40}); err != nil {
				t.Fatal(err)
			}
			keys := redisDo(t, full, "KEYS", "pcp:values:series:*").Strings()
			sort.Strings(keys)
			entries := 0
			for _, k := range keys {
				var cmds [][]string
				for _, e := range redisDo(t, full, "XRANGE", k, "-", "+").Elems {
					args := []string{"XADD", k, "MAXLEN", "~", "120", e.Elems[0].Str}
					cmds = append(cmds, append(args, e.Elems[1].Strings()...))
					entries++
				}
				vs, err := ref.Pipeline(ctx, cmds)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range vs {
					if err := v.Err(); err != nil {
						t.Fatal(err)
					}
				}
			}
			rd := seriestest.Dump(t, ref)
			for load := 1; load <= 2; load++ {
				if _, err := Load(ctx, ours, path, opt); err != nil {
					t.Fatal(err)
				}
				od := seriestest.Dump(t, ours)
				trimmed, same := 0, 0
				for _, k := range keys {
					o, r := od[k], rd[k]
					if !strings.HasPrefix(o, "stream ttl=true\n") {
						t.Errorf("%s: %s has no time to live", a, k)
					}
					_, o, _ = strings.Cut(o, "\n")
					_, r, _ = strings.Cut(r, "\n")
					if o != r {
						t.Errorf("%s, load %d: %s differs from the reference's:\nours:\n%s\nreference:\n%s", a, load, k, clip(o), clip(r))
						continue
					}
					same++
					if n := redisDo(t, full, "XLEN", k).Int; n > int64(strings.Count(o, "\n")+1) {
						trimmed++
					}
				}
				if trimmed == 0 {
					t.Fatalf("%s: no stream was trimmed", a)
				}
				t.Logf("%s, load %d: %d streams (%d entries) equal to the reference's, %d trimmed", a, load, same, entries, trimmed)
			}
		})
	}
}
