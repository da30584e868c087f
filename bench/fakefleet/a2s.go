//go:build tools

package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"time"
)

// A2S packet types (Valve developer wiki, "Server queries").
const (
	typeInfoRequest    = 0x54 // A2S_INFO
	typePlayerRequest  = 0x55 // A2S_PLAYER
	typeRulesRequest   = 0x56 // A2S_RULES
	typeGetChallenge   = 0x57 // A2S_SERVERQUERY_GETCHALLENGE (obsolete, some clients still send it)
	typeChallengeReply = 0x41 // S2C_CHALLENGE
	typeInfoReply      = 0x49
	typePlayerReply    = 0x44
	typeRulesReply     = 0x45
)

var (
	header    = []byte{0xFF, 0xFF, 0xFF, 0xFF}
	infoQuery = append(append([]byte(nil), header...), "TSource Engine Query\x00"...) // the 25-byte request
)

// server holds the replies every socket of the fleet sends; they are built once and
// only read afterwards, so the sockets share them.
type server struct {
	silent, challenge bool
	info, players     []byte
	rules             []byte
	delay             time.Duration // answer this long after the request arrived
}

func newServer(silent, challenge bool, nPlayers int) *server {
	return &server{silent: silent, challenge: challenge, info: infoReply(nPlayers), players: playersReply(nPlayers), rules: rulesReply()}
}

// challengeFor is the socket's challenge: fixed per port, as a real server's is fixed
// per client for a while, and never -1 (which asks for a challenge).
func challengeFor(port int) uint32 { return 0x4a3b0000 ^ (uint32(port) * 2654435761 & 0x7fffffff) }

func (s *server) serveUDP(pc *net.UDPConn) {
	chal := challengeFor(pc.LocalAddr().(*net.UDPAddr).Port)
	var chalReply [9]byte
	copy(chalReply[:], header)
	chalReply[4] = typeChallengeReply
	binary.LittleEndian.PutUint32(chalReply[5:], chal)
	buf := make([]byte, 1500)
	// With a delay, the wait counts from the kernel's arrival stamp (stampArrivals).
	var oob []byte
	if s.delay > 0 && stampArrivals(pc) {
		oob = make([]byte, oobSize)
	}
	for {
		var (
			n, oobn int
			from    netip.AddrPort
			err     error
		)
		if oob != nil {
			n, oobn, _, from, err = pc.ReadMsgUDPAddrPort(buf, oob)
		} else {
			n, from, err = pc.ReadFromUDPAddrPort(buf) // as before -delay: the load tests' fleet
		}
		if err != nil {
			return // closed: the fleet is shutting down
		}
		stats.datagrams.Add(1)
		if s.silent {
			continue
		}
		out := s.respond(buf[:n], chal, chalReply[:])
		switch {
		case out == nil:
			stats.ignored.Add(1)
		case s.delay > 0:
			at, ok := arrivalTime(oob[:oobn])
			if !ok {
				at = time.Now()
			}
			time.AfterFunc(s.delay-time.Since(at), func() {
				pc.WriteToUDPAddrPort(out, from)
				countDelay(time.Since(at))
			})
		default:
			pc.WriteToUDPAddrPort(out, from)
		}
	}
}

// countDelay records how long a delayed reply really waited.
func countDelay(d time.Duration) {
	stats.delayed.Add(1)
	stats.delayNanos.Add(int64(d))
	for {
		m := stats.delayMaxNanos.Load()
		if int64(d) <= m || stats.delayMaxNanos.CompareAndSwap(m, int64(d)) {
			return
		}
	}
}

// respond returns the reply to one request datagram, or nil to ignore it.
// chalReply is the S2C_CHALLENGE datagram carrying chal.
func (s *server) respond(req []byte, chal uint32, chalReply []byte) []byte {
	if len(req) < 5 || !bytes.Equal(req[:4], header) {
		return nil
	}
	switch req[4] {
	case typeInfoRequest:
		// 25 bytes: no challenge; 29 bytes: the payload followed by the challenge.
		if !bytes.HasPrefix(req, infoQuery) {
			return nil
		}
		if !s.challenge || len(req) == len(infoQuery)+4 && binary.LittleEndian.Uint32(req[len(infoQuery):]) == chal {
			stats.infos.Add(1)
			return s.info
		}
		stats.challenges.Add(1)
		return chalReply
	case typePlayerRequest, typeRulesRequest:
		if len(req) < 9 || binary.LittleEndian.Uint32(req[5:9]) != chal {
			stats.challenges.Add(1)
			return chalReply
		}
		if req[4] == typeRulesRequest {
			return s.rules
		}
		stats.players.Add(1)
		return s.players
	case typeGetChallenge:
		stats.challenges.Add(1)
		return chalReply
	}
	return nil
}

func cstring(b []byte, s string) []byte { return append(append(b, s...), 0) }

// infoReply is a Source A2S_INFO reply (0x49) with the extra data flag carrying the
// game port, like a CS2 server's.
func infoReply(nPlayers int) []byte {
	b := append(append([]byte(nil), header...), typeInfoReply, 17)
	b = cstring(b, "fakefleet A2S server")
	b = cstring(b, "de_dust2")
	b = cstring(b, "csgo")
	b = cstring(b, "Counter-Strike 2")
	b = binary.LittleEndian.AppendUint16(b, 730)
	b = append(b, byte(nPlayers), 32, 0, 'd', 'l', 0, 1) // players, max, bots, dedicated, linux, public, VAC
	b = cstring(b, "1.40.9.1")
	b = append(b, 0x80) // EDF: game port follows
	return binary.LittleEndian.AppendUint16(b, 27015)
}

// playersReply is an A2S_PLAYER reply (0x44) with n players.
func playersReply(n int) []byte {
	b := append(append([]byte(nil), header...), typePlayerReply, byte(n))
	for i := range n {
		b = append(b, byte(i))
		b = cstring(b, fmt.Sprintf("player%02d", i))
		b = binary.LittleEndian.AppendUint32(b, uint32(i*7))
		b = binary.LittleEndian.AppendUint32(b, 0x44160000) // 600.0 s as float32
	}
	return b
}

// rulesReply is a small A2S_RULES reply (0x45).
func rulesReply() []byte {
	b := append(append([]byte(nil), header...), typeRulesReply)
	b = binary.LittleEndian.AppendUint16(b, 3)
	for _, kv := range [][2]string{{"mp_friendlyfire", "0"}, {"sv_cheats", "0"}, {"mp_timelimit", "30"}} {
		b = cstring(cstring(b, kv[0]), kv[1])
	}
	return b
}
