package httpd_test

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"

	"github.com/gopcp/gopcp/httpd"
)

// A server on httpd's own event loop: the program accepts connections
// and hands each to the Server, whose workers parse the requests and run
// the handler, here a ServeMux routing as net/http's does. A client of
// net/http asks it.
func Example() {
	mux := httpd.NewServeMux()
	mux.HandleFunc("/hello", func(w httpd.ResponseWriter, r *httpd.Request) {
		fmt.Fprintf(w, "hello, %s\n", r.URL.Query().Get("name"))
	})
	mux.HandleFunc("/api/", func(w httpd.ResponseWriter, r *httpd.Request) {
		httpd.Error(w, "no such call: "+r.URL.Path, http.StatusNotFound)
	})
	srv, err := httpd.New(httpd.Options{Handler: mux})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if srv.Add(c) != nil {
				c.Close()
			}
		}
	}()

	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for _, path := range []string{"/hello?name=pcp", "/api/v2", "/elsewhere"} {
		res, err := client.Get("http://" + ln.Addr().String() + path)
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		fmt.Printf("%d %s %q\n", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	// Output:
	// 200 text/plain; charset=utf-8 "hello, pcp\n"
	// 404 text/plain; charset=utf-8 "no such call: /api/v2\n"
	// 404 text/plain; charset=utf-8 "404 page not found\n"
}
