// Package mmv is the MMV agent: it serves the metrics of the Memory Mapped
// Value files in a directory ($PCP_TMP_DIR/mmv for PCP's mmv_init, domain
// 70; $PCP_TMP_DIR/pmproxy for pmproxy_init, domain 4), as PCP's pmdammv
// serves them: the same names (prefix.file.metric, or prefix.metric under
// the NoPrefix flag), PMIDs (domain.cluster.item), instance domains
// (cluster<<11 | serial), descriptors, help text, labels and values, and
// the control metrics prefix.control.reload, debug and files.
//
// As pmdammv does, the agent looks before every request whether it must
// rescan the directory: a file's generation numbers changed, the process
// of a Process-flagged file exited, the directory's modification time
// changed, or a non-zero value was stored into prefix.control.reload (or a
// file was found in flux at the last scan).
//
// Files are read through package mmv/mmvfile, which checks every offset
// before it is followed: a bad file is skipped with one log line and the
// others are served. Where pmdammv would follow an unchecked offset and
// take pmcd down, this agent skips the file instead. Mappings are read
// with faults turned into errors (runtime/debug.SetPanicOnFault), so that
// a file truncated under the agent costs a rescan, not the process.
package mmv
