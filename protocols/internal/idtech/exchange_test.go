package idtech

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// testStatus decodes "ok <token>" and "bad"; anything else is no reply.
func testStatus(req string) *Status[string] {
	return &Status[string]{
		Request: []byte(req),
		Decode: func(b []byte) (string, error) {
			switch {
			case string(b) == "bad":
				return "", fmt.Errorf("%w: bad", wire.ErrTruncated)
			case len(b) > 3 && string(b[:3]) == "ok ":
				return string(b[3:]), nil
			}
			return "", fmt.Errorf("%w: %q", errTestNotReply, b)
		},
		NotReply: errTestNotReply,
		Check: func(token string) error {
			if token != "mine" {
				return fmt.Errorf("%w: token %q", wire.ErrMismatch, token)
			}
			return nil
		},
	}
}

func TestStatus(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  []string
		want    string
		err     error
		skipped int
	}{
		{name: "strays skipped", answer: []string{"junk", "ok other", "ok mine", "ok mine"}, want: "mine", skipped: 2},
		{name: "broken answer ends the exchange", answer: []string{"junk", "bad", "ok mine"}, err: wire.ErrTruncated, skipped: 1},
		{name: "only strays: the last reason", answer: []string{"junk", "ok other"}, err: wire.ErrMismatch, skipped: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			addr := prototest.UDP(t, func(req []byte) [][]byte {
				if string(req) != "req" {
					t.Errorf("request %q", req)
				}
				var out [][]byte
				for _, a := range tc.answer {
					out = append(out, []byte(a))
				}
				return out
			})
			tr := wire.NewTrace()
			got, err := testStatus("req").Query(prototest.Context(t, 300*time.Millisecond), protocols.At(addr), tr)
			if got != tc.want || (tc.err == nil) != (err == nil) || tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("got %q %v, want %q %v", got, err, tc.want, tc.err)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || !errors.Is(tr.Phases[0].Err, tc.err) {
				t.Errorf("phases %+v", tr.Phases)
			}
			skipped := 0
			for _, p := range tr.Packets {
				if p.Note != "" {
					skipped++
				}
			}
			if skipped < tc.skipped {
				t.Errorf("%d datagrams noted as skipped, want %d", skipped, tc.skipped)
			}
		})
	}
}
