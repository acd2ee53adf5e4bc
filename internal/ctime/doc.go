// Package ctime is the C library's broken-down time as glibc gives it in
// the C locale, for the tools whose output PCP's programs make with it:
// strftime(3) with glibc's conversions, flags and widths (pmlogger's
// archive names, pmdate), and mktime(3) with a tm_isdst asked for, which
// reads a local time in the daylight or standard offset requested even
// where that offset is not in force (pmdate's month and year offsets).
package ctime
