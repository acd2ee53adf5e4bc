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

// typeName is PCP's name for each type it knows, "" for any other. It is
// a switch, not a map, so that linking the package builds nothing at
// start-up.
func typeName(t Type) string {
	switch t {
	case TypeError:
		return "ERROR"
	case TypeResult:
		return "RESULT"
	case TypeProfile:
		return "PROFILE"
	case TypeFetch:
		return "FETCH"
	case TypeDescReq:
		return "DESC_REQ"
	case TypeDesc:
		return "DESC"
	case TypeInstanceReq:
		return "INSTANCE_REQ"
	case TypeInstance:
		return "INSTANCE"
	case TypeTextReq:
		return "TEXT_REQ"
	case TypeText:
		return "TEXT"
	case TypeControlReq:
		return "CONTROL_REQ"
	case TypeCreds:
		return "CREDS"
	case TypePMNSIDs:
		return "PMNS_IDS"
	case TypePMNSNames:
		return "PMNS_NAMES"
	case TypePMNSChild:
		return "PMNS_CHILD"
	case TypePMNSTraverse:
		return "PMNS_TRAVERSE"
	case TypeAttr:
		return "ATTR"
	case TypeLabelReq:
		return "LABEL_REQ"
	case TypeLabel:
		return "LABEL"
	case TypeHighResFetch:
		return "HIGHRES_FETCH"
	case TypeHighResResult:
		return "HIGHRES_RESULT"
	case TypeDescIDs:
		return "DESC_IDS"
	case TypeDescs:
		return "DESCS"
	case TypeLogControl:
		return "LOG_CONTROL"
	case TypeLogStatusV2:
		return "LOG_STATUS_V2"
	case TypeLogRequest:
		return "LOG_REQUEST"
	case TypeLogStatus:
		return "LOG_STATUS"
	}
	return ""
}

// String gives PCP's name for the type, or the number in hex as PCP's
// debug output shows an unknown one.
func (t Type) String() string {
	if s := typeName(t); s != "" {
		return s
	}
	return "TYPE-" + strconv.FormatInt(int64(t), 16)
}
