package tribes1

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// exchange is the one request, with fresh echo bytes, and the reply that echoes
// them; req is the variant's request byte.
func exchange(s protocols.Settings, req byte) *protocols.EchoExchange[*reply] {
	return &protocols.EchoExchange[*reply]{Retries: s.Retries,
		Request: func(n uint64) []byte { return newRequest(req, uint16(n)) },
		Answers: func(b []byte, n uint64) error { return answers(b, req, uint16(n)) },
		Decode:  func(b []byte, _ uint64) (*reply, error) { return decode(b) },
		Result:  func(r *reply, _ *wire.Trace) *protocols.Result { return r.Result(s.Players, s.Rules) }}
}
