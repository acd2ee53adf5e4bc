package linux

func addMoreHelp() {
	for name, h := range moreHelp {
		metricHelp[name] = h
	}
	for serial, h := range map[int][2]string{
		nfsInDom:     {"NFS version 2 operations", "One instance per NFSv2 procedure."},
		nfs3InDom:    {"NFS version 3 operations", "One instance per NFSv3 procedure."},
		nfs4CliInDom: {"NFS version 4 client operations", "One instance per NFSv4 operation the client counts."},
		nfs4SvrInDom: {"NFS version 4 server operations", "One instance per NFSv4 operation the server counts."},
		ipcShmInDom:  {"Shared memory segments", "One instance per System V shared memory segment, named by its id."},
		ipcMsgInDom:  {"Message queues", "One instance per System V message queue, named by its id."},
		ipcSemInDom:  {"Semaphore sets", "One instance per System V semaphore set, named by its id."},
		ttyInDom:     {"Serial ports", "One instance per serial port with a known UART, named by its number."},
		tapeInDom:    {"Tape drives", "One instance per SCSI tape drive with statistics (stN)."},
		scsiInDom:    {"SCSI devices", "One instance per SCSI device, named scsiH:C:I:L."},
		zramInDom:    {"Compressed RAM devices", "One instance per zram device."},
	} {
		indomHelps[serial] = h
	}
	families = append(families, struct {
		prefix string
		help   func(rest string) (string, string, bool)
	}{"zram.", zramHelp})
}

func zramHelp(rest string) (string, string, bool) {
	if t, ok := diskFieldText[rest]; ok {
		one := "Compressed RAM device " + t[0]
		return one, t[1] + "\nFor each zram device, from /proc/diskstats (capacity from sysfs).", true
	}
	t, ok := map[string]string{
		"io_stat.failed.reads":         "reads that failed",
		"io_stat.failed.writes":        "writes that failed",
		"io_stat.invalid":              "requests rejected as not page-aligned",
		"io_stat.notify_free":          "freed-slot notifications from swap or discards",
		"mm_stat.data_size.original":   "Kbytes of data stored, before compression",
		"mm_stat.data_size.compressed": "Kbytes the stored data takes compressed",
		"mm_stat.mem.used_total":       "Kbytes of memory the device uses, overhead included",
		"mm_stat.mem.limit":            "Kbytes of memory the device may use (0 for no limit)",
		"mm_stat.mem.max_used":         "most Kbytes of memory the device has used",
		"mm_stat.pages.same":           "Kbytes of pages stored as one repeated value",
		"mm_stat.pages.compacted":      "Kbytes freed by compaction",
		"mm_stat.pages.huge":           "Kbytes of pages stored uncompressed (incompressible)",
		"bd_stat.count":                "Kbytes written back to the backing device and held there",
		"bd_stat.reads":                "Kbytes read from the backing device",
		"bd_stat.writes":               "Kbytes written to the backing device",
	}[rest]
	if !ok {
		return "", "", false
	}
	return "Compressed RAM device " + t, "For each zram device, " + t + ", from its sysfs io_stat, mm_stat or\nbd_stat file.", true
}

var moreHelp map[string][2]string

func makeMoreHelp() map[string][2]string {
	return map[string][2]string{
		"vfs.files.count":  {"File handles allocated", "Number of file handles the kernel has allocated, from /proc/sys/fs/file-nr."},
		"vfs.files.free":   {"Allocated file handles not in use", "File handles allocated but unused, from /proc/sys/fs/file-nr (0 on\nkernels since 2.6)."},
		"vfs.files.max":    {"Most file handles the kernel will allocate", "The file handle limit, from /proc/sys/fs/file-nr."},
		"vfs.inodes.count": {"Inodes allocated", "Number of inodes the kernel has allocated, from /proc/sys/fs/inode-state."},
		"vfs.inodes.free":  {"Allocated inodes not in use", "Inodes allocated but unused, from /proc/sys/fs/inode-state."},
		"vfs.dentry.count": {"Directory cache entries", "Number of directory cache entries, from /proc/sys/fs/dentry-state."},
		"vfs.dentry.free":  {"Unused directory cache entries", "Directory cache entries not in use, from /proc/sys/fs/dentry-state."},
		"vfs.aio.count":    {"Asynchronous I/O contexts in use", "Number of asynchronous I/O events allocated, from /proc/sys/fs/aio-nr."},
		"vfs.aio.max":      {"Most asynchronous I/O events allowed", "The asynchronous I/O event limit, from /proc/sys/fs/aio-max-nr."},

		"network.all.in.bytes":      {"Bytes received on physical interfaces", "Bytes received, summed over interfaces not named by the virtual\ninterface pattern (interfaces.conf: loopback, bonds, bridges, ...)."},
		"network.all.in.packets":    {"Packets received on physical interfaces", "Packets received, summed over physical interfaces."},
		"network.all.in.errors":     {"Receive errors on physical interfaces", "Receive errors, summed over physical interfaces."},
		"network.all.in.drops":      {"Received packets dropped on physical interfaces", "Received packets dropped, summed over physical interfaces."},
		"network.all.out.bytes":     {"Bytes sent on physical interfaces", "Bytes transmitted, summed over physical interfaces."},
		"network.all.out.packets":   {"Packets sent on physical interfaces", "Packets transmitted, summed over physical interfaces."},
		"network.all.out.errors":    {"Transmit errors on physical interfaces", "Transmit errors, summed over physical interfaces."},
		"network.all.out.drops":     {"Outgoing packets dropped on physical interfaces", "Outgoing packets dropped, summed over physical interfaces."},
		"network.all.total.bytes":   {"Bytes received and sent on physical interfaces", "Bytes received plus transmitted, summed over physical interfaces."},
		"network.all.total.packets": {"Packets received and sent on physical interfaces", "Packets received plus transmitted, summed over physical interfaces."},
		"network.all.total.errors":  {"Errors on physical interfaces", "Receive plus transmit errors, summed over physical interfaces."},
		"network.all.total.drops":   {"Packets dropped on physical interfaces", "Received plus outgoing packets dropped, summed over physical interfaces."},

		"kernel.all.nusers":    {"Users logged in", "Login sessions of users, counted from utmp."},
		"kernel.all.nroots":    {"Sessions of root", "Login sessions of the superuser, counted from utmp."},
		"kernel.all.nsessions": {"Login records", "Entries of utmp, login sessions and system records alike (records of\nuser sessions without a name excluded)."},
		"pmda.uname":           {"The kernel's identity in one string", "uname -a's fields: system name, node name, release, version and\nmachine, separated by spaces."},
		"pmda.version":         {"PCP release this agent matches", "The PCP version whose Linux agent this agent reproduces."},
		"disk.md.status":       {"State of each md device, as mdadm's test would report it", "The state of each software RAID device as the exit status of\n\"mdadm --detail --test\" times 256: 0 working, 256 degraded, 512 not\nrunning, 1024 state unreadable; -1 when mdadm is not installed\n($LINUX_MDADM, default /sbin/mdadm). Taken from the array's sysfs state;\nno program is run."},
		"hinv.map.scsi":        {"Block device of each SCSI device", "The block device name (sda, sr0, ...) of each SCSI device listed in\n/proc/scsi/scsi, from sysfs; instances are named by address and type."},

		"tty.serial.tx":      {"Characters sent on each serial port", "Count of characters transmitted on each serial port, from\n/proc/tty/driver/serial (root only)."},
		"tty.serial.rx":      {"Characters received on each serial port", "Count of characters received on each serial port."},
		"tty.serial.frame":   {"Framing errors on each serial port", "Count of framing errors on each serial port."},
		"tty.serial.parity":  {"Parity errors on each serial port", "Count of parity errors on each serial port."},
		"tty.serial.brk":     {"Breaks on each serial port", "Count of break conditions on each serial port."},
		"tty.serial.overrun": {"Overruns on each serial port", "Count of receive overruns on each serial port."},
		"tty.serial.irq":     {"Interrupt of each serial port", "The interrupt line each serial port uses."},

		"tape.dev.in_flight":      {"Tape I/O in progress", "Requests outstanding on each tape drive."},
		"tape.dev.io_ns":          {"Time each tape drive spent on I/O", "Nanoseconds each tape drive spent on requests of all kinds."},
		"tape.dev.other_cnt":      {"Tape requests other than reads and writes", "Count of other requests (such as positioning) on each tape drive."},
		"tape.dev.read_byte_cnt":  {"Bytes read from each tape drive", "Bytes read from each tape drive."},
		"tape.dev.read_cnt":       {"Reads from each tape drive", "Count of read requests on each tape drive."},
		"tape.dev.read_ns":        {"Time each tape drive spent reading", "Nanoseconds spent on reads by each tape drive."},
		"tape.dev.resid_cnt":      {"Residual counts on each tape drive", "Count of requests that ended with a residual (partial transfer)."},
		"tape.dev.write_byte_cnt": {"Bytes written to each tape drive", "Bytes written to each tape drive."},
		"tape.dev.write_cnt":      {"Writes to each tape drive", "Count of write requests on each tape drive."},
		"tape.dev.write_ns":       {"Time each tape drive spent writing", "Nanoseconds spent on writes by each tape drive."},

		"ipc.msg.sz_pool":       {"Message pool size in Kbytes", "Size of the System V message pool (msgpool of IPC_INFO)."},
		"ipc.msg.mapent":        {"Entries in the message map", "Number of entries in the message map (msgmap of IPC_INFO)."},
		"ipc.msg.max_msgsz":     {"Largest message in bytes", "Largest single message allowed (msgmax)."},
		"ipc.msg.max_defmsgq":   {"Default largest queue in bytes", "Default maximum size of a message queue (msgmnb)."},
		"ipc.msg.max_msgqid":    {"Most message queues", "Most message queue identifiers system-wide (msgmni)."},
		"ipc.msg.max_msgseg":    {"Message segment size", "Size of a message segment (msgssz)."},
		"ipc.msg.num_smsghdr":   {"Most message headers", "Number of system message headers (msgtql)."},
		"ipc.msg.max_seg":       {"Most message segments", "Most message segments (msgseg)."},
		"ipc.msg.used_queues":   {"Message queues in use", "Number of message queues that exist (from MSG_INFO)."},
		"ipc.msg.tot_msg":       {"Messages queued", "Messages in all queues (from MSG_INFO)."},
		"ipc.msg.tot_bytes":     {"Bytes queued", "Bytes in all message queues (from MSG_INFO)."},
		"ipc.msg.key":           {"Key of each message queue", "The key of each message queue, in hexadecimal."},
		"ipc.msg.owner":         {"Owner of each message queue", "User name (or number) owning each message queue."},
		"ipc.msg.perms":         {"Permissions of each message queue", "Access permissions of each message queue, its octal digits read as a\ndecimal number (644 for rw-r--r--)."},
		"ipc.msg.msgsz":         {"Bytes queued on each message queue", "Bytes of messages on each queue."},
		"ipc.msg.messages":      {"Messages on each message queue", "Number of messages on each queue."},
		"ipc.msg.last_send_pid": {"Last sender on each message queue", "Process that last sent to each queue."},
		"ipc.msg.last_recv_pid": {"Last receiver on each message queue", "Process that last received from each queue."},

		"ipc.sem.max_semmap":  {"Entries in the semaphore map", "Entries in the semaphore map (semmap of IPC_INFO)."},
		"ipc.sem.max_semid":   {"Most semaphore sets", "Most semaphore identifiers system-wide (semmni)."},
		"ipc.sem.max_sem":     {"Most semaphores", "Most semaphores system-wide (semmns)."},
		"ipc.sem.num_undo":    {"Undo structures", "Number of undo structures system-wide (semmnu)."},
		"ipc.sem.max_perid":   {"Most semaphores per set", "Most semaphores in one set (semmsl)."},
		"ipc.sem.max_ops":     {"Most operations per semop call", "Most operations in one semop call (semopm)."},
		"ipc.sem.max_undoent": {"Most undo entries per process", "Most undo entries per process (semume)."},
		"ipc.sem.sz_semundo":  {"Size of an undo structure", "Size of the undo structure (semusz)."},
		"ipc.sem.max_semval":  {"Largest semaphore value", "Largest value a semaphore can hold (semvmx)."},
		"ipc.sem.max_exit":    {"Largest adjust-on-exit value", "Largest value recorded for adjustment on exit (semaem)."},
		"ipc.sem.used_sem":    {"Semaphore sets in use", "Number of semaphore sets that exist (from SEM_INFO)."},
		"ipc.sem.tot_sem":     {"Semaphores in use", "Number of semaphores in all sets (from SEM_INFO)."},
		"ipc.sem.key":         {"Key of each semaphore set", "The key of each semaphore set, in hexadecimal."},
		"ipc.sem.owner":       {"Owner of each semaphore set", "User name (or number) owning each semaphore set."},
		"ipc.sem.perms":       {"Permissions of each semaphore set", "Access permissions of each semaphore set, octal digits read as decimal."},
		"ipc.sem.nsems":       {"Semaphores in each set", "Number of semaphores in each set."},

		"ipc.shm.max_segsz":       {"Largest shared memory segment", "Largest shared memory segment in bytes (shmmax of IPC_INFO)."},
		"ipc.shm.min_segsz":       {"Smallest shared memory segment", "Smallest shared memory segment in bytes (shmmin)."},
		"ipc.shm.max_seg":         {"Most shared memory segments", "Most shared memory segments system-wide (shmmni)."},
		"ipc.shm.max_segproc":     {"Most segments per process", "Most shared memory segments one process may attach (shmseg)."},
		"ipc.shm.max_shmsys":      {"Most shared memory in pages", "Most shared memory system-wide, in pages (shmall)."},
		"ipc.shm.tot":             {"Shared memory allocated in pages", "Pages of shared memory allocated (from SHM_INFO)."},
		"ipc.shm.rss":             {"Shared memory resident in pages", "Pages of shared memory resident (from SHM_INFO)."},
		"ipc.shm.swp":             {"Shared memory swapped in pages", "Pages of shared memory swapped out (from SHM_INFO)."},
		"ipc.shm.used_ids":        {"Shared memory segments in use", "Number of shared memory segments that exist (from SHM_INFO)."},
		"ipc.shm.swap_attempts":   {"Shared memory swap attempts", "Swap attempts on shared memory (always 0 on Linux)."},
		"ipc.shm.swap_successes":  {"Shared memory swap successes", "Successful swaps of shared memory (always 0 on Linux)."},
		"ipc.shm.key":             {"Key of each shared memory segment", "The key of each segment, in hexadecimal."},
		"ipc.shm.owner":           {"Owner of each shared memory segment", "User name (or number) owning each segment."},
		"ipc.shm.perms":           {"Permissions of each shared memory segment", "Access permissions of each segment, octal digits read as decimal."},
		"ipc.shm.segsz":           {"Size of each shared memory segment", "Size of each segment in bytes."},
		"ipc.shm.nattch":          {"Attachments of each shared memory segment", "Number of processes attached to each segment."},
		"ipc.shm.status":          {"State of each shared memory segment", "\"dest\" when a segment is marked for destruction, \"locked\" when locked\nin memory, both or neither."},
		"ipc.shm.creator_pid":     {"Creator of each shared memory segment", "Process that created each segment."},
		"ipc.shm.last_access_pid": {"Last user of each shared memory segment", "Process that last attached or detached each segment."},

		"rpc.client.rpccnt":         {"RPC calls by the NFS client", "Count of RPC calls made by the NFS client, from /proc/net/rpc/nfs."},
		"rpc.client.rpcretrans":     {"RPC retransmissions by the NFS client", "Count of RPC calls the client retransmitted."},
		"rpc.client.rpcauthrefresh": {"RPC credential refreshes by the NFS client", "Count of authentication refreshes."},
		"rpc.client.netcnt":         {"Network packets of the NFS client", "Packets the NFS client handled."},
		"rpc.client.netudpcnt":      {"UDP packets of the NFS client", "UDP packets the NFS client handled."},
		"rpc.client.nettcpcnt":      {"TCP packets of the NFS client", "TCP packets the NFS client handled."},
		"rpc.client.nettcpconn":     {"TCP connections of the NFS client", "TCP connections the NFS client made."},
	}
}

func addNFSHelp() {
	for f, t := range map[string]string{
		"rpccnt": "RPC calls received", "rpcerr": "RPC calls rejected", "rpcbadfmt": "RPC calls with a bad format",
		"rpcbadauth": "RPC calls failing authentication", "rpcbadclnt": "RPC calls from bad clients",
		"rchits": "reply cache hits", "rcmisses": "reply cache misses", "rcnocache": "replies not cached",
		"fh_cached": "file handles found cached", "fh_valid": "file handles validated", "fh_fixup": "file handles fixed up",
		"fh_lookup": "file handle lookups", "fh_stale": "stale file handles", "fh_concurrent": "concurrent file handle accesses",
		"netcnt": "network packets", "netudpcnt": "UDP packets", "nettcpcnt": "TCP packets", "nettcpconn": "TCP connections accepted",
		"fh_anon": "anonymous file handles", "fh_nocache_dir": "uncached directory file handles",
		"fh_nocache_nondir": "uncached non-directory file handles", "io_read": "bytes read for clients",
		"io_write": "bytes written for clients", "th_cnt": "server threads", "th_fullcnt": "times all server threads were busy",
		"ra_size": "read-ahead cache size", "ra_hits": "read-ahead cache hits", "ra_misses": "read-ahead cache misses",
	} {
		metricHelp["rpc.server."+f] = [2]string{"NFS server " + t, "The NFS server's " + t + ", from /proc/net/rpc/nfsd."}
	}
	for _, g := range []struct{ group, v string }{{"nfs", "2"}, {"nfs3", "3"}, {"nfs4", "4"}} {
		for _, side := range []string{"client", "server"} {
			file := "/proc/net/rpc/nfs"
			if side == "server" {
				file += "d"
			}
			metricHelp[g.group+"."+side+".calls"] = [2]string{"NFSv" + g.v + " " + side + " requests, all operations",
				"Requests of every NFS version " + g.v + " operation the " + side + " handled, summed, from " + file + "."}
			metricHelp[g.group+"."+side+".reqs"] = [2]string{"NFSv" + g.v + " " + side + " requests per operation",
				"For each NFS version " + g.v + " operation, the requests the " + side + " handled, from " + file + "."}
		}
	}
}
