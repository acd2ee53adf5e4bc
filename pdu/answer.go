package pdu

// Answers says whether a PDU of type reply is the answer a PMDA owes a
// request of type req: pmcd and the local context both hold an agent to
// this, and an agent out of step with it has lost the conversation. A
// store (a RESULT sent to the agent) is answered by an ERROR carrying
// its status; a request with no answer of its own (PROFILE, ATTR, or a
// type PMDAs are never sent) has none that fits.
func Answers(req, reply Type) bool {
	var want Type
	switch req {
	case TypeFetch:
		want = TypeResult
	case TypeDescReq:
		want = TypeDesc
	case TypeInstanceReq:
		want = TypeInstance
	case TypeTextReq:
		want = TypeText
	case TypeLabelReq:
		want = TypeLabel
	case TypeResult:
		want = TypeError
	case TypePMNSNames:
		want = TypePMNSIDs
	case TypePMNSIDs, TypePMNSChild, TypePMNSTraverse:
		want = TypePMNSNames
	default:
		return false
	}
	return reply == want
}
