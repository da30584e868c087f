package doom3

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	players, rules bool
	retries        int
	infoEx         bool
	text           func([]byte) string // the module's code page (wire.UTF8 by default)
}

// request builds FF FF <command> 00 <challenge>. The server always reads four bytes
// after the command and echoes them, so the challenge must be there in full.
func request(command string, challenge uint32) []byte {
	b := make([]byte, 0, 2+len(command)+1+4)
	b = append(b, 0xFF, 0xFF)
	b = append(b, command...)
	b = append(b, 0)
	return binary.LittleEndian.AppendUint32(b, challenge)
}

// Not a protocols.UDPExchange: getInfoEx follows the info on the same socket.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.OnUDP(ctx, t, tr, q.retries, q.query)
}

func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	rep, err := q.exchange(ctx, conn, "getInfo", respInfo)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	res := rep.Result(q.players, q.rules)
	tr.Logf("variant %s, protocol %d.%d, %d player records", rep.Variant, rep.Major(), rep.Minor(), len(rep.Players))

	if rep.Variant == variantETQW && q.players && q.infoEx {
		// getInfoEx repeats the whole reply and adds per-player statistics. Not every
		// server may answer it: give it half the time left so a silent one still
		// leaves the info result standing.
		sub, cancel := protocols.Share(ctx, 2)
		defer cancel()
		if ex, ok := protocols.Phase(&res.PhaseErrors, tr, "players", func() (*reply, error) {
			ex, err := q.exchange(sub, conn, "getInfoEx", respInfoEx)
			if err == nil && ex.PlayersErr != nil {
				err = ex.PlayersErr
			}
			return ex, err
		}); ok {
			res = ex.Result(q.players, q.rules)
		}
	}
	return res, nil
}

// exchange sends command with a fresh challenge and decodes the resp reply that
// echoes it. Other replies are skipped as late, spoofed or stray; if only such
// replies came, the failure is a mismatch (or malformed) rather than a timeout.
func (q *querier) exchange(ctx context.Context, conn *wire.UDPConn, command, resp string) (*reply, error) {
	challenge := rand.Uint32()
	var wrong, other int
	var last uint32
	b, err := conn.Request(ctx, request(command, challenge), func(b []byte) bool {
		got, ok := echo(b, resp)
		switch {
		case !ok:
			other++
		case got != challenge:
			wrong, last = wrong+1, got
		}
		return ok && got == challenge
	})
	if err != nil && errors.Is(err, wire.ErrTimeout) {
		// The server did answer, just never with what was asked.
		switch {
		case wrong > 0:
			return nil, fmt.Errorf("%w: %d %s replies echoed challenge %08x, sent %08x", wire.ErrMismatch, wrong, resp, last, challenge)
		case other > 0:
			return nil, fmt.Errorf("%w: %d replies that are not %s", wire.ErrMalformed, other, resp)
		}
	}
	if err != nil {
		return nil, err
	}
	rep, err := decode(b, q.text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", resp, err)
	}
	return rep, nil
}
