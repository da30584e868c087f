package mumble

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// ping sends the ping with the probe's random identifier and decodes the reply
// echoing it. Datagrams echoing another identifier are skipped; if only such
// datagrams came before the deadline the error is ErrMismatch, not ErrTimeout.
func ping(s protocols.Settings) *protocols.EchoExchange[*status] {
	return &protocols.EchoExchange[*status]{Retries: s.Retries, Request: request, Answers: answers, Decode: decode,
		Result: func(st *status, tr *wire.Trace) *protocols.Result {
			if st.Trailing > 0 {
				tr.Logf("ignored %d bytes after the 24-byte reply", st.Trailing)
			}
			return st.Result(s.Rules)
		}}
}
