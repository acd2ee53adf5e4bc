package pmcd

import (
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// TestEncodeAnswer: an in-process agent's answer encoded from its own
// storage carries the PMIDs the client asked for, the fetch's time and
// the PDU type the client's request calls for; an answer with other PMIDs
// is re-labelled in the client's copy, the agent's storage untouched; the
// state changes come from the answer's timestamp.
func TestEncodeAnswer(t *testing.T) {
	defer func(f func() time.Time) { timeNow = f }(timeNow)
	stamp := time.Unix(1700000000, 123456789)
	timeNow = func() time.Time { return stamp }
	asked := []pcp.PMID{pcp.NewPMID(29, 0, 1), pcp.NewPMID(29, 0, 2)}
	cases := []struct {
		name    string
		reqType pdu.Type
		agents  []pcp.PMID // the PMIDs of the agent's answer
		sec     int64      // its timestamp's seconds: the state changes
	}{
		{"fetch", pdu.TypeFetch, asked, 0},
		{"highres fetch", pdu.TypeHighResFetch, asked, 0},
		{"other PMIDs", pdu.TypeFetch, []pcp.PMID{pcp.NewPMID(29, 9, 9), asked[1]}, 0},
		{"state changes", pdu.TypeFetch, asked, int64(changeAddAgent)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			agent := &pcp.Result{Timestamp: pcp.Timestamp{Sec: tc.sec}}
			for i, id := range tc.agents {
				agent.Sets = append(agent.Sets, pcp.ValueSet{PMID: id, NumVal: 1, ValFmt: pcp.ValInSitu,
					Values: []pcp.Value{{Inst: pcp.InstNull, LVal: int32(10 + i)}}})
			}
			c := &client{curType: tc.reqType}
			c.result.Sets = make([]pcp.ValueSet, len(asked))
			if got := c.encodeAnswer(agent, asked); got != uint32(tc.sec) {
				t.Errorf("changes %#x, want %#x", got, tc.sec)
			}
			var got pcp.Result
			if tc.reqType == pdu.TypeHighResFetch {
				var m pdu.HighResResult
				if err := m.Decode(c.out); err != nil {
					t.Fatal(err)
				}
				got = m.Result
			} else {
				var m pdu.Result
				if err := m.Decode(c.out); err != nil {
					t.Fatal(err)
				}
				got = m.Result
			}
			if want := pcp.TimestampOf(stamp); got.Timestamp.Sec != want.Sec || got.Timestamp.Nsec/1000 != want.Nsec/1000 {
				t.Errorf("timestamp %v, want %v", got.Timestamp, want)
			}
			if len(got.Sets) != len(asked) {
				t.Fatalf("%d sets, want %d", len(got.Sets), len(asked))
			}
			for i, s := range got.Sets {
				if s.PMID != asked[i] || s.NumVal != 1 || s.Values[0].LVal != int32(10+i) {
					t.Errorf("set %d: %v %d %v, want %v 1 [%d]", i, s.PMID, s.NumVal, s.Values, asked[i], 10+i)
				}
				if agent.Sets[i].PMID != tc.agents[i] {
					t.Errorf("agent's set %d relabelled %v", i, agent.Sets[i].PMID)
				}
			}
		})
	}
}
