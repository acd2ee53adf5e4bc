package series

import (
	"github.com/gopcp/gopcp/pcp"
)

func pcpTS(sec, nsec int64) pcp.Timestamp { return pcp.Timestamp{Sec: sec, Nsec: int32(nsec)} }
