//go:build tools

// fakefleet runs a fleet of fake game servers on consecutive loopback ports, for
// measuring the exporter against other probers on the same work (bench/run.sh).
//
//	fakefleet -base-port 21000 -count 1000 -proto a2s -challenge -tcp
//	fakefleet -base-port 22000 -count 8000 -proto silent
//
// a2s answers A2S_INFO (with the S2C_CHALLENGE round trip when -challenge is set, as
// Source servers do since 2020) and A2S_PLAYER (always behind a challenge). silent
// reads and never answers. -tcp also accepts TCP connections on the same ports and
// closes them at once, so a blackbox_exporter tcp probe succeeds.
//
// Each socket has one reader goroutine that blocks in the runtime's netpoller: a
// thousand of them cost no CPU while idle and a few KiB each. The reply buffers are
// built once and the read/write path does not allocate, so the fleet stays far below
// the probers it feeds.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

// stats counts what the fleet saw, so a run can check that every prober did the
// same work (one challenge and one info reply per probe).
var stats struct {
	datagrams, challenges, infos, players, ignored, accepts atomic.Int64
	delayed, delayNanos, delayMaxNanos                      atomic.Int64
}

func main() {
	var (
		listen    = flag.String("listen", "127.0.0.1", "address to listen on (loopback only)")
		basePort  = flag.Int("base-port", 21000, "first port of the fleet")
		count     = flag.Int("count", 1000, "number of servers, on consecutive ports")
		proto     = flag.String("proto", "a2s", "a2s (answers A2S_INFO and A2S_PLAYER) or silent (reads, never answers)")
		challenge = flag.Bool("challenge", false, "a2s: A2S_INFO demands the S2C_CHALLENGE round trip")
		withTCP   = flag.Bool("tcp", false, "also accept (and at once close) TCP connections on every port")
		nPlayers  = flag.Int("players", 12, "a2s: players each server reports (at most 64)")
		every     = flag.Duration("stats-interval", 0, "print the counters this often (0: only on exit)")
		delay     = flag.Duration("delay", 0, "a2s: answer this long after a request arrived, by the fleet's clock (a far server; bench/fidelity.sh)")
	)
	flag.Parse()
	ip, err := netip.ParseAddr(*listen)
	if err != nil || !ip.IsLoopback() {
		log.Fatalf("fakefleet: -listen %q: only a loopback address is allowed", *listen)
	}
	if *proto != "a2s" && *proto != "silent" {
		log.Fatalf("fakefleet: -proto %q: want a2s or silent", *proto)
	}
	if *count < 1 || *basePort < 1 || *basePort+*count-1 > 65535 {
		log.Fatalf("fakefleet: ports %d..%d out of range", *basePort, *basePort+*count-1)
	}
	srv := newServer(*proto == "silent", *challenge, min(max(*nPlayers, 0), 64))
	srv.delay = *delay

	for i := range *count {
		ap := netip.AddrPortFrom(ip, uint16(*basePort+i))
		pc, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(ap))
		if err != nil {
			log.Fatalf("fakefleet: %v (is another fleet running, or the fd limit too low? ulimit -n is %s)", err, nofile())
		}
		go srv.serveUDP(pc)
		if *withTCP {
			ln, err := net.ListenTCP("tcp", net.TCPAddrFromAddrPort(ap))
			if err != nil {
				log.Fatalf("fakefleet: %v", err)
			}
			go serveTCP(ln)
		}
	}
	// run.sh waits for this line before it starts a prober.
	fmt.Printf("fakefleet: ready: %d %s servers (challenge=%v tcp=%v) on %s:%d-%d\n",
		*count, *proto, *challenge, *withTCP, ip, *basePort, *basePort+*count-1)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	var tick <-chan time.Time
	if *every > 0 {
		tick = time.NewTicker(*every).C
	}
	for {
		select {
		case <-tick:
			printStats()
		case <-sig:
			printStats()
			return
		}
	}
}

func printStats() {
	fmt.Printf("fakefleet: datagrams=%d challenges=%d infos=%d players=%d ignored=%d tcp_accepts=%d",
		stats.datagrams.Load(), stats.challenges.Load(), stats.infos.Load(), stats.players.Load(),
		stats.ignored.Load(), stats.accepts.Load())
	if n := stats.delayed.Load(); n > 0 {
		// What the replies really waited: the timers fire late on a busy machine.
		fmt.Printf(" delayed=%d delay_mean_us=%.0f delay_max_us=%d", n, float64(stats.delayNanos.Load())/float64(n)/1e3, stats.delayMaxNanos.Load()/1e3)
	}
	fmt.Println()
}

// serveTCP accepts connections and closes them: a tcp_connect probe only needs the
// handshake.
func serveTCP(ln *net.TCPListener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue // e.g. EMFILE: keep serving
		}
		stats.accepts.Add(1)
		c.Close()
	}
}
