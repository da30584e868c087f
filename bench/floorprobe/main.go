//go:build tools

// floorprobe is the floor of what a /probe can cost on this machine: a bare net/http
// handler that does one A2S_INFO exchange, with the S2C_CHALLENGE round trip, and
// prints three fixed lines. No config, no registry, no decoding, no metrics library.
// bench/run.sh measures the exporter against it in the same run, so the ratio says
// what the exporter's features cost over the bare network work.
//
//	floorprobe -web.listen-address 127.0.0.1:19101 [-timeout 5s]
//	curl 'http://127.0.0.1:19101/probe?target=127.0.0.1:21000'
package main

import (
	"flag"
	"log"
	"net"
	"net/http"
	"net/netip"
	"time"
)

var (
	infoQuery = []byte("\xFF\xFF\xFF\xFFTSource Engine Query\x00")
	up        = []byte("probe_success 1\ngameserver_players 12\ngameserver_players_max 32\n")
	down      = []byte("probe_success 0\ngameserver_players 0\ngameserver_players_max 0\n")
)

func main() {
	listen := flag.String("web.listen-address", "127.0.0.1:19101", "address to serve /probe on")
	timeout := flag.Duration("timeout", 5*time.Second, "deadline of one probe")
	flag.Parse()
	http.HandleFunc("/-/healthy", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("Healthy\n")) })
	http.HandleFunc("/probe", func(w http.ResponseWriter, r *http.Request) {
		body := down
		if exchange(r.URL.Query().Get("target"), time.Now().Add(*timeout)) {
			body = up
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		w.Write(body)
	})
	log.Fatal(http.ListenAndServe(*listen, nil))
}

// exchange sends A2S_INFO to target, answers one challenge, and reports whether an
// info reply (0x49) came back before the deadline.
func exchange(target string, deadline time.Time) bool {
	ap, err := netip.ParseAddrPort(target)
	if err != nil {
		return false
	}
	c, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(ap))
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(deadline)
	var req [29]byte
	copy(req[:], infoQuery)
	var buf [1400]byte
	if _, err := c.Write(req[:25]); err != nil {
		return false
	}
	n, err := c.Read(buf[:])
	if err == nil && n >= 9 && buf[4] == 0x41 {
		copy(req[25:], buf[5:9])
		if _, err = c.Write(req[:]); err == nil {
			n, err = c.Read(buf[:])
		}
	}
	return err == nil && n > 5 && buf[4] == 0x49
}
