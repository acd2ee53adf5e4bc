package pdu

import "strconv"

// Type is a PDU type code, PDU_* in PCP.
type Type int32

// The PDU types of PCP 6, with PCP's codes. PDU_AUTH is another name for
// ATTR. The pmlogger control PDUs live in their own range.
const (
	TypeError         Type = 0x7000
	TypeResult        Type = 0x7001
	TypeProfile       Type = 0x7002
	TypeFetch         Type = 0x7003
	TypeDescReq       Type = 0x7004
	TypeDesc          Type = 0x7005
	TypeInstanceReq   Type = 0x7006
	TypeInstance      Type = 0x7007
	TypeTextReq       Type = 0x7008
	TypeText          Type = 0x7009
	TypeControlReq    Type = 0x700a
	TypeCreds         Type = 0x700c
	TypePMNSIDs       Type = 0x700d
	TypePMNSNames     Type = 0x700e
	TypePMNSChild     Type = 0x700f
	TypePMNSTraverse  Type = 0x7010
	TypeAttr          Type = 0x7011
	TypeAuth               = TypeAttr
	TypeLabelReq      Type = 0x7012
	TypeLabel         Type = 0x7013
	TypeHighResFetch  Type = 0x7014
	TypeHighResResult Type = 0x7015
	TypeDescIDs       Type = 0x7016
	TypeDescs         Type = 0x7017

	TypeLogControl  Type = 0x8000
	TypeLogStatusV2 Type = 0x8001
	TypeLogRequest  Type = 0x8002
	TypeLogStatus   Type = 0x8003
)

var typeNames = map[Type]string{
	TypeError: "ERROR", TypeResult: "RESULT", TypeProfile: "PROFILE",
	TypeFetch: "FETCH", TypeDescReq: "DESC_REQ", TypeDesc: "DESC",
	TypeInstanceReq: "INSTANCE_REQ", TypeInstance: "INSTANCE",
	TypeTextReq: "TEXT_REQ", TypeText: "TEXT", TypeControlReq: "CONTROL_REQ",
	TypeCreds: "CREDS", TypePMNSIDs: "PMNS_IDS", TypePMNSNames: "PMNS_NAMES",
	TypePMNSChild: "PMNS_CHILD", TypePMNSTraverse: "PMNS_TRAVERSE",
	TypeAttr: "ATTR", TypeLabelReq: "LABEL_REQ", TypeLabel: "LABEL",
	TypeHighResFetch: "HIGHRES_FETCH", TypeHighResResult: "HIGHRES_RESULT",
	TypeDescIDs: "DESC_IDS", TypeDescs: "DESCS",
	TypeLogControl: "LOG_CONTROL", TypeLogStatusV2: "LOG_STATUS_V2",
	TypeLogRequest: "LOG_REQUEST", TypeLogStatus: "LOG_STATUS",
}

// String gives PCP's name for the type, or the number in hex as PCP's
// debug output shows an unknown one.
func (t Type) String() string {
	if s, ok := typeNames[t]; ok {
		return s
	}
	return "TYPE-" + strconv.FormatInt(int64(t), 16)
}
