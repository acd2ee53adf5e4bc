package pmda

import "github.com/gopcp/gopcp/pcp"

// Metric is one metric an agent serves: its descriptor, its help texts and
// optional labels. Name is the metric's full name in the namespace; it is
// needed only when the agent serves its names itself (a dynamic namespace,
// root entry "name DOMAIN:*:*"), and may be left empty otherwise.
//
// The domain in Desc.PMID need not be set: New replaces it with the agent's
// domain, as pmdaInit does. An instance domain's domain is replaced likewise.
type Metric struct {
	Name    string
	Desc    pcp.Desc
	OneLine string // one-line help; empty means none (PM_ERR_TEXT)
	Help    string // full help; empty means none (PM_ERR_TEXT)
	Labels  []Label
}

// Instance is one member of an instance domain. Instance names must be
// unique up to their first space, which is how PCP matches them.
type Instance struct {
	ID     int32
	Name   string
	Labels []Label
}

// InDom is an instance domain with a fixed table of instances.
type InDom struct {
	InDom     pcp.InDom
	OneLine   string
	Help      string
	Labels    []Label
	Instances []Instance
}

// Label is one name:value pair of a label set. Value is a string, number,
// bool or nil (of any named type too), or a value with its own MarshalJSON
// or MarshalText, written as encoding/json's Marshal writes it; PCP labels
// are JSON values. Other kinds (maps, slices, structs) are refused.
type Label struct {
	Name  string
	Value any
}
