//go:build !linux

package pmcd

// domainName is empty where there is no getdomainname; pmcd then uses
// "localdomain", as PCP does when the name is unset.
func domainName() string { return "" }
