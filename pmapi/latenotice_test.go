package pmapi

import (
	"errors"
	"net"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// slowNoticePMCD is a pmcd answering its n-th FETCH with n as the value,
// after delays[n-1] (none past the list's end), the second one preceded
// by a state change notice sent apart from its result.
func slowNoticePMCD(t *testing.T, delays []time.Duration) string {
	t.Helper()
	return fetchPMCD(t, func(conn net.Conn, n int, req *pdu.Fetch) error {
		if n <= len(delays) {
			time.Sleep(delays[n-1])
		}
		if n == 2 {
			if _, err := conn.Write((&pdu.Error{Code: 1}).Append(nil, 0)); err != nil {
				return err
			}
		}
		_, err := conn.Write(pdu.AppendResult(nil, 0, fetchAnswer(req, int32(n))))
		return err
	})
}

// TestLateNoticeOwesResult: a state change notice read after the wait
// has passed fails the fetch, and the result that follows it is owed,
// not taken for the next fetch's. The first fetch's reply is held past
// the wait, so the second one's read begins late (after dropping it) and
// meets its notice in time for the read but after the wait. Whatever the
// load makes of the timing, every fetch that succeeds has its own value.
func TestLateNoticeOwesResult(t *testing.T) {
	const wait = time.Second
	addr := slowNoticePMCD(t, []time.Duration{wait * 3 / 2, wait * 7 / 10})
	ctx := testContext(t)
	c, err := NewHostContext(ctx, "pcp://"+addr, WithRequestTimeout(wait))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pmids := []pcp.PMID{pcp.NewPMID(29, 0, 1)}
	ok := 0
	for n := int32(1); n <= 6 && ok < 2; n++ {
		var r pcp.Result
		_, err := c.Fetch(ctx, pmids, &r)
		switch {
		case errors.Is(err, pcp.ErrTimeout) && c.conn != nil:
			continue // a wait missed (the first two's are, unless the load is high)
		case err != nil:
			t.Fatalf("fetch %d: %v", n, err)
		}
		if len(r.Sets) != 1 || len(r.Sets[0].Values) != 1 || r.Sets[0].Values[0].LVal != n {
			t.Fatalf("fetch %d: %+v; want its own value %d", n, r.Sets, n)
		}
		ok++
	}
	if ok == 0 {
		t.Fatal("no fetch succeeded")
	}
}
