package quake2

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// statusRequest asks for the serverinfo and the client lines. (qstat sends
// `status 23`, a QuakeWorld option mask Quake II servers ignore.)
var statusRequest = []byte("\xff\xff\xff\xffstatus\n")

// exchange sends one status and decodes the single datagram it gets back:
// players and the serverinfo come together, so there is no separate phase for
// them. The reply carries no token to tie it to the request; the connected
// socket only lets the server's address and port through.
func exchange(s protocols.Settings) (protocols.Querier, error) {
	return &protocols.UDPExchange[*reply]{Retries: s.Retries, Request: statusRequest, Decode: decode, NotReply: errNotReply,
		Result: func(r *reply, tr *wire.Trace) *protocols.Result {
			if r.Unparsed > 0 || r.Dropped > 0 {
				tr.Logf("player lines: %d parsed, %d unparsed, %d past the cap of %d",
					len(r.Players), r.Unparsed, r.Dropped, idtech.MaxPlayerLines)
			}
			return r.result(s.Players, s.Rules)
		}}, nil
}
