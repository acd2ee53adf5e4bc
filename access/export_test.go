package access

// InetAton exposes inetAton to the tests that compare it with glibc's.
var InetAton = inetAton
