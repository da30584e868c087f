package cs2d

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// newQuerier returns a Querier for the module's settings (CS2D has no options):
// the one request and the one answer. The answer carries no token; the connected
// socket lets only the server's address through. Servers drop some requests
// (gamedig sends three at once): an unanswered one is re-sent.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &protocols.UDPExchange[*reply]{Retries: s.Retries, Request: request, Answers: answers, Decode: decode,
		Result: func(r *reply, _ *wire.Trace) *protocols.Result { return r.Result(s.Players, s.Rules) }}, nil
}
