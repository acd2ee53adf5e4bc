package pmcd

import "net"

// Host access controls for other servers of PCP's: pmlogger's [access]
// section has pmcd.conf's host rules with its own operations (advisory,
// mandatory and enquire), decided by libpcp's same code.

// NewHostAccess returns empty host access controls for a server whose
// operations are the bits of all: a client denied every one of them is
// refused. AddHost fills it; AdmitHost judges clients.
func NewHostAccess(all int) *Access {
	return &Access{ops: all, myAddr: onceAddrs(myHostAddrs)}
}

// AddHost adds one host statement: name is a host name, address,
// wildcard ("192.168.*", ":*", "*"), "localhost", "local:" or "unix:";
// specOps are the operations the statement speaks of and denyOps those
// of them it denies. A statement contradicting an earlier one for the
// same host is ignored and noted (Notes), as PCP does; an unknown host or
// a bad wildcard is an error (errno values as libpcp's).
func (a *Access) AddHost(name string, specOps, denyOps int) error {
	return a.addHost(name, permSpec{spec: specOps, deny: denyOps})
}

// Notes returns and forgets the complaints made while adding statements.
func (a *Access) Notes() []string {
	n := a.notes
	a.notes = nil
	return n
}

func (a *Access) all() int {
	if a.ops != 0 {
		return a.ops
	}
	return opAll
}

// ClientOf identifies the peer of a server's connection for AdmitHost:
// its address, or for a Unix socket its credentials (SO_PEERCRED).
func ClientOf(conn net.Conn) ClientID { return clientIDOf(conn) }
