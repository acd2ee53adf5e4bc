package pdu

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/fixture"
	"github.com/gopcp/gopcp/pcp"
)

// benchResult is fixture.MixedResult: 100 metrics × 10 instances of
// mixed in-situ and block values.
func benchResult() *pcp.Result { return fixture.MixedResult() }

const benchValues = 100 * 10

func reportValues(b *testing.B) {
	b.ReportMetric(float64(benchValues)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
}

func BenchmarkResultEncode(b *testing.B) {
	r := benchResult()
	buf := AppendResult(nil, 0, r)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendResult(buf[:0], 0, r)
	}
	reportValues(b)
}

func BenchmarkResultDecode(b *testing.B) {
	pdu := AppendResult(nil, 0, benchResult())
	r := new(pcp.Result)
	b.SetBytes(int64(len(pdu)))
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeResultInto(r, pdu); err != nil {
			b.Fatal(err)
		}
	}
	reportValues(b)
}

// BenchmarkResultDecodeFresh decodes into a new Result each time, the cost
// a caller pays without reuse.
func BenchmarkResultDecodeFresh(b *testing.B) {
	pdu := AppendResult(nil, 0, benchResult())
	b.SetBytes(int64(len(pdu)))
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeResultInto(new(pcp.Result), pdu); err != nil {
			b.Fatal(err)
		}
	}
	reportValues(b)
}

func BenchmarkHighResResultEncode(b *testing.B) {
	r := benchResult()
	buf := AppendHighResResult(nil, 0, r)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendHighResResult(buf[:0], 0, r)
	}
	reportValues(b)
}

func BenchmarkHighResResultDecode(b *testing.B) {
	pdu := AppendHighResResult(nil, 0, benchResult())
	r := new(pcp.Result)
	b.SetBytes(int64(len(pdu)))
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeHighResResultInto(r, pdu); err != nil {
			b.Fatal(err)
		}
	}
	reportValues(b)
}
