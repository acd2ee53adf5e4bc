package archive

// volume is one data volume in memory.
type volume struct {
	num   int
	label Label
	data  []byte
	// hdr is labelSize: where the records start.
	hdr int
}

// openVolume reads data volume vol and checks its label as
// __pmLogChangeVol does.
func (a *Archive) openVolume(vol int, features bool) (*volume, error) {
	path := a.VolumePath(vol)
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	l, err := checkLabel(f.b, vol, features)
	if err != nil {
		return nil, withFile(err, path)
	}
	return &volume{num: vol, label: l, data: f.b, hdr: labelSize(l.Version())}, nil
}

// volumeSize is the size of volume vol's file content, or -1.
func (a *Archive) volumeSize(vol int) int64 {
	f, err := openFile(a.VolumePath(vol))
	if err != nil {
		return -1
	}
	return int64(len(f.b))
}
