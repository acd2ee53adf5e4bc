// Package acct serves the acct.* metrics of PCP's proc agent (pmdaproc,
// domain 3): processes that ended lately, read from the kernel's process
// accounting file (acct(5), version 3 records), with PCP 6.0.3's names,
// PMIDs, descriptors (pcpdesc_table.go, generated from PCP's own pmdaproc
// by ../../internal/gendesc), instance domain (serial 40: one instance
// per process, numbered by PID and named by command) and control metrics.
//
// # Shape
//
// A Source holds the accounting state of one agent. The proc agent routes
// to it by PMID cluster (Cluster) and instance domain serial (InDomSerial):
//
//	ac := acct.New(acct.Options{SystemFile: pcpconf's PCP_PACCT_SYSTEM_PATH, PrivateFile: $PCP_VAR_DIR/pmcd/pacct})
//	metrics = append(metrics, ac.Metrics()...)
//	indoms = append(indoms, ac.InDoms()...)
//	// Refresh: if the request has a cluster-70 PMID (and the client may see it): ac.Refresh()
//	// Fetch: cluster 70 -> ac.Fetch(m, inst); Instances: serial 40 -> ac.Refresh(); ac.Instances()
//	// Store: cluster 70 -> ac.Store(set)
//	// Close when the agent ends (turns private accounting off again)
//
// Credentials are the proc agent's to check, as pmdaproc checks them: it
// refreshes acct only for a client whose user pmcd passed on (or with -A,
// PROC_ACCESS), and lets only root (user 0) store into cluster 70, other
// clients getting PM_ERR_PERMISSION. The test-only agent in
// ../cgroup/agent_test.go shows both rules in a few lines.
//
// # Rules followed (pmdaproc's acct.c)
//
// The system accounting file is opened read-only, and used only when
// accounting is on, which is checked by running a short process and
// seeing the file grow (Options.Check). When it cannot be used and
// acct.control.enable_acct is set, the agent turns accounting on into its
// private file with acct(2), as pmdaproc does, and off again on Close.
// Records are read as they are appended; a process is an instance for
// acct.control.lifetime seconds after it ended, at most 5000 at a time (a
// ring, as pmdaproc keeps them). A record of another version, a short read
// or a file that shrank reopens the file.
package acct
