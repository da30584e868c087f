package starmade

import (
	"context"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct{}

// Query sends the status command and reads its answer, in one phase.
func (querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.InfoPhase(ctx, t, tr, query)
}

func query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialTCP(ctx, t.Addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.Write(request); err != nil {
		return nil, err
	}
	var hdr [headerLen]byte
	if err := wire.ReadFull(conn, hdr[:], "answer header"); err != nil {
		return nil, err
	}
	n, err := bodyLen(hdr[:])
	if err != nil {
		return nil, err
	}
	body := make([]byte, n)
	if err := wire.ReadFull(conn, body, "answer body"); err != nil {
		return nil, err
	}
	ps, err := decodeBody(body)
	if err != nil {
		return nil, err
	}
	return result(ps)
}
