package savage2

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// newQuerier returns a Querier for the module's settings (Savage 2 has no
// options): the one-byte request and its answer. The connected socket lets only
// the server's address through; a datagram too short for a reply, or one with
// neither a name nor slots, is skipped as a stray.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &protocols.UDPExchange[*reply]{Retries: s.Retries, Request: request, Answers: answers, Decode: decode, Check: aReply,
		Result: func(r *reply, _ *wire.Trace) *protocols.Result { return r.Result(s.Rules) }}, nil
}
