package getopt

import (
	"math"
	"math/big"
	"time"

	"github.com/gopcp/gopcp/internal/cstrtod"
)

// EnvTimeout reads a timeout variable's value as libpcp reads
// PMCD_CONNECT_TIMEOUT and PMCD_REQUEST_TIMEOUT: strtod must take the
// whole value (leading white space and the empty value, strtod's zero,
// included; trailing white space not) and the number must not be
// negative, else ok is false: libpcp then warns "ignored bad NAME =
// 'value'" and keeps its default. An accepted number of seconds becomes
// a timeval as libpcp's pmtimevalFromReal makes one, whole seconds cut
// and the fraction rounded to the nearest microsecond in x86-64's long
// double, so 5e-7 is zero.
//
// Zero is the answer, meaning no limit, for a wait past a Duration's
// reach: libpcp keeps 1e10 s as it is, effectively forever, and its
// conversion of an infinity goes wrong (a negative wait, every request
// failing at once), where the value asks for no limit. A NaN, which
// libpcp takes without a warning and turns into the same negative
// wait, is refused here (ok false) so that the default stays.
func EnvTimeout(v string) (d time.Duration, ok bool) {
	secs, end, _ := cstrtod.Parse(v)
	if end != len(v) || secs < 0 || math.IsNaN(secs) {
		return 0, false
	}
	const maxSecs = math.MaxInt64 / int64(time.Second)
	if secs >= float64(maxSecs)+1 {
		return 0, true
	}
	whole := int64(secs)
	usec := fractionMicros(secs - float64(whole))
	if whole > maxSecs || (whole == maxSecs && usec*int64(time.Microsecond) > math.MaxInt64%int64(time.Second)) {
		return 0, true
	}
	return time.Duration(whole)*time.Second + time.Duration(usec)*time.Microsecond, true
}

// TimevalFromReal is libpcp's pmtimevalFromReal as a Duration: whole
// seconds cut, the fraction rounded to the nearest microsecond in
// x86-64's long double (5e-7 is zero). secs is not negative and below a
// Duration's reach.
func TimevalFromReal(secs float64) time.Duration {
	whole := int64(secs)
	return time.Duration(whole)*time.Second + time.Duration(fractionMicros(secs-float64(whole)))*time.Microsecond
}

// fractionMicros is pmtimevalFromReal's tv_usec for a fraction of a
// second: (long)(frac * 1e6 + 0.5) with each step rounded to the 64-bit
// significand of x86-64's long double, as gcc computes it there.
func fractionMicros(frac float64) int64 {
	x := new(big.Float).SetPrec(64).Mul(big.NewFloat(frac), big.NewFloat(1e6))
	x.Add(x, big.NewFloat(0.5))
	n, _ := x.Int64()
	return n
}
