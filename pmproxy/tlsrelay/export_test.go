package tlsrelay

// CipherList is cipherList, for the tests.
var CipherList = cipherList

// CipherSuites is cipherSuites, for the tests.
var CipherSuites = cipherSuites

// SuiteName is a TLS 1.2 suite's OpenSSL name, "" for one not in the
// table.
func SuiteName(id uint16) string {
	for _, su := range suites12 {
		if su.id == id {
			return su.name
		}
	}
	return ""
}

// SuiteNames are the table's OpenSSL names.
func SuiteNames() []string {
	var n []string
	for _, su := range suites12 {
		n = append(n, su.name)
	}
	return n
}
