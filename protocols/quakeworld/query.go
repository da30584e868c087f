package quakeworld

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// statusRequest is the plain `status`: every QuakeWorld server answers it, and
// it lists players without spectators. (qstat's `status 23` adds spectators
// and teams, but only on mvdsv and FTE.)
var statusRequest = []byte("\xff\xff\xff\xffstatus\n")

// exchange sends one status and decodes the single datagram it gets back, as
// quake2 does; a QuakeWorld reply also ends in a NUL, whose absence is logged.
func exchange(s protocols.Settings) (protocols.Querier, error) {
	return &protocols.UDPExchange[*reply]{Retries: s.Retries, Request: statusRequest, Decode: decode, NotReply: errNotReply, Result: func(r *reply, tr *wire.Trace) *protocols.Result {
		if r.Unparsed > 0 || r.Dropped > 0 || !r.Terminated {
			tr.Logf("player lines: %d parsed, %d unparsed, %d past the cap of %d; NUL terminator seen: %v", len(r.Players), r.Unparsed, r.Dropped, idtech.MaxPlayerLines, r.Terminated)
		}
		return r.result(s.Players, s.Rules)
	}}, nil
}
