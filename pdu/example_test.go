package pdu_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// A FETCH PDU encoded as a client sends it and decoded as pmcd reads it:
// the header, then the message through the dispatcher, which picks the
// type from the header.
func Example() {
	req := &pdu.Fetch{Context: 0, PMIDs: []pcp.PMID{pcp.NewPMID(60, 2, 0), pcp.NewPMID(60, 0, 20)}}
	b := req.Append(nil, 1234)
	fmt.Printf("% x\n", b)
	h, err := pdu.ParseHeader(b)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(h.Len, h.Type, h.From)
	m, err := pdu.Decode(b)
	if err != nil {
		log.Fatal(err)
	}
	if f, ok := m.(*pdu.Fetch); ok {
		fmt.Println(f.PMIDs)
	}
	// Output:
	// 00 00 00 24 00 00 70 03 00 00 04 d2 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 02 0f 00 08 00 0f 00 00 14
	// 36 FETCH 1234
	// [60.2.0 60.0.20]
}

// A PDU whose count promises more than it holds is refused before
// anything is allocated for it, with an error wrapping PM_ERR_IPC.
func ExampleDecode_malformed() {
	b := (&pdu.Fetch{PMIDs: []pcp.PMID{1}}).Append(nil, 0)
	b[27] = 200 // the count of PMIDs, after the context and a legacy timestamp
	_, err := pdu.Decode(b)
	fmt.Println(errors.Is(err, pcp.ErrIPC))
	fmt.Println(err)
	// Output:
	// true
	// bad FETCH PDU at byte 24: numpmid 200 cannot fit in 4 bytes
}
