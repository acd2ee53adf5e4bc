// Package httpd is an HTTP/1.1 server built for a daemon whose clients
// are mostly idle: a kept-alive connection waiting for its next request
// costs no goroutine and no buffer, only a small record in one event
// loop (an epoll set of its own, itself waited for in Go's poller, so
// that no thread is held in epoll_wait) that owns the sockets. When a connection becomes readable
// a worker goroutine from a small pool reads what arrived into a pooled
// buffer, parses it, and once a request is whole (headers and body) runs
// the handler on it and writes the answer; whatever the socket does not
// take at once is finished by a goroutine of its own, so a slow reader
// holds no worker. An incomplete request keeps only its own bytes. A
// connection pipelining requests answers a few and then waits its turn;
// when the workers are all held by handlers that do not finish, more are
// started for the requests waiting behind them.
//
// Handlers are net/http's shape on this package's own types (Handler,
// ResponseWriter, *Request, Header, ServeMux, Error, Redirect,
// DetectContentType...), so that a program serving through httpd links
// none of net/http, whose package brings its client, TLS, X.509 and
// HTTP/2 into the binary; package httpd/httpstd turns a Handler into a
// net/http one for tests and for programs that have net/http anyway. The
// protocol is HTTP/1.0 and 1.1 as llhttp (PCP's pmproxy) and net/http
// accept it, with net/http's answers where a handler relies on them
// (framing by Content-Length or chunks, HEAD, Date, sniffed
// Content-Type) and its refusals (400, 413, 417, 431, 501, 505), and
// request smuggling refused. Headers, bodies and every wait are bounded
// (Options).
//
// A Server is safe for concurrent use: Add may be called from any
// goroutine, Close once from any. Linux only (epoll).
package httpd
