package quake3

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	players, rules bool
	retries        int
}

// statusRequest builds `FF FF FF FF getstatus <challenge> 0A`. The server echoes
// the challenge as the info key `challenge`, which ties a reply to this probe.
func statusRequest(challenge string) []byte {
	b := make([]byte, 0, 4+len("getstatus ")+len(challenge)+1)
	b = append(b, 0xFF, 0xFF, 0xFF, 0xFF)
	b = append(b, "getstatus "...)
	b = append(b, challenge...)
	return append(b, '\n')
}

// Query sends one getstatus and decodes the single datagram it gets back: the
// player list and the server's cvars come in the same reply, so there is no
// separate players or rules phase.
func (q *querier) Query(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	// 26 base32 characters: no backslash, quote or space, well under the
	// server's 128-character limit.
	challenge := rand.Text()
	st := idtech.Status[*reply]{
		Request: statusRequest(challenge), Retries: q.retries, Decode: decodeStatus, NotReply: errNotReply,
		Check: func(r *reply) error {
			// Servers that drop the echo send no challenge key (or, like Warsow, an
			// empty one): accept those. A different token is a stray or spoofed reply.
			if c, ok := r.Lookup("challenge"); ok && c != "" && c != challenge {
				return fmt.Errorf("%w: challenge %q, sent %q", protocols.ErrMismatch, c, challenge)
			}
			return nil
		},
	}
	r, err := st.Query(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	if r.Unparsed > 0 || r.Dropped > 0 {
		tr.Logf("player lines: %d parsed, %d without a quoted name, %d past the cap of %d",
			len(r.Players), r.Unparsed, r.Dropped, idtech.MaxPlayerLines)
	}
	return r.result(q.players, q.rules), nil
}
