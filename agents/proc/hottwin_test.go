package proc

import (
	"slices"
	"testing"
)

// TestHotClusters: the clusters needHot looks at are those hotTwin maps.
func TestHotClusters(t *testing.T) {
	for c := uint32(0); c < maxClusters; c++ {
		_, ok := hotTwin(c)
		if in := slices.Contains(hotClusters[:], c); in != ok {
			t.Errorf("cluster %d: in hotClusters %v, hotTwin %v", c, in, ok)
		}
	}
}
