package mmv

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// ReaderView is what a reader of the file at path sees, for the examples:
// each value as "name[instance] = value", by name.
func ReaderView(path, prefix string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	d, err := decodeFile(b)
	if err != nil {
		return "", err
	}
	return d.print(prefix), nil
}

// DecodedMetric is a metric as the tests' decoder reads it back.
type DecodedMetric = decodedMetric

// ReadDecoded is the metrics of the file at path, for the tests of
// package goruntime's output that live here (mmv_test).
func ReadDecoded(t testing.TB, path string) []DecodedMetric { return readDecoded(t, path).Metrics }

// StartMMVBed is startMMVBed for the external tests.
func StartMMVBed(t *testing.T) (*testbed.PMCD, string) { return startMMVBed(t) }
