package proc

import "strconv"

// OptionsFromEnv are the options PCP's agent takes from its variables:
// PROC_STATSPATH, PROC_HERTZ, PROC_PAGESIZE, PROC_THREADS and
// PROC_ACCESS, hotproc's configuration file in $PCP_PMDAS_DIR/proc
// (default /var/lib/pcp/pmdas), and the accounting files
// PCP_PACCT_SYSTEM_PATH and $PCP_VAR_DIR/pmcd/pacct, and pmdaroot's socket
// $PCP_VAR_DIR/pmcd/root.socket, looked up with
// getenv (in a command, one that reads pcp.conf as libpcp's pmGetConfig
// does for the PCP_ names: the environment first).
func OptionsFromEnv(getenv func(string) string) Options {
	dir := getenv("PCP_PMDAS_DIR")
	if dir == "" {
		dir = "/var/lib/pcp/pmdas"
	}
	n := func(name string) uint64 {
		v, _ := strconv.ParseUint(getenv(name), 10, 64)
		return v
	}
	o := Options{
		StatsPath:      getenv("PROC_STATSPATH"),
		Hertz:          n("PROC_HERTZ"),
		PageSize:       n("PROC_PAGESIZE"),
		Threads:        n("PROC_THREADS") != 0,
		AllAccess:      n("PROC_ACCESS") != 0,
		HotprocConfig:  dir + "/proc/hotproc.conf",
		AcctSystemFile: getenv("PCP_PACCT_SYSTEM_PATH"),
	}
	if v := getenv("PCP_VAR_DIR"); v != "" {
		o.AcctPrivateFile = v + "/pmcd/pacct"
		o.RootSocket = v + "/pmcd/root.socket"
	}
	return o
}
