package pmapi

// libpcp reads one archive of a multi-archive context at a time (its
// current archive), and an interpolated fetch past the end of the
// archives fails with PM_ERR_EOL only when that current archive is the
// last one. Before that the fetch goes ahead, reads on to the end of the
// last archive and answers with no values; only the next fetch past the
// end fails. These methods keep the interpolator's notion of whether
// libpcp would be reading in the last archive.

// placeLast says where positioning at t (pmSetMode in interpolation
// mode) leaves libpcp: in the first archive that starts at or after t,
// or the last archive when none does.
func (ip *interpolator) placeLast(t float64) bool {
	n := len(ip.c.logs)
	if n < 2 {
		return true
	}
	return t > ip.rel(ip.c.logs[n-2].Label.Start)
}

// fetchedLast says where a fetch at t that went ahead leaves libpcp: in
// the last archive once t is past the end of the one before it, since
// the reads for the values after t end there.
func (ip *interpolator) fetchedLast(t float64) bool {
	n := len(ip.c.logs)
	if n < 2 {
		return true
	}
	end, err := ip.c.logs[n-2].End()
	if err != nil {
		return ip.placeLast(t)
	}
	return t > ip.rel(end)
}

// eol reports an interpolated fetch at t that libpcp fails with
// PM_ERR_EOL: before the start, or past the end while reading in the
// last archive.
func (ip *interpolator) eol(t float64) bool {
	if !ip.pastEnd(t) {
		return false
	}
	return t < -0.001 || ip.inLast
}
