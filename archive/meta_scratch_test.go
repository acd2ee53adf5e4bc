package archive

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestInDomScratch decodes instance domain records of 200 new names
// with the loader's scratch storage and without: the same instance
// domains, and with the scratch, once it has grown, four allocations a
// record (the InDom, its identifiers, its names and their one string)
// where building the names' bytes and places afresh took more.
func TestInDomScratch(t *testing.T) {
	const n = 200
	words := []any{make([]byte, 12), 5, n}
	var names strings.Builder
	var idx []any
	for i := range n {
		words = append(words, i)
		idx = append(idx, names.Len())
		fmt.Fprintf(&names, "instance-%d\x00", i)
	}
	words = append(words, idx...)
	words = append(words, names.String())
	rec := metaRec(TypeInDom, words...)
	body := rec[8 : len(rec)-4]
	decode := func(sc *inDomScratch) *InDom {
		d := metaDecoder(body, 0)
		id, _, _ := decodeInDomAfter(&d, TypeInDom, nil, sc)
		if d.Err != nil {
			t.Fatal(d.Err)
		}
		return id
	}
	var sc inDomScratch
	want := decode(nil)
	for range 3 {
		if got := decode(&sc); !reflect.DeepEqual(got, want) {
			t.Fatalf("with the scratch storage\n got %+v\nwant %+v", got, want)
		}
	}
	if len(want.Names) != n || want.Names[n-1] != fmt.Sprintf("instance-%d", n-1) {
		t.Fatalf("names %q", want.Names)
	}
	if a := testing.AllocsPerRun(20, func() { decode(&sc) }); a > 4 {
		t.Errorf("%v allocations a record with the scratch storage", a)
	}
	if a := testing.AllocsPerRun(20, func() { decode(nil) }); a <= 4 {
		t.Errorf("only %v allocations a record without it: the test shows nothing", a)
	}
}
