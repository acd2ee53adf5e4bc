package main

import (
	"strings"
)

// helpUsage are the usage lines of each command, as dbpmda shows them.
var helpUsage = map[string][]string{
	"attr":      {"attr name [value]", "attr attr# [value]"},
	"children":  {"children metric-name"},
	"close":     {"close"},
	"debug":     {"debug all | none", "debug [-]flag [ [-]flag ... ] (- prefix to clear)"},
	"desc":      {"desc metric"},
	"fetch":     {"fetch metric [ metric ... ]"},
	"getdesc":   {"getdesc on | off"},
	"getiname":  {"getiname on | off"},
	"instance":  {`instance indom# [ number | name | "name" ]`},
	"label":     {"label context", "label domain", "label indom indom#", "label cluster cluster#", "label item metric", "label instances indom#"},
	"name":      {"name pmid#"},
	"namespace": {"namespace fname"},
	"open": {"open dso dsoname init_routine [ domain# ]", "open pipe execname [ arg ... ]",
		"open socket unix sockname", "open socket inet port#|service", "open socket ipv6 port#|service"},
	"pmid":     {"pmid metric-name"},
	"profile":  {"profile indom# [ all | none ]", "profile indom# [ add | delete ] number"},
	"quit":     {"quit"},
	"status":   {"status"},
	"store":    {`store metric "value"`},
	"text":     {"text metric", "text indom indom#"},
	"timer":    {"timer on | off"},
	"traverse": {"traverse metric-name"},
	"wait":     {"wait seconds"},
	"watch":    {"watch logfilename"},
}

// helpOrder is the order of the command summary.
var helpOrder = []string{"attr", "children", "close", "debug", "desc", "fetch",
	"getdesc", "getiname", "instance", "label", "name", "namespace", "open",
	"pmid", "profile", "quit", "status", "store", "text", "timer", "traverse",
	"wait", "watch"}

// helpText explains each command, in this project's words.
var helpText = map[string]string{
	"attr":      "Send the agent a client attribute, by name or number, with an optional\nvalue, as pmcd forwards a client's credentials or container name.",
	"children":  "Ask the agent for the names one level below metric-name in its dynamic\nnamespace, each marked leaf or non-leaf.",
	"close":     "Close the connection to the agent (ending a daemon agent) and stay in\ndbpmda, ready to open another.",
	"debug":     "Turn debugging flags on or off, by name or number; 'all' and 'none' set\nthem all. status shows what is set.",
	"desc":      "Ask the agent for the descriptor of a metric, named or given as a PMID\n(N, N.N or N.N.N), and print it.",
	"fetch":     "Ask the agent for the values of one or more metrics, by name or PMID.",
	"getdesc":   "With getdesc on, each fetch first asks for the metrics' descriptors so\nthat values are printed according to their types.",
	"getiname":  "With getiname on, the instances in fetched values are shown with their\nnames, each looked up in the agent, instead of ???.",
	"instance":  "List an instance domain, or look up one instance by number or by name.",
	"label":     "Ask the agent for the labels of one level of the label hierarchy.",
	"name":      "Ask the agent for the names of a PMID in its dynamic namespace.",
	"namespace": "Replace the namespace used to resolve metric names with another file;\nthe old one is loaded again if the new one cannot be.",
	"open":      "Connect to an agent: start a daemon on a pipe, connect to one waiting on\na Unix socket or a local TCP port, or (dso) run a Go agent in-process,\nchosen by the entry point name a pmcd.conf dso line would give.",
	"pmid":      "Ask the agent for the PMID of a name in its dynamic namespace.",
	"profile":   "Change the instance profile sent before fetches: all or none of an\ninstance domain, or add or delete one instance.",
	"quit":      "Close the agent and leave dbpmda.",
	"status":    "Show the namespace, the agent, the switches and the instance profile.",
	"store":     "Store a value into every instance of a metric that a fetch returns,\nshowing each value before and after.",
	"text":      "Ask the agent for the one-line and full help of a metric, or of an\ninstance domain after the word indom.",
	"timer":     "With timer on, each request's round trip time is shown.",
	"traverse":  "Ask the agent for every name below metric-name in its namespace.",
	"wait":      "Pause for the given number of seconds.",
	"watch":     "Open an xterm that follows the log file with tail -f; the window stays\nuntil it is closed.",
}

// help prints the command summary, one command's usage, or its usage
// with an explanation.
func (s *session) help(cmd string, usageOnly bool) {
	var b strings.Builder
	if cmd == "" {
		b.WriteString("help [ command ]\n\n")
		for _, c := range helpOrder {
			for _, l := range helpUsage[c] {
				b.WriteString(l + "\n")
			}
		}
		b.WriteString("\n")
		s.printf("%s", b.String())
		return
	}
	if !usageOnly {
		b.WriteString("\n")
	}
	for _, l := range helpUsage[cmd] {
		b.WriteString(l + "\n")
	}
	if !usageOnly {
		b.WriteString("\n" + helpText[cmd] + "\n\n")
	}
	s.printf("%s", b.String())
}
