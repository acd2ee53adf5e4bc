package httpd

// Answer is what Options.Head writes an answer's head from. It is the
// server's (pooled with the request): Head must not keep it.
type Answer struct {
	// Request is the request answered.
	Request *Request
	// Status is the answer's status code.
	Status int
	// Header holds the handler's headers, a sniffed Content-Type
	// among them; Content-Length, Transfer-Encoding, Connection and
	// Date there are the handler's, not the framing's.
	Header Header
	// Length is the body's length when the answer says it, else -1:
	// Chunked, or an HTTP/1.0 answer ended by the connection's close.
	Length  int64
	Chunked bool
	// Close says the connection is closed after this answer; Head may
	// change it.
	Close bool
	// NoBody, set by Head, sends the head alone: what the handler
	// wrote, or writes later, is dropped.
	NoBody bool
}

// Date is the current time as a Date header says it (TimeFormat),
// computed once a second.
func Date() string { return httpDate() }
