// Command nethttp serves one file with Go's net/http and nothing else: no
// middleware, no cache lookup, no timeouts, the body written with one
// Write. bench/http.sh runs it beside nginx and `gpuscout serve` as the
// ceiling of a net/http server on the machine, so that the API's share of
// nginx's requests per second can be split into what net/http costs and
// what gpuscout adds.
//
//	go run ./bench/nethttp -addr 127.0.0.1:8081 -file offers.json
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "address to listen on")
	file := flag.String("file", "", "the file to serve at every path")
	flag.Parse()
	body, err := os.ReadFile(*file)
	if err != nil {
		fmt.Fprintf(os.Stderr, "nethttp: %v\n", err)
		os.Exit(1)
	}
	length := []string{strconv.Itoa(len(body))}
	json := []string{"application/json"}
	err = http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Content-Type"] = json
		h["Content-Length"] = length
		w.Write(body)
	}))
	fmt.Fprintf(os.Stderr, "nethttp: %v\n", err)
	os.Exit(1)
}
