package archive

import "github.com/gopcp/gopcp/pcp"

// Seek is SetMode as libpcp's pmSetMode does it for an archive context:
// the reader is placed with the temporal index at once (__pmLogSetTime),
// and the next Fetch steps record by record to t only when that placing
// left it short of an exact position. This differs from SetMode, which
// defers all placing to the next Fetch, where a record exactly at t is
// found even when the index says it ends the archive; libpcp's fetch
// after pmSetMode to the time of the last indexed record finds nothing.
func (r *Reader) Seek(m Mode, t pcp.Timestamp) error {
	r.mode, r.origin, r.serial = m, t, false
	r.shapeRun = 0
	return r.setTime()
}

// Serial reports whether the reader reads on from its place: after Seek,
// whether the index placed it exactly, so that libpcp's interpolation
// reads from there without first stepping back to the time sought
// (libpcp's ac_serial).
func (r *Reader) Serial() bool { return r.serial }
