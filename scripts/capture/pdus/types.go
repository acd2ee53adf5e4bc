package main

import "fmt"

// pduNames maps PDU type codes to their names in PCP 6.0.3's
// src/include/pcp/libpcp.h. 0x7011 is both ATTR and AUTH, and 0x7017 both
// DESCS and the PDU_FINISH bound.
var pduNames = map[uint32]string{
	0x7000: "ERROR",
	0x7001: "RESULT",
	0x7002: "PROFILE",
	0x7003: "FETCH",
	0x7004: "DESC_REQ",
	0x7005: "DESC",
	0x7006: "INSTANCE_REQ",
	0x7007: "INSTANCE",
	0x7008: "TEXT_REQ",
	0x7009: "TEXT",
	0x700a: "CONTROL_REQ",
	0x700c: "CREDS",
	0x700d: "PMNS_IDS",
	0x700e: "PMNS_NAMES",
	0x700f: "PMNS_CHILD",
	0x7010: "PMNS_TRAVERSE",
	0x7011: "ATTR",
	0x7012: "LABEL_REQ",
	0x7013: "LABEL",
	0x7014: "HIGHRES_FETCH",
	0x7015: "HIGHRES_RESULT",
	0x7016: "DESC_IDS",
	0x7017: "DESCS",
	0x8000: "LOG_CONTROL",
	0x8001: "LOG_STATUS_V2",
	0x8002: "LOG_REQUEST",
	0x8003: "LOG_STATUS",
}

// typeName names a PDU type, falling back to its code.
func typeName(t uint32) string {
	if n, ok := pduNames[t]; ok {
		return n
	}
	return fmt.Sprintf("0x%x", t)
}

// typeByName finds the code of a named PDU type.
func typeByName(name string) (uint32, bool) {
	for code, n := range pduNames {
		if n == name {
			return code, true
		}
	}
	return 0, false
}
