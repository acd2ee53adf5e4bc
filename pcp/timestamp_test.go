package pcp_test

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func TestTimestampCompare(t *testing.T) {
	tests := []struct {
		a, b pcp.Timestamp
		want int
	}{
		{pcp.Timestamp{}, pcp.Timestamp{}, 0},
		{pcp.Timestamp{Sec: 1}, pcp.Timestamp{Sec: 2}, -1},
		{pcp.Timestamp{Sec: 2}, pcp.Timestamp{Sec: 1, Nsec: 999999999}, 1},
		{pcp.Timestamp{Sec: 5, Nsec: 1}, pcp.Timestamp{Sec: 5, Nsec: 2}, -1},
		{pcp.Timestamp{Sec: 5, Nsec: 3}, pcp.Timestamp{Sec: 5, Nsec: 2}, 1},
		{pcp.Timestamp{Sec: -1, Nsec: 5}, pcp.Timestamp{Sec: 0}, -1},
	}
	for _, tt := range tests {
		if got := tt.a.Compare(tt.b); got != tt.want {
			t.Errorf("%v.Compare(%v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := tt.b.Compare(tt.a); got != -tt.want {
			t.Errorf("%v.Compare(%v) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}
