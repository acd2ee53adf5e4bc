package pmlogger

import (
	"context"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// control answers a LOG_CONTROL PDU. Changing or enquiring about logging
// through pmlc is not built yet: the answer is PM_ERR_NYI, which pmlc
// prints.
func (l *Logger) control(ctx context.Context, w *pdu.Writer, m *pdu.LogControl) error {
	return w.WriteMessage(ctx, &pdu.Error{Code: int32(pcp.ErrNYI)}, 0)
}
