package satisfactory

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// poll is the Lightweight Query: one poll with the probe's random cookie and the
// reply carrying it. Datagrams that do not answer the poll (another cookie, no
// magic, a poll) are skipped; if they were all that came, the error is why the
// last one was (ErrMismatch for a foreign cookie, ErrMalformed for junk): the
// host is answering, just not correctly, which says more than "no reply".
func poll(retries int, legacy bool) *protocols.EchoExchange[*response] {
	req := request
	if legacy {
		req = legacyRequest
	}
	return &protocols.EchoExchange[*response]{Retries: retries, Request: req, Answers: answers,
		Decode: func(b []byte, _ uint64) (*response, error) { return decode(b) }, Result: result}
}

func result(resp *response, tr *wire.Trace) *protocols.Result {
	if resp.Trailing > 0 {
		tr.Logf("ignored %d bytes after the terminator", resp.Trailing)
	}
	return resp.Result()
}
