package pdu

import "testing"

// TestAnswers checks each request a PMDA is sent against the one reply
// type that fits it, and that every other type does not.
func TestAnswers(t *testing.T) {
	for _, c := range []struct {
		req, reply Type
	}{
		{TypeFetch, TypeResult},
		{TypeDescReq, TypeDesc},
		{TypeInstanceReq, TypeInstance},
		{TypeTextReq, TypeText},
		{TypeLabelReq, TypeLabel},
		{TypeResult, TypeError},
		{TypePMNSNames, TypePMNSIDs},
		{TypePMNSIDs, TypePMNSNames},
		{TypePMNSChild, TypePMNSNames},
		{TypePMNSTraverse, TypePMNSNames},
		{TypeProfile, 0},
		{TypeAttr, 0},
		{TypeError, 0},
		{TypeCreds, 0},
		{TypeHighResFetch, 0},
		{Type(0x6fff), 0},
	} {
		for _, reply := range append(allTypes, Type(0x6fff)) {
			if got, want := Answers(c.req, reply), reply == c.reply; got != want {
				t.Errorf("Answers(%v, %v) = %v, want %v", c.req, reply, got, want)
			}
		}
	}
}
