package pmlogger_test

import (
	"fmt"
	"log"
	"time"

	"github.com/gopcp/gopcp/pmlogger"
)

// A pmlogger configuration read as pmlogger reads it (after pmcpp): each
// log clause with its control, interval and metrics (instances where
// given), and the access section's rules; then a mistake, reported with
// the file and line as pmlogger reports it.
func ExampleParseConfig() {
	conf := `# what to log
log mandatory on every 10 sec {
	kernel.all.load [ "1 minute" "15 minute" ]
	mem.util.used
}
log advisory on once { hinv.ncpu }
log mandatory off { kernel.percpu }

[access]
disallow * : all except enquire;
allow localhost : all;
`
	c, err := pmlogger.ParseConfig(conf, "config.default", 60*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range c.Statements {
		fmt.Printf("line %d: %s %v once=%v:", s.Line, s.State, s.Interval, s.Once)
		for _, m := range s.Metrics {
			fmt.Printf(" %s%v", m.Name, m.Insts)
		}
		fmt.Println()
	}
	for _, r := range c.Access {
		fmt.Println("allow", r.Allow, r.Hosts, r.Ops, "except", r.Except)
	}
	_, err = pmlogger.ParseConfig("log mandatory on every 10 furlongs { kernel.all.load }\n", "bad.config", time.Minute)
	fmt.Println(err)
	// Output:
	// line 2: mandatory on 10s once=false: kernel.all.load[1 minute 15 minute] mem.util.used[]
	// line 6: advisory on 0s once=true: hinv.ncpu[]
	// line 7: mandatory off 0s once=false: kernel.percpu[]
	// allow false [*] [all enquire] except true
	// allow true [localhost] [all] except false
	// Specification error in configuration file (bad.config)
	// [line 1] syntax error
}

// An archive base name with strftime conversions, as pmlogger expands
// "%Y%m%d.%H.%M"; the second result says a "-NN" suffix is added rather
// than fail when the name is taken.
func ExampleArchiveName() {
	t := time.Date(2026, time.November, 28, 16, 5, 0, 0, time.UTC)
	name, pattern, err := pmlogger.ArchiveName("/var/log/pcp/pmlogger/web1/%Y%m%d.%H.%M", t)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(name, pattern)
	// Output:
	// /var/log/pcp/pmlogger/web1/20261128.16.05 true
}
