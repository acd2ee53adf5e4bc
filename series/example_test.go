package series_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/gopcp/gopcp/series"
)

// A query parsed as pmseries and pmproxy's /series/query parse it: a
// function of a vector with a label filter and a time window; and a
// query libpcp_web refuses, with its message.
func ExampleParseExpr() {
	p, err := series.ParseExpr(`rate(kernel.all.load{hostname=="web1"}[samples:3])`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Root.Op, p.Root.Left.Op, p.Root.Left.Name, p.Window.Samples, p.HasFunction())
	_, err = series.ParseExpr(`kernel.all.load{hostname==}`)
	fmt.Println(err)
	// Output:
	// rate vector kernel.all.load 3 true
	// cannot parse given string
	//
	// kernel.all.load{hostname==}
	//                           ^ -- syntax error
}

// The archive and metrics of a load expression (pmseries --load,
// /series/load), by libpcp_web's rules.
func ExampleLoadSource() {
	path, metrics, err := series.LoadSource(`{source.path: "/var/log/pcp/pmlogger/web1/20260101", metric.name: "kernel.all.load"}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(path, metrics)
	// Output:
	// /var/log/pcp/pmlogger/web1/20260101 [kernel.all.load]
}

// A time window alone, as pmseries -w reads it (values other than plain
// numbers quoted, as the query grammar wants them), and one whose interval
// pmParseHighResInterval refuses.
func ExampleParseWindow() {
	w, err := series.ParseWindow(`[samples:10,interval:"30s"]`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Samples, w.Interval)
	_, err = series.ParseWindow(`[interval:"soon"]`)
	fmt.Println(err)
	// Output:
	// 10 30s
	// Cannot parse time delta with pmParseHighResInterval:
	// soon
	// ^ -- unexpected value
}

// pmseries.conf (or pmproxy.conf) read as pmIniFileSetup reads it, and
// the Redis servers it names.
func ExampleParseConfig() {
	conf := `
# the key server and its password
[pmseries]
servers = redis1:6379, redis2:6380
auth.password = secret
; a later line replaces an earlier one
[discover]
enabled = false
enabled = true
`
	c, err := series.ParseConfig(strings.NewReader(conf))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Servers(), c["discover.enabled"])
	// Output:
	// [redis1:6379 redis2:6380] true
}
