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
	b, err := wire.ReadFrame(conn, hdr[:], "answer", func(h []byte) (int, error) {
		n, err := bodyLen(h)
		return headerLen + n, err
	})
	if err != nil {
		return nil, err
	}
	ps, err := decodeBody(b[headerLen:])
	if err != nil {
		return nil, err
	}
	return result(ps)
}
