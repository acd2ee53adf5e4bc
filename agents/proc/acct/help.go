package acct

// helpText is this package's own help for each acct metric, by item:
// one-line and full. (An array, set at link time: a map literal is built
// at package init, which every tool linking the agent for -L would pay.)
var helpText = [...][2]string{
	0:  {"controlling terminal of the ended process", "The device number of the process's controlling terminal, from its accounting record; 0 for none."},
	1:  {"exit status of the ended process", "The exit status the accounting record gives for the process."},
	2:  {"real user ID of the ended process", "The real user ID in the process's accounting record."},
	3:  {"real group ID of the ended process", "The real group ID in the process's accounting record."},
	4:  {"process ID of the ended process", "The process ID in the accounting record."},
	5:  {"parent process ID of the ended process", "The parent's process ID in the accounting record."},
	6:  {"start time of the ended process", "When the process started, in seconds since the epoch."},
	7:  {"elapsed time of the ended process", "How long the process ran, from start to exit, in seconds."},
	8:  {"user-mode CPU time of the ended process", "CPU time the process spent in user mode, in seconds."},
	9:  {"kernel-mode CPU time of the ended process", "CPU time the process spent in the kernel, in seconds."},
	10: {"average memory use of the ended process", "The process's average memory use as its accounting record gives it, in kilobytes."},
	11: {"characters transferred by the ended process", "Characters read and written by the process, as counted for its accounting record."},
	12: {"blocks read or written by the ended process", "Blocks the process read or wrote, as counted for its accounting record."},
	13: {"minor page faults of the ended process", "Page faults the process took that needed no I/O."},
	14: {"major page faults of the ended process", "Page faults the process took that needed I/O."},
	15: {"swaps of the ended process", "Number of swaps in the process's accounting record."},
	16: {"name of the ended process's terminal", "The controlling terminal's device name below /dev, or \"?\"."},
	17: {"user name of the ended process", "The name of the process's real user, or empty when the user has no name."},
	18: {"group name of the ended process", "The name of the process's real group, or empty when the group has no name."},
	19: {"whether the ended process forked without exec", "1 when the process forked and did not then exec, else 0."},
	20: {"whether the ended process used superuser privileges", "1 when the process used superuser privileges, else 0."},
	21: {"whether the ended process dumped core", "1 when the process dumped core, else 0."},
	22: {"whether the ended process was killed by a signal", "1 when a signal killed the process, else 0."},
	23: {"seconds between attempts to open the accounting file", "After the accounting file could not be opened, how long the agent waits before trying again."},
	24: {"seconds between checks that accounting is still on", "How often the agent checks that the kernel still writes to the accounting file, reopening it when not."},
	25: {"size at which the private accounting file is restarted", "When the agent's own accounting file grows past this many bytes it is emptied and started again."},
	26: {"seconds an ended process stays an instance", "How long after its exit a process remains in the acct instance domain."},
	27: {"seconds between checks of the private file's size", "How often the agent compares its own accounting file with acct.control.file_size_threshold; storing it (not 0) also reopens the file."},
	28: {"whether the agent may turn process accounting on", "When not 0 and the system's accounting file cannot be used, the agent turns the kernel's process accounting on into its own file."},
}
