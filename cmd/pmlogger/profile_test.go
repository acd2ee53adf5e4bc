package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestInstanceProfileAgainstPCP logs sample.colour, whose values count
// the instances the agent has worked out, with instance lists: PCP's
// pmlogger asks pmcd for just the instances named (an instance profile),
// so each value steps by the number of instances its fetch names; ours
// must step alike. The values' starts differ (the two run one after the
// other against one agent), so the steps are compared.
func TestInstanceProfileAgainstPCP(t *testing.T) {
	t.Parallel()
	p, bin, dir, env := recordBed(t)
	value := regexp.MustCompile(`(?m)inst \[(\d+) or "[^"]*"\] value (\d+)$`)
	for i, cfg := range []string{
		`sample.colour [ "red" ]`,
		`sample.colour [ "red" ] sample.colour [ "blue" ]`,
		`sample.colour [ "red" ] sample.colour`,
	} {
		steps := func(pcp bool) string {
			base := filepath.Join(dir, strconv.Itoa(i)+strconv.FormatBool(pcp)[:1])
			if err := os.WriteFile(base+".config", []byte("log mandatory on 100 msec { "+cfg+" }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			recordArchive(t, p, bin, env, pcp, base, "-h", p.Host(), "-c", base+".config", "-s", "3", "-l", base+".log", base)
			r := p.Run("pmdumplog", base, "sample.colour")
			last := map[string]int{}
			var b strings.Builder
			for _, m := range value.FindAllStringSubmatch(r.Stdout, -1) {
				v, _ := strconv.Atoi(m[2])
				if prev, ok := last[m[1]]; ok {
					// each colour's values run through 100 numbers
					fmt.Fprintf(&b, "inst %s step %d\n", m[1], (v-prev+100)%100)
				}
				last[m[1]] = v
			}
			return b.String()
		}
		if want, got := steps(true), steps(false); want != got {
			t.Errorf("%s: PCP's pmlogger's values step\n%s\nours\n%s", cfg, want, got)
		}
	}
}
