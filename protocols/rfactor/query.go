package rfactor

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// newQuerier returns a Querier for the module's settings (there are no options):
// rF_S and its answer. The answer echoes nothing; the connected socket lets only
// the server's address through, and a datagram that is not an rF_S reply
// (answers) is skipped as a stray.
func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &protocols.UDPExchange[*reply]{Retries: s.Retries, Request: request, Answers: answers, Decode: decode,
		Result: func(r *reply, _ *wire.Trace) *protocols.Result { return r.Result() }}, nil
}
