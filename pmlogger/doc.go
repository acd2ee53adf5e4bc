// Package pmlogger is PCP's archive logger as a library: it parses
// pmlogger's configuration language (ParseConfig), resolves the requested
// metrics and instances against a pmapi.Source and groups them into
// fetch tasks by interval, and records them into an archive with package
// archive's Writer the way PCP 6.0.3's pmlogger does (New, Run, Close):
// the same prologue and epilogue records, metadata written the first
// time each metric, label set, help text or instance domain is met,
// instance domain changes as full or version 3 delta records, the same
// temporal index policy, volume switching by samples, size or time, and
// a clean archive when stopped. Each record reaches the disk in one write
// before the next begins, so an archive cut off by SIGKILL reads up to
// its last complete record.
//
// pmlc is served as PCP's pmlogger serves it (ServeControl, on the TCP
// port of ListenControl and the Unix-domain socket of ListenLocal): one
// client at a time, judged by the configuration's [access] section
// (BuildAccess, libpcp's host rules), status, new volume, query and log
// requests, each log request written to the log with PCP's words. The
// port map file and the primary logger's links (WritePortMap,
// PrimarySocket) let PCP's tools find a running logger.
//
// A Logger is driven by one goroutine; Close may follow Run from the same
// goroutine. Serve does both, with the goroutines that answer pmlc, volume
// switch requests and a recording session while Run runs.
package pmlogger
