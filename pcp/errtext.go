package pcp

import "strconv"

// Error returns the text pmErrStr gives for the code.
func (e Error) Error() string { return ErrorText(int32(e)) }

// ErrorOf returns the error a PCP status code stands for, or nil when the
// code is not negative (a success or a count, as PCP's calls return).
func ErrorOf(code int32) error {
	if code >= 0 {
		return nil
	}
	return Error(code)
}

// Boundaries of the ranges pmErrStr decodes differently.
const (
	errTextBase = 12345 // PM_ERR_BASE: codes above -errTextBase are negated errnos
	errTextNYI  = int32(ErrNYI)

	// Below ErrNYI, libpcp (built with secure sockets, as PCP 6.0.3 is on
	// Linux) reports code-ErrNYI as a Cyrus SASL status when that is
	// not below -1000.
	errTextSASLLowest = -1000
)

// ErrorText returns exactly what pmErrStr prints for code: PCP's text for
// its own codes, the C library's strerror text for a negated errno, SASL's
// text for authentication failures, and PCP's "No such PMAPI error code"
// for anything else, including positive codes.
func ErrorText(code int32) string {
	switch {
	case code == 0:
		return "No error"
	case code < errTextNYI:
		sasl := code - errTextNYI
		if sasl < errTextSASLLowest {
			return "Unknown secure sockets error " + strconv.Itoa(int(code)) + " (" + strconv.Itoa(int(sasl)) + ")"
		}
		return "Authentication - " + errTextSASL(sasl)
	case code < 0 && code > -errTextBase:
		return errTextErrno(-code)
	}
	for _, t := range errTextPCP {
		if t.code == Error(code) {
			return t.text
		}
	}
	return "No such PMAPI error code (" + strconv.Itoa(int(code)) + ")"
}

// errTextErrno is strerror's text for errno n (n > 0), as glibc words it. PCP
// passes unknown numbers through unchanged, so they keep glibc's form.
func errTextErrno(n int32) string {
	if int(n) < len(errnoTexts) && errnoTexts[n] != "" {
		return errnoTexts[n]
	}
	return "Unknown error " + strconv.Itoa(int(n))
}

// errTextSASL is sasl_errstring's text for a SASL status (negative here).
func errTextSASL(s int32) string {
	if i := -int(s); i < len(saslTexts) && saslTexts[i] != "" {
		return saslTexts[i]
	}
	return "undefined error!"
}

// errTextPCP holds libpcp's text for each of its codes. Retired codes are
// absent: pmErrStr no longer knows them either. It is an array, not a map,
// so that it is static data: a map literal is built by the package's
// initialisation in every program that links pcp, whether or not it ever
// prints an error (a linear search of 66 codes is cheap beside the
// formatting around it).
var errTextPCP = [...]struct {
	code Error
	text string
}{
	{ErrGeneric, "Generic error, already reported above"},
	{ErrPMNS, "Problems parsing PMNS definitions"},
	{ErrNoPMNS, "PMNS not accessible"},
	{ErrDupPMNS, "Attempt to reload the PMNS"},
	{ErrText, "One-line or help text is not available"},
	{ErrAppVersion, "Metric not supported by this version of monitored application"},
	{ErrValue, "Missing metric value(s)"},
	{ErrTimeout, "Timeout waiting for a response from PMCD"},
	{ErrNoData, "Empty archive log file"},
	{ErrReset, "PMCD reset or configuration change"},
	{ErrName, "Unknown metric name"},
	{ErrPMID, "Unknown or illegal metric identifier"},
	{ErrInDom, "Unknown or illegal instance domain identifier"},
	{ErrInst, "Unknown or illegal instance identifier"},
	{ErrType, "Unknown or illegal metric type"},
	{ErrUnit, "Illegal pmUnits specification"},
	{ErrConv, "Impossible value or scale conversion"},
	{ErrTrunc, "Truncation in value conversion"},
	{ErrSign, "Negative value in conversion to unsigned"},
	{ErrProfile, "Explicit instance identifier(s) required"},
	{ErrIPC, "IPC protocol failure"},
	{ErrTLS, "TLS protocol failure"},
	{ErrEOF, "IPC channel closed"},
	{ErrNotHost, "Operation requires context with host source of metrics"},
	{ErrEOL, "End of PCP archive log"},
	{ErrMode, "Illegal mode specification"},
	{ErrLabel, "Illegal label record at start of a PCP archive log file"},
	{ErrLogRec, "Corrupted record in a PCP archive log"},
	{ErrLogFile, "Missing PCP archive log file"},
	{ErrNotArchive, "Operation requires context with archive source of metrics"},
	{ErrNoContext, "Attempt to use an illegal context"},
	{ErrProfileSpec, "NULL pmInDom with non-NULL instlist"},
	{ErrPMIDLog, "Metric not defined in the PCP archive log"},
	{ErrInDomLog, "Instance domain identifier not defined in the PCP archive log"},
	{ErrInstLog, "Instance identifier not defined in the PCP archive log"},
	{ErrNoProfile, "Missing profile - protocol botch"},
	{ErrNoAgent, "No PMCD agent for domain of request"},
	{ErrPermission, "No permission to perform requested operation"},
	{ErrConnLimit, "PMCD connection limit for this host exceeded"},
	{ErrAgain, "Try again. Information not currently available"},
	{ErrIsConn, "Already Connected"},
	{ErrNotConn, "Not Connected"},
	{ErrNeedPort, "A non-null port name is required"},
	{ErrNonLeaf, "Metric name is not a leaf in PMNS"},
	{ErrPMDANotReady, "PMDA is not yet ready to respond to requests"},
	{ErrPMDAReady, "PMDA is now responsive to requests"},
	{ErrBotch, "Internal inconsistency detected or assertion failed"},
	{ErrTooSmall, "Insufficient elements in list"},
	{ErrTooBig, "Result size exceeded"},
	{ErrFault, "QA fault injected"},
	{ErrThread, "Operation not supported for multi-threaded applications"},
	{ErrNoContainer, "Container not found"},
	{ErrBadStore, "Bad input to pmstore"},
	{ErrLogOverlap, "Archives overlap in time"},
	{ErrLogHost, "Archives differ by host"},
	{ErrLogChangeType, "The type of a metric has changed in an archive"},
	{ErrLogChangeSem, "The semantics of a metric has changed in an archive"},
	{ErrLogChangeInDom, "The instance domain of a metric has changed in an archive"},
	{ErrLogChangeUnits, "The units of a metric have changed in an archive"},
	{ErrNeedClientCert, "PMCD requires a client certificate"},
	{ErrBadDerive, "Derived metric definition failed"},
	{ErrNoLabels, "No support for metric label metadata"},
	{ErrPMDAFenced, "PMDA is currently fenced and unable to respond to requests"},
	{ErrRecType, "Incorrect record type in an archive"},
	{ErrFeature, "Archive feature not supported"},
	{ErrNYI, "Functionality not yet implemented"},
}
