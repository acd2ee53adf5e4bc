// Package access is PCP's host, user and group access control, shared by
// pmcd (pmcd.conf's [access] section and pmcd.conf.access) and pmlogger
// (its configuration's [access] section): the statement grammar with
// pmcd's messages (Parse), host names, addresses, wildcards, "unix:",
// "local:" and "*" matched by libpcp's rules (the most specific entry
// deciding the operations it names), users and groups judged by the
// credentials of Unix-socket clients (SO_PEERCRED), and connection
// limits. A server says which operations it has (Options.Ops): pmcd's
// are OpFetch and OpStore.
package access
