package compat

import (
	"regexp"
	"strings"
	"testing"
)

// TestClientsAgainstPMCD runs PCP's clients against PCP's pmcd serving
// PCP's agents and against ours serving ours, the same conversation in
// the same order, and wants each to print the same against both.
func TestClientsAgainstPMCD(t *testing.T) {
	t.Parallel()
	py := python(t)
	converse(t, startBeds(t, false), py, clientSteps)
}

// TestPythonToolsAgainstPMCD runs PCP's python tools over the Linux
// agent against PCP's pmcd and ours; the values are the kernel's of the
// moment, so only the words and the shape of the output are compared.
func TestPythonToolsAgainstPMCD(t *testing.T) {
	t.Parallel()
	py := python(t)
	converse(t, startBeds(t, true), py, toolSteps)
}

// Values that follow the clock or the process, in pmprobe's words: the
// agent's pid and age, PDU counts (the probes of the beds' start
// differ), the values PCP's agent draws at random (lrand48: the byte
// counters and rates, sample.dodgey.value, sample.lights, sample.drift)
// and the instances of sample.mirage, with sample.colour, whose count
// moves on by one for each value of sample.mirage fetched; and the other
// names of those metrics (sample.dupnames.four.colour is sample.colour,
// sample.dupnames.two.lights sample.lights).
var (
	varyingRE = regexp.MustCompile(`(?m)^(sample\.(colour|dodgey\.value|daemon_pid|byte_ctr|byte_rate|kbyte_ctr|kbyte_rate|byte_rate_perhour|seconds|milliseconds|sysinfo|pdu|recv_pdu|xmit_pdu|datasize|step|step_counter|drift|lights|mirage|mirage_longlong|ulonglong\.bin|ulonglong\.bin_ctr|proc\.time|dupnames\.daemon_pid|dupnames\.pid_daemon|dupnames\.two\.seconds|dupnames\.two\.lights|dupnames\.four\.colour)) .*$`)
)

func maskVarying(s string) string { return varyingRE.ReplaceAllString(s, "${1} VALUES") }

// maskMirage drops the instance lines of pminfo's blocks for
// sample.mirage and sample.mirage_longlong, whose instances PCP's agent
// draws at random.
func maskMirage(s string) string {
	var b strings.Builder
	mirage := false
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" && line[0] != ' ' {
			mirage = strings.HasPrefix(line, "sample.mirage")
		} else if mirage && strings.HasPrefix(strings.TrimSpace(line), "inst [") {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// clientSteps is the conversation of TestClientsAgainstPMCD.
var clientSteps = []step{
	// pmprobe and pminfo over every sample metric.
	{args: []string{"pmprobe", "-h", hostArg, "-I", "sample"}, mask: maskVarying},
	{args: []string{"pmprobe", "-h", hostArg, "-v", "sample"}, mask: maskVarying},
	{args: []string{"pminfo", "-h", hostArg, "-dl", "sample"}, mask: maskMirage},
	// pmrep: several metrics, instances, derived metrics, CSV, extended
	// header, raw counters, a missing metric.
	{args: []string{"pmrep", "-h", hostArg, "-t", "0.2", "-s", "2", "-i", "bin-100,bin-900", "sample.long.one", "sample.double.ten", "sample.string.hullo", "sample.bin", "sample.nosuch"}},
	{args: []string{"pmrep", "-h", hostArg, "-t", "0.2", "-s", "2", "-o", "csv", "-e", "sample.long.ten*2+sample.long.one", "sample.ulong.million", "sample.longlong.hundred", "sample.float.bin", "sample.string.hullo"}},
	{args: []string{"pmrep", "-h", hostArg, "-t", "0.2", "-s", "2", "-x", "-r", "-u", "-v", "sample.long", "sample.ulong.bin_ctr", "sample.double"}, mask: maskHeaderTimes},
	// pmstore, then what the store changed.
	{args: []string{"pmstore", "-h", hostArg, "sample.write_me", "42"}},
	{args: []string{"pmstore", "-h", hostArg, "-i", "bin-100", "sample.bin", "7"}},
	{args: []string{"pmstore", "-h", hostArg, "sample.string.write_me", "hello there"}},
	{args: []string{"pmstore", "-h", hostArg, "sample.long.one", "3"}},
	{args: []string{"pminfo", "-h", hostArg, "-f", "sample.write_me", "sample.string.write_me"}},
	{args: []string{"pmstore", "-h", hostArg, "sample.write_me", "2"}},
	// pmie: rules with quantifiers, strings, a rate, events and a missing metric.
	{args: []string{"pmie", "-h", hostArg, "-c", "testdata/sample.pmie", "-t", "0.3", "-T", "1.5", "-v"}, mask: maskPmie},
	// pmevent over the event records the agent makes fetch by fetch.
	{args: []string{"pmevent", "-h", hostArg, "-t", "0.2", "-s", "4", "sample.event.records"}},
	{args: []string{"pmevent", "-h", hostArg, "-t", "0.2", "-s", "2", "-i", "fungus", "sample.event.highres_records"}},
	{args: []string{"pmevent", "-h", hostArg, "-t", "0.2", "-s", "2", "-x", "sample.event.param_string", "sample.event.no_indom_records"}},
	{args: []string{"pminfo", "-h", hostArg, "-x", "sample.event.records", "sample.event.highres_records"}},
	// PCP's python PMAPI over every sample metric.
	{args: []string{"testdata/pmapi.py", "host", hostArg}},
}

// toolSteps is the conversation of TestPythonToolsAgainstPMCD.
var toolSteps = []step{
	{args: []string{"pcp", "-h", hostArg, "free"}, mask: numbers},
	{args: []string{"pcp", "-h", hostArg, "uptime"}, mask: numbers},
	{args: []string{"pcp", "-h", hostArg, "vmstat", "-t", "0.2", "-s", "2"}, mask: numbers},
	{args: []string{"pcp", "-h", hostArg, "mpstat", "-t", "0.2", "-s", "1"}, mask: numbers},
	{args: []string{"pcp", "-h", hostArg, "dstat", "-t", "1", "-s", "1"}, mask: numbers},
	{args: []string{"pmrep", "-h", hostArg, "-t", "0.2", "-s", "2", ":vmstat"}, mask: numbers},
}

// maskHeaderTimes hides the start and end of pmrep's extended header
// (-x), which are when the run began and ended.
var headerTimeRE = regexp.MustCompile(`(?m)^(\s+(start|end):).*$`)

func maskHeaderTimes(s string) string { return headerTimeRE.ReplaceAllString(s, "${1} DATE") }

// maskPmie keeps the first two rounds of pmie's evaluations (how many
// fit before -T depends on the machine's load) and its last line, with
// its process id hidden.
var pmieRE = regexp.MustCompile(`pmie\(\d+\)`)

func maskPmie(s string) string {
	rounds := strings.Split(s, "\n\n")
	if len(rounds) > 3 {
		rounds = append(rounds[:2], rounds[len(rounds)-1])
	}
	return pmieRE.ReplaceAllString(strings.Join(rounds, "\n\n"), "pmie(PID)")
}
