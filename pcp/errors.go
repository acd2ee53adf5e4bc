package pcp

// Error is a PCP error code: always negative, either one of PCP's own
// PM_ERR_* codes (below -12344) or the negation of a Unix errno, exactly as
// PCP's C API and its PDUs carry them. Its text is the one pmErrStr gives.
type Error int32

// Code returns the PCP error number.
func (e Error) Code() int32 { return int32(e) }
