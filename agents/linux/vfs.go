package linux

// vfsFiles are /proc/sys/fs files and the metrics their numbers feed.
var vfsFiles = []struct {
	file    string
	metrics []string
}{
	{"sys/fs/file-nr", []string{"vfs.files.count", "vfs.files.free", "vfs.files.max"}},
	{"sys/fs/inode-state", []string{"vfs.inodes.count", "vfs.inodes.free"}},
	{"sys/fs/dentry-state", []string{"vfs.dentry.count", "vfs.dentry.free"}},
	{"sys/fs/aio-max-nr", []string{"vfs.aio.max"}},
	{"sys/fs/aio-nr", []string{"vfs.aio.count"}},
}

func (x *Linux) bindVFS() {
	i := 0
	for _, f := range vfsFiles {
		for _, m := range f.metrics {
			slot := i
			x.bind(m, srcVFS, func(int32) (pcpAtom, error) { return i32(x.vfs[slot]), nil })
			i++
		}
	}
	// Files that cannot be read leave zeros, as PCP's agent reports.
	x.sources[srcVFS] = func() error {
		x.vfs = [9]int64{}
		i := 0
		for _, f := range vfsFiles {
			b, err := x.readProc(f.file)
			if err != nil {
				i += len(f.metrics)
				continue
			}
			for range f.metrics {
				var v []byte
				v, b = nextField(b)
				x.vfs[i] = parseI64(v)
				i++
			}
		}
		return nil
	}
}
