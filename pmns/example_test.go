package pmns_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

func Example() {
	const text = `
#define KERNEL 60
root {
    kernel
    proc	3:*:*	/* the proc agent names these itself */
}
kernel {
    load	KERNEL:2:0
    uptime	KERNEL:26:0
}
`
	tree, err := pmns.Parse(strings.NewReader(text), pmns.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pmid, _ := tree.Lookup("kernel.load")
	fmt.Println(pmid.Domain(), pmid.Cluster(), pmid.Item())

	pmid, _ = tree.Lookup("proc.psinfo.pid")
	domain, dynamic := pmns.DynamicDomain(pmid)
	fmt.Println(domain, dynamic)

	names, _ := tree.Traverse("")
	fmt.Println(names)

	_, err = tree.Lookup("kernel")
	fmt.Println(errors.Is(err, pcp.ErrNonLeaf))
	// Output:
	// 60 2 0
	// 3 true
	// [kernel.load kernel.uptime proc]
	// true
}

func ExampleParseError_Report() {
	_, err := pmns.Parse(strings.NewReader("root {\n    a 1:0:x\n}\n"), pmns.Options{Name: "bad.pmns"})
	fmt.Print(err.(*pmns.ParseError).Report())
	// Output:
	// [bad.pmns:2] Error Parsing ASCII PMNS: Expected NAME, PMID or }
	//     a 1:0:x
	//       ^
}
