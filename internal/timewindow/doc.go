// Package timewindow reads PCP's time and time window specifications as
// libpcp does (__pmParseHighResTime, pmParseHighResTimeWindow): intervals,
// "@" ctime dates, "-" offsets from the end and free-form dates (package
// getdate), with glibc mktime's reading of skipped and repeated local
// hours and libpcp's error messages. It needs only pmapi's interval
// errors and pcp's timestamps, so that what reads times without options
// (series' query windows, linked into pmproxy) does not link
// internal/cli, which re-exports it for the tools' -S -T -A -O.
package timewindow
