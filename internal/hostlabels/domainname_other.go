//go:build !linux

package hostlabels

// domainName is empty where there is no getdomainname; the label is then
// "localdomain", as PCP does when the name is unset.
func domainName() string { return "" }
