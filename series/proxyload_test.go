package series

import (
	"strconv"
	"testing"
	"time"
)

// TestProxyLoadOptions: stream.maxlen and stream.expire as Redis reads
// the texts PCP's pmproxy passes it (cmd/pmproxy's
// TestDiscoverConfLikePCP compares the outcome with PCP's pmproxy).
func TestProxyLoadOptions(t *testing.T) {
	const notInt = "ERR value is not an integer or out of range"
	now := time.Unix(1_800_000_000, 0)
	for _, c := range []struct {
		conf    Config
		maxlen  int64
		refused string
		expire  int64
		deleted bool
	}{
		{Config{}, 0, "", 0, false},
		{Config{"pmseries.stream.maxlen": "12"}, 12, "", 0, false},
		{Config{"pmseries.stream.maxlen": "0"}, -1, "", 0, false},
		{Config{"pmseries.stream.maxlen": ""}, 0, notInt, 0, false},
		{Config{"pmseries.stream.maxlen": "abc"}, 0, notInt, 0, false},
		{Config{"pmseries.stream.maxlen": "007"}, 0, notInt, 0, false},
		{Config{"pmseries.stream.maxlen": "+7"}, 0, notInt, 0, false},
		{Config{"pmseries.stream.maxlen": "-0"}, 0, notInt, 0, false},
		{Config{"pmseries.stream.maxlen": "1e3"}, 0, notInt, 0, false},
		{Config{"pmseries.stream.maxlen": "99999999999999999999"}, 0, notInt, 0, false},
		{Config{"pmseries.stream.maxlen": "-1"}, 0, "ERR The MAXLEN argument must be >= 0.", 0, false},
		{Config{"pmseries.stream.expire": "5"}, 0, "", 5, false},
		{Config{"pmseries.stream.expire": "0"}, 0, "", 0, true},
		{Config{"pmseries.stream.expire": "-1"}, 0, "", 0, true},
		{Config{"pmseries.stream.expire": "abc"}, 0, "", -1, false},
		{Config{"pmseries.stream.expire": ""}, 0, "", -1, false},
		{Config{"pmseries.stream.expire": "9223372036854775807"}, 0, "", -1, false},
		{Config{"pmseries.stream.expire": "9223372036854775"}, 0, "", -1, false},
		{Config{"pmseries.stream.expire": "9223372036854"}, 0, "", 9223372036854, false},
	} {
		o := c.conf.ProxyLoadOptions(now)
		if o.MaxStreamLen != c.maxlen || o.StreamsRefused != c.refused || o.StreamExpire != c.expire || o.StreamsDeleted != c.deleted {
			t.Errorf("%v: maxlen %d refused %q expire %d deleted %v, want %d %q %d %v", c.conf,
				o.MaxStreamLen, o.StreamsRefused, o.StreamExpire, o.StreamsDeleted, c.maxlen, c.refused, c.expire, c.deleted)
		}
	}
}

// FuzzRedisInt: what redisInt takes is an integer's one spelling.
func FuzzRedisInt(f *testing.F) {
	for _, s := range []string{"0", "-1", "12", "007", "+7", "-0", "", "1e3", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, ok := redisInt(s); ok && strconv.FormatInt(n, 10) != s {
			t.Errorf("%q read as %d", s, n)
		}
	})
}
