package frostbite

import (
	"context"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct{ players bool }

// Sequence numbers of our requests; bits 31 and 30 clear: a request, sent by the
// client. (The BC2 document's wording of bit 31 reads the other way round;
// servers answer clients that leave it clear, as every tool does.)
const (
	requestSeq = 1
	versionSeq = 2
	playersSeq = 3
)

var (
	request        = encodePacket(requestSeq, "serverInfo")
	versionRequest = encodePacket(versionSeq, "version")
	playersRequest = encodePacket(playersSeq, "listPlayers", "all")
)

// maxPackets bounds the packets read while waiting for an answer (a server has no
// reason to send anything else before it, but a packet of its own is skipped).
const maxPackets = 8

// Query opens one connection, sends serverInfo and reads its answer (phase "info"),
// then asks `version` on the same connection (phase "version"): the game and its
// build, which serverInfo leaves out; with players, `listPlayers all` (phase
// "players"). A failed version or player list is a phase error.
//
// Not a protocols.UDPExchange: TCP, up to three requests on one connection.
func (q querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, p, err := protocols.DialTCP(ctx, t.Addr, tr, "info")
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var res *protocols.Result
	words, err := ask(conn, tr, request, requestSeq)
	if err == nil {
		res, err = decodeServerInfo(words)
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	var game string
	if build, ok := protocols.Phase(&res.PhaseErrors, tr, "version", func() (build string, err error) {
		words, err := ask(conn, tr, versionRequest, versionSeq)
		if err != nil {
			return "", err
		}
		game, build, err = decodeVersion(words)
		return build, err
	}); ok {
		res.Version = build
		res.Info = append(res.Info, protocols.KV{Key: "versionGame", Value: game}, protocols.KV{Key: "version", Value: build})
	}
	if q.players {
		res.PlayerList, _ = protocols.Phase(&res.PhaseErrors, tr, "players", func() ([]protocols.Player, error) {
			words, err := ask(conn, tr, playersRequest, playersSeq)
			if err != nil {
				return nil, err
			}
			return decodePlayers(words) // nil when it fails
		})
	}
	return res, nil
}

// ask sends one request and returns the words of its answer, skipping packets
// that are not it.
func ask(conn *wire.TCPConn, tr *wire.Trace, req []byte, seq uint32) ([][]byte, error) {
	if _, err := conn.Write(req); err != nil {
		return nil, err
	}
	var hdr [headerLen]byte
	for n := range maxPackets {
		b, err := readPacket(conn, hdr[:])
		if err != nil {
			return nil, err
		}
		p, err := decodePacket(b)
		if err != nil {
			return nil, err
		}
		if !p.response || p.seq != seq {
			tr.Logf("packet %d skipped: response %v, sequence %d, not the answer to request %d", n, p.response, p.seq, seq)
			continue
		}
		return p.words, nil
	}
	return nil, fmt.Errorf("%w: no answer to request %d among %d packets", wire.ErrMismatch, seq, maxPackets)
}

// readPacket reads one packet, its size checked against the cap before the body
// is read.
func readPacket(conn *wire.TCPConn, hdr []byte) ([]byte, error) {
	return wire.ReadFrame(conn, hdr, "packet", func(h []byte) (int, error) {
		_, size, err := header(h)
		return size, err
	})
}
