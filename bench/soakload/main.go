// Command soakload drives an HTTP server for a while with a list of
// requests, each worker taking them in turn, and prints how many were
// answered by status class and how many failed: a 5xx answer or a
// transport error counts as an error (a 4xx is the expected answer to a
// hostile request). It is bench/soak.sh's load generator where wrk is not
// installed, and drives the hostile requests in either case.
//
//	soakload -base http://127.0.0.1:8080 -list requests.txt -c 8 -d 60s
//
// Each line of the list is "GET /path?query" or "POST /path @file" (the
// body is the file's content); blank lines and lines starting with # are
// skipped.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type request struct {
	method, target string
	body           []byte
}

func main() {
	base := flag.String("base", "http://127.0.0.1:8080", "server URL")
	list := flag.String("list", "", "file of requests, one a line")
	conc := flag.Int("c", 8, "concurrent workers")
	dur := flag.Duration("d", 60*time.Second, "how long to run")
	flag.Parse()
	reqs, err := readList(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soakload:", err)
		os.Exit(2)
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: *conc}}
	var classes [6]atomic.Int64
	var transport atomic.Int64
	var bytesRead atomic.Int64
	var firstErr sync.Once
	deadline := time.Now().Add(*dur)
	var wg sync.WaitGroup
	for w := range *conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; time.Now().Before(deadline); i++ {
				rq := reqs[i%len(reqs)]
				req, err := http.NewRequest(rq.method, *base+rq.target, bytes.NewReader(rq.body))
				if err != nil {
					transport.Add(1)
					continue
				}
				if rq.body != nil {
					req.Header.Set("Content-Type", "application/yaml")
				}
				resp, err := client.Do(req)
				if err != nil {
					transport.Add(1)
					firstErr.Do(func() { fmt.Fprintf(os.Stderr, "soakload: %s %.80s: %v\n", rq.method, rq.target, err) })
					continue
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				bytesRead.Add(n)
				classes[min(resp.StatusCode/100, 5)].Add(1)
				if resp.StatusCode >= 500 {
					firstErr.Do(func() {
						fmt.Fprintf(os.Stderr, "soakload: %s %.80s: status %d\n", rq.method, rq.target, resp.StatusCode)
					})
				}
			}
		}()
	}
	wg.Wait()
	total := int64(0)
	for i := range classes {
		total += classes[i].Load()
	}
	errs := classes[5].Load() + transport.Load()
	fmt.Printf("requests %d (%.0f/s), 2xx %d, 3xx %d, 4xx %d, 5xx %d, transport errors %d, %.1f MB read\nerrors %d\n",
		total, float64(total)/dur.Seconds(), classes[2].Load(), classes[3].Load(), classes[4].Load(), classes[5].Load(), transport.Load(),
		float64(bytesRead.Load())/1e6, errs)
	if errs > 0 {
		os.Exit(1)
	}
}

func readList(path string) ([]request, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []request
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		parts := strings.Fields(s)
		switch {
		case len(parts) == 2 && parts[0] == "GET":
			out = append(out, request{method: "GET", target: parts[1]})
		case len(parts) == 3 && parts[0] == "POST" && strings.HasPrefix(parts[2], "@"):
			body, err := os.ReadFile(parts[2][1:])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, line, err)
			}
			out = append(out, request{method: "POST", target: parts[1], body: body})
		default:
			return nil, fmt.Errorf("%s:%d: want \"GET /path\" or \"POST /path @file\"", path, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no requests", path)
	}
	return out, nil
}
