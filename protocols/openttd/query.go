package openttd

import (
	"context"
	"io"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	rules bool
}

func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return querier{rules: s.Rules}, nil
}

// Query opens one connection, sends PACKET_CLIENT_GAME_INFO and reads exactly
// one packet back: its size first, capped, then the rest.
//
// Not a protocols.UDPExchange: TCP, one packet read by its size on a connection.
func (q querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	p := tr.Begin("info")
	g, err := fetch(ctx, addr, tr)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if g.Trailing > 0 {
		tr.Logf("ignored %d bytes after the game info", g.Trailing)
	}
	return g.Result(q.rules), nil
}

func fetch(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (gameInfo, error) {
	conn, err := wire.DialTCP(ctx, addr, tr)
	if err != nil {
		return gameInfo{}, err
	}
	defer conn.Close()
	// A full or banning server sends its refusal on accept and closes: read it
	// even when the write fails.
	if _, err := conn.Write(request()); err != nil {
		tr.Logf("request not sent (%v); reading what the server sent", err)
	}
	pkt, err := readPacket(conn)
	if err != nil {
		return gameInfo{}, err
	}
	return decodePacket(pkt)
}

// readPacket reads one size-prefixed packet, never more than maxPacket bytes.
func readPacket(r io.Reader) ([]byte, error) {
	var h [headerSize]byte
	return wire.ReadFrame(r, h[:], "packet", header)
}
