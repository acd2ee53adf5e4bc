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
// A Logger is driven by one goroutine; Close may follow Run from the same
// goroutine.
package pmlogger
