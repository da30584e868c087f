package gamespy2

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Section flags of the request's bytes 7-9 (spec §1).
var (
	flagsInfo    = [3]byte{0xFF, 0x00, 0x00} // K/V section (info and rules)
	flagsPlayers = [3]byte{0x00, 0xFF, 0xFF} // player table, and team table for team names
)

type querier struct {
	players, rules bool
	text           func([]byte) string // the module's encoding:, nil: as sent (wire.UTF8)
}

// Not a protocols.UDPExchange: a second request for the player table when the info lacks it.
func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	id := rand.Uint32()

	p := tr.Begin("info")
	rep, err := exchange(ctx, conn, id, flagsInfo)
	var res *protocols.Result
	if err == nil {
		rep.recode(q.text)
		res = decodeInfo(rep.kv, q.rules)
		if rep.cut != nil && gamespy.Nothing(res) {
			err = rep.cut // cut before anything useful
		}
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if rep.cut != nil {
		tr.Logf("gamespy2: info reply cut short: %v", rep.cut)
		if q.rules { // not a protocols.Phase: the rules come in the info reply, cut with it
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "rules", Err: rep.cut})
		}
	}
	if q.players {
		q.queryPlayers(ctx, conn, tr, id+1, rep, res)
	}
	return res, nil
}

// queryPlayers fills res's player list, from the info reply when the server sent
// its tables unasked (spec §3 quirk 6), else from a second request.
func (q *querier) queryPlayers(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, id uint32, info *reply, res *protocols.Result) {
	if info.players != nil {
		setPlayers(res, info.players, info.teams)
		return
	}
	rep, _ := protocols.Phase(&res.PhaseErrors, tr, "players", func() (*reply, error) {
		rep, err := exchange(ctx, conn, id, flagsPlayers)
		if err != nil {
			return nil, err
		}
		rep.recode(q.text)
		switch {
		case rep.cut != nil:
			return rep, rep.cut // complete rows kept
		case rep.players == nil && res.Players.Value > 0:
			return rep, fmt.Errorf("%w: reply has no player table", wire.ErrTruncated)
		}
		return rep, nil
	})
	if rep != nil {
		setPlayers(res, rep.players, rep.teams)
	}
}

// exchange sends one request and decodes the reply that echoes its id. Replies with
// another id (late answers to an earlier request) are skipped; when nothing else
// came, the timeout says what was seen instead.
func exchange(ctx context.Context, conn *wire.UDPConn, id uint32, flags [3]byte) (*reply, error) {
	req := make([]byte, 10)
	req[0], req[1], req[2] = 0xFE, 0xFD, 0x00
	binary.BigEndian.PutUint32(req[3:7], id)
	copy(req[7:], flags[:])
	var foreign, mismatched int
	b, err := conn.Request(ctx, req, func(b []byte) bool {
		switch {
		case len(b) < headerLen || b[0] != 0:
			foreign++
			return false
		case !bytes.Equal(b[1:headerLen], req[3:7]):
			mismatched++
			return false
		}
		return true
	})
	if errors.Is(err, wire.ErrTimeout) {
		switch {
		case mismatched > 0:
			return nil, fmt.Errorf("%w: %d replies echo another request id", wire.ErrMismatch, mismatched)
		case foreign > 0:
			return nil, fmt.Errorf("%w: %d replies that are not GameSpy v2", wire.ErrMalformed, foreign)
		}
	}
	if err != nil {
		return nil, err
	}
	return decodeReply(b)
}
