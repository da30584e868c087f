//go:build tools

// inflight holds many /probe requests in flight at once against one prober and
// reports the prober's memory: peak VmRSS sampled from /proc/PID/status while they
// are in flight, and VmHWM (the kernel's own high-water mark) at the end. Aimed at
// silent targets with a long probe timeout, every request stays open until its
// probe times out, so the prober holds them all at the same time.
//
//	inflight -url 'http://127.0.0.1:19100/probe?module=a2s' -base-port 22000 -count 8000 \
//	    -n 8000 -pid 1234 -metrics http://127.0.0.1:19100/metrics
//
// The last line is machine-readable (key=value), for bench/run.sh.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	var (
		probeURL = flag.String("url", "", "probe URL without target, e.g. http://127.0.0.1:19100/probe?module=a2s")
		host     = flag.String("target-host", "127.0.0.1", "host of the targets")
		basePort = flag.Int("base-port", 22000, "first target port")
		count    = flag.Int("count", 8000, "number of consecutive target ports")
		n        = flag.Int("n", 8000, "requests to hold in flight")
		pid      = flag.Int("pid", 0, "prober process to sample (0: none)")
		metrics  = flag.String("metrics", "", "optional /metrics URL to read the prober's in-flight gauge from")
		gauge    = flag.String("gauge", "gameserver_exporter_probes_in_flight", "in-flight gauge on -metrics")
		dials    = flag.Int("dial-concurrency", 256, "connections being opened at once (the listen backlog is finite)")
		timeout  = flag.Duration("timeout", 60*time.Second, "client timeout of one request")
		every    = flag.Duration("sample-interval", 50*time.Millisecond, "memory sampling interval")
	)
	flag.Parse()
	if *probeURL == "" || *n < 1 || *count < 1 {
		log.Fatal("inflight: -url, -n and -count are required")
	}
	sep := "&"
	if !strings.Contains(*probeURL, "?") {
		sep = "?"
	}

	var before procStatus
	if *pid != 0 {
		before = readStatus(*pid)
	}
	client := &http.Client{
		Timeout: *timeout,
		Transport: &http.Transport{
			DialContext:       (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
			DisableKeepAlives: true, // one connection per request: nothing is pooled or queued
			MaxConnsPerHost:   0,
		},
	}

	st := &stats{allSent: make(chan struct{}), n: int64(*n)}
	var wg sync.WaitGroup
	sem := make(chan struct{}, *dials)
	start := time.Now()
	for i := range *n {
		wg.Add(1)
		sem <- struct{}{}
		url := fmt.Sprintf("%s%starget=%s", *probeURL, sep, net.JoinHostPort(*host, strconv.Itoa(*basePort+i%*count)))
		go func() {
			defer wg.Done()
			st.fire(client, url, sem)
		}()
	}
	var (
		sent, done, httpOK, success, failed = &st.sent, &st.done, &st.httpOK, &st.success, &st.failed
		maxOutstanding, answeredEarly       = &st.maxOutstanding, &st.answeredEarly
		allSent                             = st.allSent
	)
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()

	// Sample memory (and the prober's own in-flight gauge) until every request ends.
	var peakRSS, peakGauge int64
	var sentAt time.Duration
	sentC := allSent // the goroutines keep reading allSent
	tick := time.NewTicker(*every)
	defer tick.Stop()
	lastGauge := time.Time{}
loop:
	for {
		select {
		case <-finished:
			break loop
		case <-sentC:
			sentAt = time.Since(start)
			fmt.Printf("inflight: all %d requests sent after %s\n", *n, sentAt.Round(time.Millisecond))
			sentC = nil // a nil channel is never ready again
		case <-tick.C:
			if *pid != 0 {
				peakRSS = max(peakRSS, readStatus(*pid).rss)
			}
			if *metrics != "" && time.Since(lastGauge) >= 250*time.Millisecond {
				lastGauge = time.Now()
				if g, ok := readGauge(*metrics, *gauge); ok {
					peakGauge = max(peakGauge, g)
				}
			}
		}
	}
	var after procStatus
	if *pid != 0 {
		after = readStatus(*pid)
		peakRSS = max(peakRSS, after.rss)
	}
	fmt.Printf("inflight: %d requests in %s: %d answered (%d HTTP 200, %d probe_success 1), %d failed\n",
		*n, time.Since(start).Round(time.Millisecond), done.Load(), httpOK.Load(), success.Load(), failed.Load())
	fmt.Printf("RESULT n=%d sent=%d answered=%d http_ok=%d success=%d failed=%d max_outstanding=%d answered_before_all_sent=%d peak_gauge=%d rss_before_kb=%d rss_peak_kb=%d hwm_kb=%d sent_seconds=%.2f seconds=%.2f\n",
		*n, sent.Load(), done.Load(), httpOK.Load(), success.Load(), failed.Load(), maxOutstanding.Load(), answeredEarly.Load(),
		peakGauge, before.rss, peakRSS, after.hwm, sentAt.Seconds(), time.Since(start).Seconds())
}

type procStatus struct{ rss, hwm int64 } // KiB

// readStatus reads VmRSS and VmHWM of pid; zeroes when the process is gone.
func readStatus(pid int) procStatus {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return procStatus{}
	}
	defer f.Close()
	var s procStatus
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var dst *int64
		switch k {
		case "VmRSS":
			dst = &s.rss
		case "VmHWM":
			dst = &s.hwm
		default:
			continue
		}
		*dst, _ = strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
	}
	return s
}

// readGauge fetches a text exposition and returns the value of an unlabelled gauge.
func readGauge(url, name string) (int64, bool) {
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return int64(f), err == nil
		}
	}
	return 0, false
}

// stats counts the requests of a run; fire updates it.
type stats struct {
	n                                   int64
	sent, done, httpOK, success, failed atomic.Int64
	outstanding, maxOutstanding         atomic.Int64
	answeredEarly                       atomic.Int64 // answers that came before every request was sent
	allSent                             chan struct{}
	sentOnce                            sync.Once
}

// fire sends one request and records its fate; it frees its dial slot in sem
// once the request is written (or the attempt ends).
func (st *stats) fire(client *http.Client, url string, sem chan struct{}) {
	var released, wrote atomic.Bool
	release := func() {
		if released.CompareAndSwap(false, true) {
			<-sem
		}
	}
	defer release()
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) {
		wrote.Store(true)
		o := st.outstanding.Add(1)
		for m := st.maxOutstanding.Load(); o > m && !st.maxOutstanding.CompareAndSwap(m, o); m = st.maxOutstanding.Load() {
		}
		if st.sent.Add(1) == st.n {
			st.sentOnce.Do(func() { close(st.allSent) })
		}
		release()
	}}
	req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), http.MethodGet, url, nil)
	resp, err := client.Do(req)
	if wrote.Load() {
		defer st.outstanding.Add(-1)
	}
	if err != nil {
		st.failed.Add(1)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	select {
	case <-st.allSent:
	default:
		st.answeredEarly.Add(1)
	}
	st.done.Add(1)
	if resp.StatusCode == http.StatusOK {
		st.httpOK.Add(1)
		if bytes.Contains(body, []byte("probe_success 1")) {
			st.success.Add(1)
		}
	}
}
