//go:build tools

// abuse measures what a client can make a running exporter hold (issue 13), from
// outside, for BENCHMARKS.md:
//
//   - heap: the exporter's go_memstats_heap_inuse_bytes before and after N /probe
//     requests, each with a distinct Accept header (a client-chosen cache key);
//
//   - slow bodies: C requests that announce a body and drip it a byte a second;
//     how many of their connections the exporter still holds after W;
//
//   - idle: C keep-alive connections left idle; how many are open after W.
//
//     abuse -addr 127.0.0.1:10115 -target 127.0.0.1:27015 -headers 20000 -slow 50 -wait 40s
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	var (
		addr    = flag.String("addr", "127.0.0.1:10115", "exporter address")
		target  = flag.String("target", "127.0.0.1:9", "probe target (a refused port answers fast)")
		module  = flag.String("module", "a2s", "probe module")
		headers = flag.Int("headers", 20000, "distinct Accept headers to send")
		slow    = flag.Int("slow", 50, "slow-body requests (0: skip)")
		idle    = flag.Int("idle", 50, "idle keep-alive connections (0: skip)")
		wait    = flag.Duration("wait", 40*time.Second, "how long after the slow and idle connections to count them")
	)
	flag.Parse()
	base := "http://" + *addr
	before := heapInuse(base)
	client := &http.Client{Timeout: 10 * time.Second}
	var wg sync.WaitGroup
	work := make(chan int)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				req, _ := http.NewRequest("GET", base+"/probe?module="+*module+"&target="+*target, nil)
				req.Header.Set("Accept", fmt.Sprintf("text/plain;version=0.0.4;q=0.%d;x=%s%d", i%9+1, strings.Repeat("x", 400), i))
				if resp, err := client.Do(req); err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
		}()
	}
	for i := range *headers {
		work <- i
	}
	close(work)
	wg.Wait()
	time.Sleep(2 * time.Second)
	after := heapInuse(base)
	fmt.Printf("heap_inuse_before_mib=%.1f heap_inuse_after_mib=%.1f growth_mib=%.1f headers=%d\n",
		mib(before), mib(after), mib(after-before), *headers)

	var conns []net.Conn
	for range *slow {
		c, err := net.Dial("tcp", *addr)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(c, "POST /-/reload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
		conns = append(conns, c)
		go func() { // a byte a second, for as long as the connection lasts
			for {
				if _, err := c.Write([]byte("x")); err != nil {
					return
				}
				time.Sleep(time.Second)
			}
		}()
	}
	for range *idle {
		c, err := net.Dial("tcp", *addr)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(c, "GET /-/healthy HTTP/1.1\r\nHost: x\r\n\r\n")
		conns = append(conns, c)
	}
	time.Sleep(*wait)
	open := func(cs []net.Conn) int {
		n := 0
		for _, c := range cs {
			c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
			br := bufio.NewReader(c)
			for {
				_, err := br.ReadByte()
				if err == nil {
					continue
				}
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					n++ // still open: nothing more to read, no EOF
				}
				break
			}
		}
		return n
	}
	fmt.Printf("slow_body_open_after=%d/%d idle_open_after=%d/%d wait=%s\n", open(conns[:*slow]), *slow, open(conns[*slow:]), *idle, *wait)
}

// heapInuse is the exporter's live heap right after a collection, read from the
// profiler (start the exporter with --web.enable-pprof): gc=1 collects first.
func heapInuse(base string) float64 {
	resp, err := http.Get(base + "/debug/pprof/heap?gc=1&debug=1")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		log.Fatalf("%s: %s (start the exporter with --web.enable-pprof)", resp.Request.URL, resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "# HeapAlloc = "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	log.Fatal("no HeapAlloc in the heap profile")
	return 0
}

func mib(b float64) float64 { return b / (1 << 20) }
