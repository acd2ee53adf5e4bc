package trace_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/trace"
)

// TestProfilesAsPCP fetches trace.point.count and trace.point.rate under
// instance profiles from both agents: all instances, some, one absent
// from the domain only (where pmdatrace fails the whole fetch), and none.
func TestProfilesAsPCP(t *testing.T) {
	_, ours, _ := programs(t)
	in := testbed.Need(t)
	root := pmnsRoot(t, in)
	theirs := filepath.Join(in.Var("PCP_PMDAS_DIR"), "trace", "pmdatrace")
	profiles := []struct {
		name  string
		insts []int32 // nil: every instance
	}{{"all", nil}, {"some", []int32{3, 1}}, {"absent", []int32{99}}}
	var outs [2]string
	for i, bin := range []string{theirs, ours} {
		bed, port := bedWith(t, root, bin)
		c, err := trace.New(trace.Options{Host: "127.0.0.1", Port: port})
		if err != nil {
			t.Fatal(err)
		}
		for _, tag := range []string{"a", "b", "c", "b"} {
			if err := c.Point(context.Background(), tag); err != nil {
				t.Fatal(err)
			}
		}
		c.Close()
		ctx := context.Background()
		hc, err := pmapi.NewHostContext(ctx, "localhost:"+strconv.Itoa(bed.Port()))
		if err != nil {
			t.Fatal(err)
		}
		ids, err := hc.LookupNames(ctx, []string{"trace.point.count", "trace.point.rate", "trace.control.period"})
		if err != nil {
			t.Fatal(err)
		}
		indom := pcp.NewInDom(10, 1)
		for _, p := range profiles {
			hc.DelProfile(indom, nil)
			if p.insts == nil {
				hc.AddProfile(indom, nil)
			} else {
				hc.AddProfile(indom, p.insts)
			}
			var r pcp.Result
			_, err := hc.Fetch(ctx, ids, &r)
			outs[i] += fmt.Sprintf("%s: err %v", p.name, err)
			if err == nil {
				for _, s := range r.Sets {
					outs[i] += fmt.Sprintf(" [%v numval %d", s.PMID, s.NumVal)
					for _, v := range s.Values {
						outs[i] += fmt.Sprintf(" %d", v.Inst)
					}
					outs[i] += "]"
				}
			}
			outs[i] += "\n"
		}
		hc.Close()
	}
	if outs[0] != outs[1] {
		t.Errorf("PCP's pmdatrace:\n%s\ngopcp's:\n%s", outs[0], outs[1])
	}
	t.Logf("\n%s", outs[0])
}
