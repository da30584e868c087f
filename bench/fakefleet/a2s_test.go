//go:build tools

package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"net"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/a2s"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func withChal(req []byte, c uint32) []byte {
	return binary.LittleEndian.AppendUint32(append([]byte(nil), req...), c)
}

func TestRespond(t *testing.T) {
	const chal = 0x01020304
	chalReply := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x41, 4, 3, 2, 1}
	players := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x55}
	withC, without := newServer(false, true, 3), newServer(false, false, 3)
	for _, tc := range []struct {
		name string
		s    *server
		req  []byte
		want []byte
	}{
		{"info asks for a challenge", withC, infoQuery, chalReply},
		{"info with the challenge", withC, withChal(infoQuery, chal), withC.info},
		{"info with a wrong challenge", withC, withChal(infoQuery, chal+1), chalReply},
		{"info without challenge mode", without, infoQuery, without.info},
		{"players with -1", without, withChal(players, 0xFFFFFFFF), chalReply},
		{"players with the challenge", without, withChal(players, chal), without.players},
		{"players truncated", withC, players, chalReply},
		{"rules with the challenge", withC, withChal([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x56}, chal), withC.rules},
		{"old getchallenge", withC, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x57}, chalReply},
		{"wrong payload", withC, []byte("\xFF\xFF\xFF\xFFTSource Engine Querz\x00"), nil},
		{"no header", withC, []byte("TSource Engine Query\x00"), nil},
		{"short", withC, []byte{0xFF, 0xFF}, nil},
		{"unknown type", withC, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x69}, nil},
	} {
		if got := tc.s.respond(tc.req, chal, chalReply); !bytes.Equal(got, tc.want) {
			t.Errorf("%s: got % x, want % x", tc.name, got, tc.want)
		}
	}
}

func TestChallengeNeverMinusOne(t *testing.T) {
	for port := 1; port <= 65535; port++ {
		if challengeFor(port) == 0xFFFFFFFF {
			t.Fatalf("port %d: challenge -1", port)
		}
	}
}

// TestQueryWithExporterQuerier checks the fleet against the exporter's own A2S
// client: challenge round trip, info and players decode as the fleet meant them.
func TestQueryWithExporterQuerier(t *testing.T) {
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); newServer(false, true, 5).serveUDP(pc) }()
	defer func() { pc.Close(); <-done }()

	q, err := a2s.Protocol.New(protocols.Settings{Players: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	res, err := q.Query(ctx, protocols.At(pc.LocalAddr().(*net.UDPAddr).AddrPort()), wire.NewTrace())
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "fakefleet A2S server" || res.Map != "de_dust2" || res.Players != protocols.Known(5) ||
		res.MaxPlayers != protocols.Known(32) || len(res.PlayerList) != 5 || len(res.PhaseErrors) != 0 {
		t.Errorf("unexpected result: %+v", res)
	}
	if res.PlayerList[4].Name != "player04" {
		t.Errorf("player 4 is %q", res.PlayerList[4].Name)
	}
}

// stampsActive waits until the kernel stamps datagrams as they arrive on pc:
// Linux turns its timestamping on in deferred work the first time a socket asks
// for it, and a datagram that comes before that work runs (a busy machine) is
// stamped only when it is read.
func stampsActive(t *testing.T, pc, c *net.UDPConn) {
	t.Helper()
	buf, oob := make([]byte, 64), make([]byte, oobSize)
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); {
		if _, err := c.Write([]byte("warm-up")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		pc.SetReadDeadline(time.Now().Add(time.Second))
		_, oobn, _, _, err := pc.ReadMsgUDPAddrPort(buf, oob)
		if err != nil {
			t.Fatal(err)
		}
		if at, ok := arrivalTime(oob[:oobn]); ok && time.Since(at) >= 4*time.Millisecond {
			pc.SetReadDeadline(time.Time{})
			return
		}
	}
	t.Skip("the kernel does not stamp arrivals on this machine")
}

// TestDelayCountsFromArrival: a request that waited in the socket before the fleet
// read it has its reply's wait counted from its arrival (on Linux, the kernel's
// stamp), as a prober sees it, and never less than the delay.
func TestDelayCountsFromArrival(t *testing.T) {
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	c, err := net.DialUDP("udp", nil, pc.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	stats.delayed.Store(0)
	stats.delayNanos.Store(0)
	const delay, queued = 20 * time.Millisecond, 60 * time.Millisecond
	s := newServer(false, false, 1)
	s.delay = delay
	if stampArrivals(pc) { // set before the request arrives; serveUDP sets it again
		stampsActive(t, pc, c)
		if _, err := c.Write(infoQuery); err != nil {
			t.Fatal(err)
		}
		time.Sleep(queued) // the request waits in the socket, unread
	} else if _, err := c.Write(infoQuery); err != nil {
		t.Fatal(err)
	}
	go s.serveUDP(pc)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 1500)
	if _, err := c.Read(buf); err != nil {
		t.Fatal(err)
	}
	want := delay
	if stampArrivals(pc) {
		want = queued
	}
	// Counted just after the reply is written. A reply an earlier test delayed may
	// be counted after the reset above (its timer ran late on a busy machine): wait
	// for this reply's count too, not merely the first.
	var got time.Duration
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if got = time.Duration(stats.delayNanos.Load()); got >= want {
			break
		}
	}
	if got < want {
		t.Errorf("counted wait %v, want at least %v (from the request's arrival)", got, want)
	}
}
