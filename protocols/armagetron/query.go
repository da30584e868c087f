package armagetron

import (
	"context"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	retries        int
	players, rules bool
}

func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &querier{retries: s.Retries, players: s.Players, rules: s.Rules}, nil
}

var (
	smallRequest = request(descSmallRequest)
	bigRequest   = request(descBigRequest)
)

// answers returns an accept func for conn.Request: a datagram answers when it
// holds a message with descriptor desc. A datagram whose messages do not parse
// is taken as the answer when nothing better is possible, so its error shows.
func answers(tr *wire.Trace, desc uint16, bad *error) func([]byte) bool {
	return func(b []byte) bool {
		_, ok, err := findMessage(b, desc)
		if err != nil {
			*bad = err
			tr.Logf("skipped datagram: %v", err)
			return false
		}
		return ok
	}
}

// Query primes the server with the small info request ("challenge" phase:
// 0.2.9 ignores the big request from an address that has not sent one), then
// sends the big request on the same socket and decodes its answer.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.OnUDP(ctx, t, tr, q.retries, q.query)
}

func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	var bad error
	p := tr.Begin("challenge")
	_, err := conn.Request(ctx, smallRequest, answers(tr, descSmallInfo, &bad))
	err = explain(err, bad, "small server info")
	tr.End(p, err)
	if err != nil {
		return nil, err
	}

	bad = nil
	p = tr.Begin("info")
	reply, err := conn.Request(ctx, bigRequest, answers(tr, descBigInfo, &bad))
	err = explain(err, bad, "big server info")
	var info serverInfo
	if err == nil {
		info, err = decodeReply(reply)
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if info.ExtraWords > 0 {
		tr.Logf("ignored %d words after the known server-info fields", info.ExtraWords)
	}
	return info.Result(q.players, q.rules), nil
}

// explain replaces a timeout by the reason the last datagram was skipped: a
// broken answer says more than "no answer".
func explain(err, bad error, what string) error {
	if err != nil && bad != nil {
		return fmt.Errorf("no %s, last datagram skipped: %w", what, bad)
	}
	return err
}
