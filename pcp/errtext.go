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
		if t.Code == Error(code) {
			return t.Text
		}
	}
	return "No such PMAPI error code (" + strconv.Itoa(int(code)) + ")"
}

// KnownError is one of libpcp's own error codes with its PM_ERR_ name and
// pmErrStr's text.
type KnownError struct {
	Code   Error
	Symbol string
	Text   string
}

// KnownErrors returns libpcp's own codes in the order of libpcp's table,
// the order pmerr -l lists them in (grouped by subject, not by number).
func KnownErrors() []KnownError {
	all := errTextPCP
	return all[:]
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
var errTextPCP = [...]KnownError{
	{ErrGeneric, "PM_ERR_GENERIC", "Generic error, already reported above"},
	{ErrPMNS, "PM_ERR_PMNS", "Problems parsing PMNS definitions"},
	{ErrNoPMNS, "PM_ERR_NOPMNS", "PMNS not accessible"},
	{ErrDupPMNS, "PM_ERR_DUPPMNS", "Attempt to reload the PMNS"},
	{ErrText, "PM_ERR_TEXT", "One-line or help text is not available"},
	{ErrAppVersion, "PM_ERR_APPVERSION", "Metric not supported by this version of monitored application"},
	{ErrValue, "PM_ERR_VALUE", "Missing metric value(s)"},
	{ErrTimeout, "PM_ERR_TIMEOUT", "Timeout waiting for a response from PMCD"},
	{ErrNoData, "PM_ERR_NODATA", "Empty archive log file"},
	{ErrReset, "PM_ERR_RESET", "PMCD reset or configuration change"},
	{ErrName, "PM_ERR_NAME", "Unknown metric name"},
	{ErrPMID, "PM_ERR_PMID", "Unknown or illegal metric identifier"},
	{ErrInDom, "PM_ERR_INDOM", "Unknown or illegal instance domain identifier"},
	{ErrInst, "PM_ERR_INST", "Unknown or illegal instance identifier"},
	{ErrType, "PM_ERR_TYPE", "Unknown or illegal metric type"},
	{ErrUnit, "PM_ERR_UNIT", "Illegal pmUnits specification"},
	{ErrConv, "PM_ERR_CONV", "Impossible value or scale conversion"},
	{ErrTrunc, "PM_ERR_TRUNC", "Truncation in value conversion"},
	{ErrSign, "PM_ERR_SIGN", "Negative value in conversion to unsigned"},
	{ErrProfile, "PM_ERR_PROFILE", "Explicit instance identifier(s) required"},
	{ErrIPC, "PM_ERR_IPC", "IPC protocol failure"},
	{ErrTLS, "PM_ERR_TLS", "TLS protocol failure"},
	{ErrEOF, "PM_ERR_EOF", "IPC channel closed"},
	{ErrNotHost, "PM_ERR_NOTHOST", "Operation requires context with host source of metrics"},
	{ErrEOL, "PM_ERR_EOL", "End of PCP archive log"},
	{ErrMode, "PM_ERR_MODE", "Illegal mode specification"},
	{ErrLabel, "PM_ERR_LABEL", "Illegal label record at start of a PCP archive log file"},
	{ErrLogRec, "PM_ERR_LOGREC", "Corrupted record in a PCP archive log"},
	{ErrLogFile, "PM_ERR_LOGFILE", "Missing PCP archive log file"},
	{ErrNotArchive, "PM_ERR_NOTARCHIVE", "Operation requires context with archive source of metrics"},
	{ErrNoContext, "PM_ERR_NOCONTEXT", "Attempt to use an illegal context"},
	{ErrProfileSpec, "PM_ERR_PROFILESPEC", "NULL pmInDom with non-NULL instlist"},
	{ErrPMIDLog, "PM_ERR_PMID_LOG", "Metric not defined in the PCP archive log"},
	{ErrInDomLog, "PM_ERR_INDOM_LOG", "Instance domain identifier not defined in the PCP archive log"},
	{ErrInstLog, "PM_ERR_INST_LOG", "Instance identifier not defined in the PCP archive log"},
	{ErrNoProfile, "PM_ERR_NOPROFILE", "Missing profile - protocol botch"},
	{ErrNoAgent, "PM_ERR_NOAGENT", "No PMCD agent for domain of request"},
	{ErrPermission, "PM_ERR_PERMISSION", "No permission to perform requested operation"},
	{ErrConnLimit, "PM_ERR_CONNLIMIT", "PMCD connection limit for this host exceeded"},
	{ErrAgain, "PM_ERR_AGAIN", "Try again. Information not currently available"},
	{ErrIsConn, "PM_ERR_ISCONN", "Already Connected"},
	{ErrNotConn, "PM_ERR_NOTCONN", "Not Connected"},
	{ErrNeedPort, "PM_ERR_NEEDPORT", "A non-null port name is required"},
	{ErrNonLeaf, "PM_ERR_NONLEAF", "Metric name is not a leaf in PMNS"},
	{ErrPMDANotReady, "PM_ERR_PMDANOTREADY", "PMDA is not yet ready to respond to requests"},
	{ErrPMDAReady, "PM_ERR_PMDAREADY", "PMDA is now responsive to requests"},
	{ErrBotch, "PM_ERR_BOTCH", "Internal inconsistency detected or assertion failed"},
	{ErrTooSmall, "PM_ERR_TOOSMALL", "Insufficient elements in list"},
	{ErrTooBig, "PM_ERR_TOOBIG", "Result size exceeded"},
	{ErrFault, "PM_ERR_FAULT", "QA fault injected"},
	{ErrThread, "PM_ERR_THREAD", "Operation not supported for multi-threaded applications"},
	{ErrNoContainer, "PM_ERR_NOCONTAINER", "Container not found"},
	{ErrBadStore, "PM_ERR_BADSTORE", "Bad input to pmstore"},
	{ErrLogOverlap, "PM_ERR_LOGOVERLAP", "Archives overlap in time"},
	{ErrLogHost, "PM_ERR_LOGHOST", "Archives differ by host"},
	{ErrLogChangeType, "PM_ERR_LOGCHANGETYPE", "The type of a metric has changed in an archive"},
	{ErrLogChangeSem, "PM_ERR_LOGCHANGESEM", "The semantics of a metric has changed in an archive"},
	{ErrLogChangeInDom, "PM_ERR_LOGCHANGEINDOM", "The instance domain of a metric has changed in an archive"},
	{ErrLogChangeUnits, "PM_ERR_LOGCHANGEUNITS", "The units of a metric have changed in an archive"},
	{ErrNeedClientCert, "PM_ERR_NEEDCLIENTCERT", "PMCD requires a client certificate"},
	{ErrBadDerive, "PM_ERR_BADDERIVE", "Derived metric definition failed"},
	{ErrNoLabels, "PM_ERR_NOLABELS", "No support for metric label metadata"},
	{ErrPMDAFenced, "PM_ERR_PMDAFENCED", "PMDA is currently fenced and unable to respond to requests"},
	{ErrRecType, "PM_ERR_RECTYPE", "Incorrect record type in an archive"},
	{ErrFeature, "PM_ERR_FEATURE", "Archive feature not supported"},
	{ErrNYI, "PM_ERR_NYI", "Functionality not yet implemented"},
}
