package bedrock

import (
	"context"
	"encoding/binary"
	"math/rand/v2"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	retries int
}

// ping builds an Unconnected Ping: 01, time, magic, client GUID. A re-send
// repeats the same bytes, so a late pong to the first send still matches.
func ping(time int64, guid uint64) []byte {
	b := make([]byte, pingLen)
	b[0] = idPing
	binary.BigEndian.PutUint64(b[1:], uint64(time))
	copy(b[9:], magic[:])
	binary.BigEndian.PutUint64(b[25:], guid)
	return b
}

// Query sends one Unconnected Ping and decodes the pong. The time is random,
// not a clock: servers only echo it, and a random one ties the pong to this probe.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	conn, err := wire.DialUDP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.Retries = q.retries

	time := rand.Int64()
	p := tr.Begin("info")
	pg, err := wire.Exchange(ctx, conn, ping(time, rand.Uint64()), func(b []byte) (*pong, error, error) {
		if skip := answers(b, time); skip != nil {
			return nil, skip, nil
		}
		pg, err := decode(b)
		return pg, nil, err
	})
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if pg.dropped > 0 {
		tr.Logf("server id string: %d fields past the cap of %d not kept", pg.dropped, maxFields)
	}
	return pg.result(), nil
}
