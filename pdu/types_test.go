package pdu

import (
	"strings"
	"testing"
)

// allTypes are the PDU types PCP 6.0.3 names.
var allTypes = []Type{
	TypeError,
	TypeResult,
	TypeProfile,
	TypeFetch,
	TypeDescReq,
	TypeDesc,
	TypeInstanceReq,
	TypeInstance,
	TypeTextReq,
	TypeText,
	TypeControlReq,
	TypeCreds,
	TypePMNSIDs,
	TypePMNSNames,
	TypePMNSChild,
	TypePMNSTraverse,
	TypeAttr,
	TypeLabelReq,
	TypeLabel,
	TypeHighResFetch,
	TypeHighResResult,
	TypeDescIDs,
	TypeDescs,
	TypeLogControl,
	TypeLogStatusV2,
	TypeLogRequest,
	TypeLogStatus,
}

// TestTypeNames checks that each type PCP names has its name, that the
// names are distinct, and that another number is shown in hex.
func TestTypeNames(t *testing.T) {
	seen := map[string]Type{}
	for _, typ := range allTypes {
		s := typ.String()
		if s == "" || strings.HasPrefix(s, "TYPE-") {
			t.Errorf("%#x: %q", int32(typ), s)
		}
		if o, dup := seen[s]; dup {
			t.Errorf("%#x and %#x are both %q", int32(o), int32(typ), s)
		}
		seen[s] = typ
	}
	if got := Type(0x6fff).String(); got != "TYPE-6fff" {
		t.Errorf("unknown type: %q", got)
	}
}
