package hytale

import (
	"context"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct{}

var request = []byte("QUERY\n")

// Query opens one connection, sends QUERY and reads the one-line reply.
func (querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	p := tr.Begin("info")
	res, err := query(ctx, addr, tr)
	tr.End(p, err)
	return res, err
}

func query(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialTCP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	// A rate-limited server answers on connect and closes without reading, so
	// the write may fail (broken pipe) while its reply waits in our buffer:
	// read it anyway.
	if _, err := conn.Write(request); err != nil {
		tr.Logf("request not sent (%v); reading what the server sent", err)
	}
	line, err := conn.ReadLine(maxLine)
	if err != nil {
		return nil, err
	}
	st, err := decode(line)
	if err != nil {
		return nil, err
	}
	if st.Players > st.MaxPlayers {
		tr.Logf("server reports %d players over its maximum of %d", st.Players, st.MaxPlayers)
	}
	return &protocols.Result{
		Players:    protocols.Known(st.Players),
		MaxPlayers: protocols.Known(st.MaxPlayers),
		Info:       []protocols.KV{{Key: "reply", Value: wire.UTF8(line)}},
	}, nil
}
