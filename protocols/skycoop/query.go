package skycoop

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// statusPing sends the status ping and decodes the reply. The player names come in
// the same reply; when the config carrying them is broken, the counts are still
// returned and the failure is a "players" phase error.
//
// Datagrams with another packet id are skipped while waiting (game traffic, or
// not Sky Co-op); if only such datagrams came before the deadline, the error is
// ErrMismatch naming the id seen, not ErrTimeout.
func statusPing(s protocols.Settings, packetID int32) *protocols.UDPExchange[*status] {
	return &protocols.UDPExchange[*status]{Retries: s.Retries, Request: request(),
		Answers: func(b []byte) error { return answers(b, packetID) },
		Decode:  func(b []byte) (*status, error) { return decodeReply(b, packetID) },
		Result: func(st *status, tr *wire.Trace) *protocols.Result {
			if st.ConfigErr != nil {
				tr.Logf("config: %v", st.ConfigErr)
			}
			if st.Trailing > 0 {
				tr.Logf("ignored %d bytes after the config", st.Trailing)
			}
			return st.Result(s.Players)
		}}
}
