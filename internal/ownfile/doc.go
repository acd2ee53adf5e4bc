// Package ownfile holds the rules by which gopcp's daemons (pmcd, pmlogger
// and daemon agents) treat the files they share a directory with: logs,
// pid files, port map files and Unix sockets. A daemon may be started
// beside PCP's own, or beside another copy of itself, with the same
// $PCP_LOG_DIR and $PCP_RUN_DIR, so it must never destroy what a live
// process is using:
//
//   - a log is never truncated: the old one is moved aside to NAME.prev,
//     as libpcp's pmOpenLog does, and a new one created; and not even that
//     when another live process holds the log (or its .prev) open
//     (OpenLog);
//   - a pid file naming another live process is neither overwritten nor
//     removed (TakePID, PIDFile.Release);
//   - a Unix socket is removed before binding only when nothing accepts on
//     it (ClearSocket), and bound, given its mode and recorded as one's
//     own in one step (ListenUnix);
//   - at exit a daemon removes only the files it made, recognised by
//     identity, not by name (Owned.Remove): a file some other process put
//     in its place stays.
package ownfile
