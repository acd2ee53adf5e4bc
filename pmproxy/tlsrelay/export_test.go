package tlsrelay

// CipherList is cipherList, for the tests.
var CipherList = cipherList

// CipherSuites is cipherSuites, for the tests.
var CipherSuites = cipherSuites
