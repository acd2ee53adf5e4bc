package series

import (
	"context"
	"errors"
	"testing"

	"github.com/gopcp/gopcp/series/resp"
)

// cancelledRedis fails every command as a client fails it once its
// context has ended.
type cancelledRedis struct{}

func (cancelledRedis) Do(ctx context.Context, args ...string) (resp.Value, error) {
	return resp.Value{}, ctx.Err()
}

func (cancelledRedis) Pipeline(ctx context.Context, cmds [][]string) ([]resp.Value, error) {
	return nil, ctx.Err()
}

func (cancelledRedis) Close() error { return nil }

// TestListingCancelledKeepsCause: a listing whose HLEN fails because its
// context was cancelled is said in libpcp_web's words (no reply: "none"),
// and is still, for errors.Is, a Redis failure and the cancel.
func TestListingCancelledKeepsCause(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := NewStore(cancelledRedis{})
	for _, list := range []func() error{
		func() error { _, err := s.NamesMatching(ctx, "metric.name", "*"); return err },
		func() error { _, err := s.AllNames(ctx, "inst.name"); return err },
	} {
		err := list()
		if err == nil || err.Error() != "[Bad response] expected array from string map HVALS (reply=none)" {
			t.Errorf("error %v, want libpcp_web's words", err)
		}
		if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrRedis) {
			t.Errorf("error %v: errors.Is Canceled %v, ErrRedis %v", err, errors.Is(err, context.Canceled), errors.Is(err, ErrRedis))
		}
	}
}
