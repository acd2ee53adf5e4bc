package resp_test

import (
	"bufio"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/gopcp/gopcp/series/resp"
)

// A request as Redis reads it from every client: an array of bulk
// strings.
func ExampleAppendCommand() {
	fmt.Printf("%q\n", resp.AppendCommand(nil, "HGETALL", "pcp:desc:series:1d7a"))
	// Output:
	// "*2\r\n$7\r\nHGETALL\r\n$20\r\npcp:desc:series:1d7a\r\n"
}

// Replies decoded from a stream within the reader's bounds: an array of
// field and value, an integer, a nil and an error reply, which Err turns
// into a *resp.Error keeping Redis's text. A reply past a bound is an
// error of the stream, not of the reply.
func ExampleReader() {
	stream := "*4\r\n$4\r\ntype\r\n$6\r\ndouble\r\n$5\r\nunits\r\n$3\r\nsec\r\n" +
		":42\r\n" +
		"$-1\r\n" +
		"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n" +
		"*5\r\n:1\r\n:2\r\n:3\r\n:4\r\n:5\r\n"
	rd := resp.NewReader(bufio.NewReader(strings.NewReader(stream)), resp.Limits{MaxElems: 4})
	fields, err := rd.Read()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(fields.StringMap())
	n, err := rd.Read()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n.Integer())
	null, err := rd.Read()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(null.IsNil())
	bad, err := rd.Read()
	if err != nil {
		log.Fatal(err)
	}
	var re *resp.Error
	if errors.As(bad.Err(), &re) {
		fmt.Println(re.Prefix(), "|", re.Msg)
	}
	_, err = rd.Read()
	fmt.Println(err)
	// Output:
	// map[type:double units:sec]
	// 42 true
	// true
	// WRONGTYPE | WRONGTYPE Operation against a key holding the wrong kind of value
	// resp: malformed reply: length 5 over the bound 4
}
