package master

import (
	"context"
	"errors"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxStrays bounds the datagrams read that do not answer the request.
const maxStrays = 64

// readList sends req and reads the datagrams of its reply until take says the
// list is done (or that it took enough), within ctx's deadline. take sorts each
// datagram: skip != nil, not part of the reply (a stray); err != nil, a broken
// reply. Until a first datagram arrives req is re-sent up to retries times; a
// list of several datagrams is never asked for again, since a master that
// answered is sending it.
func readList(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, req []byte, retries int, take func([]byte) (done bool, skip, err error)) error {
	got, strays := 0, 0
	for attempt := 0; ; attempt++ {
		if err := conn.Send(req); err != nil {
			return err
		}
		if left := retries - attempt; left > 0 {
			conn.SetReadDeadline(slot(ctx, left+1))
		} else if dl, ok := ctx.Deadline(); ok {
			conn.SetReadDeadline(dl)
		}
		for {
			b, err := conn.Recv()
			if err != nil {
				if errors.Is(err, wire.ErrTimeout) && got == 0 && attempt < retries && ctx.Err() == nil {
					break // resend
				}
				if errors.Is(err, wire.ErrTimeout) && got > 0 {
					return fmt.Errorf("%w: list incomplete after %d datagrams: no end mark before the deadline", wire.ErrTimeout, got)
				}
				return err
			}
			done, skip, err := take(b)
			switch {
			case skip != nil:
				tr.Ignore(skip.Error())
				if strays++; strays >= maxStrays {
					return fmt.Errorf("%w: %d datagrams that do not answer the request", wire.ErrMalformed, strays)
				}
				continue
			case err != nil:
				return fmt.Errorf("datagram %d: %w", got+1, err)
			}
			if got++; done {
				return nil
			}
			if got >= maxDatagrams {
				return fmt.Errorf("%w: the list goes on past %d datagrams", wire.ErrTooLarge, maxDatagrams)
			}
			// A master that answered is sending: wait for the rest until the
			// deadline, never re-sending.
			retries = attempt
			if dl, ok := ctx.Deadline(); ok {
				conn.SetReadDeadline(dl)
			}
		}
	}
}
