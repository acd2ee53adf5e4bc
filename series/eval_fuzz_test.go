package series

import (
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// FuzzCalculate evaluates any expression over series shaped by the
// input (sample counts, instance counts that change from sample to
// sample, values that are not numbers, every type, semantics and some
// units): an answer or a refusal, never a panic. Redis's contents drive
// the evaluation, so nothing in them may crash it.
func FuzzCalculate(f *testing.F) {
	for _, q := range []string{
		"rate(a[samples:3])", "max_sample(a[samples:2]) + min(a[samples:2])", "topk_inst(a[samples:3], 2) * 2.5",
		"nth_percentile_inst(a[samples:4], 50) / sqrt(a[samples:4])", "rescale(rate(a[samples:2]), \"count/min\")",
		"stdev_sample(a[samples:2]) - avg_sample(a[samples:2])", "log(abs(a[samples:2]),2)", "round(floor(a[samples:3]))",
		"sum(rate(a)) + a", "3 * nth_percentile_sample(a[samples:2], 0)", "topk_sample(a[samples:2], 4294967295)",
	} {
		f.Add(q, []byte{3, 2, 1, 0, 7, 200, 5, 9, 1, 2, 3})
	}
	types := []string{"32", "u32", "64", "u64", "float", "double", "string", "DOUBLE", ""}
	sems := []string{"counter", "instant", "discrete", "instance", ""}
	units := []string{"", "none", "count", "Kbyte", "millisec", "byte / sec", "count / sec^2", "bogus"}
	vals := []string{"1", "-2", "3.5e+00", "0", "inf", "nan", `"text"`, "", "18446744073709551615", "-2147483648"}
	f.Fuzz(func(t *testing.T, q string, shape []byte) {
		p, err := parseExprAt(q, func() time.Time { return time.Unix(1e9, 0) }, time.UTC)
		if err != nil || p.Root == nil {
			return
		}
		next := func() int {
			if len(shape) == 0 {
				return 0
			}
			b := int(shape[0])
			shape = shape[1:]
			return b
		}
		sets := map[*Expr][]*sset{}
		for _, v := range vectors(p.Root) {
			nseries := next() % 3
			var ss []*sset
			for i := 0; i < nseries; i++ {
				s := &sset{sid: StringID(strconv.Itoa(i)).String(), metric: "m",
					desc: fdesc{indom: []string{"none", "1.2"}[next()%2], sem: sems[next()%len(sems)],
						typ: types[next()%len(types)], units: units[next()%len(units)]}}
				nsamples := next() % 6
				for j := 0; j < nsamples; j++ {
					ninst := next() % 4
					var smp []ival
					for k := 0; k < ninst; k++ {
						smp = append(smp, ival{stamp: strconv.Itoa(j) + "-0", ts: pcp.Timestamp{Sec: int64(j % 2)},
							inst: StringID(strconv.Itoa(k)).String(), data: vals[next()%len(vals)]})
					}
					s.samples = append(s.samples, smp)
				}
				s.num = len(s.samples)
				ss = append(ss, s)
			}
			sets[v] = ss
		}
		res, _ := calculate(p.Root, sets)
		if len(res) > 0 {
			reconcileUnits(res)
		}
		canonical(p.Root, sets)
	})
}
