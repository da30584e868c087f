package bedrock

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// exchange sends one Unconnected Ping and decodes the pong. The time is the
// probe's random number, not a clock: servers only echo it, and a random one
// ties the pong to this probe.
func exchange(s protocols.Settings) (protocols.Querier, error) {
	return &protocols.EchoExchange[*pong]{Retries: s.Retries,
		Request: func(n uint64) []byte { return ping(int64(n), rand.Uint64()) },
		Answers: func(b []byte, n uint64) error { return answers(b, int64(n)) },
		Decode:  func(b []byte, _ uint64) (*pong, error) { return decode(b) },
		Result:  result}, nil
}

// ping builds an Unconnected Ping: 01, time, magic, client GUID. A re-send
// repeats the same bytes, so a late pong to the first send still matches.
func ping(time int64, guid uint64) []byte {
	b := make([]byte, pingLen)
	b[0] = idPing
	binary.BigEndian.PutUint64(b[1:], uint64(time))
	copy(b[9:], magic[:])
	binary.BigEndian.PutUint64(b[25:], guid)
	return b
}

func result(pg *pong, tr *wire.Trace) *protocols.Result {
	if pg.dropped > 0 {
		tr.Logf("server id string: %d fields past the cap of %d not kept", pg.dropped, maxFields)
	}
	return pg.result()
}
