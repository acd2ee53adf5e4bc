package sample

import (
	"github.com/gopcp/gopcp/pcp"
)

// eventValue is a value of sample.event.records, no_indom_records or
// highres_records.
func (s *agent) eventValue(item uint32, inst int32) (pcp.Atom, error) {
	return pcp.Atom{}, pcp.ErrValue
}
